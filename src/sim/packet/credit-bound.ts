/**
 * A run whose buffers cannot cover a channel's credit round trip, refused before it is stepped
 * when it cannot finish within the cycle limit (docs/workloads.md, the PyTorch trace at packet
 * level: 8 ranks on 500 ns links with 16-flit buffers ran ~50 s of CPU into `maxCycles`).
 *
 * Credit-based flow control lets at most V × B flits (V VCs of B flits) be on a channel's way
 * downstream before their credits come back, which takes at least 2 × latency + 1 cycles (the flit
 * forward, the credit back; network.ts). So in a stretch of T stepped cycles that begins with its
 * credits home, channel c carries at most V·B·(1 + T / RT_c) flits. Stretches are separated by the
 * engine's idle skips (an empty network, credits home: schedule-run.ts), and each stretch that
 * uses c holds at least one message crossing c, so over the whole run
 *   flits_c ≤ V·B·messages_c + stepped × V·B / RT_c,
 * and stepped ≥ (flits_c − V·B·messages_c) × RT_c / (V·B) for every channel c whose buffers do not
 * cover its round trip. A message counts on c when the routes of ROUTE_SALTS salts all cross c
 * (every equal-cost choice a salt can make, for up to that many choices); hinted messages and
 * adaptive routings (the route is chosen in flight) count nowhere, which only lowers the bound.
 */
import type { Topology } from '../../topology/graph.js';
import { makeRouteBuffers, type RoutingFunction } from '../../routing/types.js';
import { OpKind } from '../../collectives/types.js';
import type { FlowProgram } from '../program/program.js';

/** Salts whose routes a message's counted channels are common to. */
const ROUTE_SALTS = 8;

export interface CreditBound {
  /** Stepped cycles the run needs at least. */
  readonly cycles: number;
  /** The channel that gives the bound, its flits, the buffered flits per round trip and the round trip (cycles). */
  readonly channel: number;
  readonly flits: number;
  readonly buffered: number;
  readonly roundTrip: number;
}

export interface CreditBoundConfig {
  readonly vcs: number;
  readonly vcBuf: number;
  readonly flitBytes: number;
  /** Channel latency in cycles, per channel. */
  readonly latencyCycles: (channel: number) => number;
}

/** The credit bound on a schedule run's stepped cycles, or undefined when every channel's buffers cover its round trip. */
export function creditBoundCycles(program: FlowProgram, t: Topology, routing: RoutingFunction, cfg: CreditBoundConfig): CreditBound | undefined {
  const buffered = cfg.vcs * cfg.vcBuf;
  const C = t.numChannels;
  const roundTrip = new Float64Array(C);
  let short = false;
  for (let c = 0; c < C; c++) {
    roundTrip[c] = 2 * cfg.latencyCycles(c) + 1;
    if (buffered < roundTrip[c]) short = true;
  }
  if (!short || routing.adaptive) return undefined;
  const flits = new Float64Array(C);
  const messages = new Float64Array(C);
  const common = commonChannels(t, routing);
  const { opKind, opHint, opBytes, opCount, opPeer, dsts, streamRank } = program;
  for (let s = 0; s < program.numStreams; s++) {
    const src = t.endpoints[streamRank[s]];
    for (let o = program.opStart[s]; o < program.opStart[s + 1]; o++) {
      if (opKind[o] !== OpKind.Send || opHint[o] >= 0) continue;
      const f = Math.max(1, Math.ceil(opBytes[o] / cfg.flitBytes));
      for (let d = opPeer[o]; d < opPeer[o] + opCount[o]; d++) {
        for (const c of common(src, t.endpoints[dsts[d]])) {
          flits[c] += f;
          messages[c]++;
        }
      }
    }
  }
  let best: CreditBound | undefined;
  for (let c = 0; c < C; c++) {
    if (buffered >= roundTrip[c] || flits[c] === 0) continue;
    const cycles = Math.ceil(((flits[c] - buffered * messages[c]) * roundTrip[c]) / buffered);
    if (best === undefined || cycles > best.cycles) best = { cycles, channel: c, flits: flits[c], buffered, roundTrip: roundTrip[c] };
  }
  return best;
}

/** The channels every route of ROUTE_SALTS salts from one node to another crosses (cached per pair). */
function commonChannels(t: Topology, routing: RoutingFunction): (src: number, dst: number) => readonly number[] {
  const cache = new Map<number, readonly number[]>();
  const buf = makeRouteBuffers(routing.maxHops);
  const seen = new Int32Array(t.numChannels);
  let stamp = 0;
  return (src, dst) => {
    const key = src * t.numNodes + dst;
    let out = cache.get(key);
    if (out !== undefined) return out;
    let current: number[] = [];
    for (let salt = 0; salt < ROUTE_SALTS; salt++) {
      const hops = routing.route(src, dst, salt, buf);
      stamp++;
      for (let h = 0; h < hops; h++) seen[buf.channels[h]] = stamp;
      if (salt === 0) current = Array.from(buf.channels.subarray(0, hops));
      else current = current.filter((c) => seen[c] === stamp);
    }
    out = current;
    cache.set(key, out);
    return out;
  };
}
