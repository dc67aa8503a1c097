/**
 * Seed 000's background figures as checked claims: FIG. 5 (link superposition), FIG. 6 (the 50/50
 * band split at a router), FIG. 7 (pacing on the 6-node line), FIG. 8 (uniform against non-uniform
 * routes on a 4-node ring) and the 1-D torus deadlock of ¶0042, each on the smallest network the
 * figure draws, with hand-built programs run by `simulate`.
 */
import type { Claim } from '../../report/checklist.js';
import type { RoutingFunction, RouteBuffers } from '../../routing/types.js';
import { makeRouteBuffers } from '../../routing/types.js';
import { resolveRouting } from '../../routing/registry.js';
import { FlowProgramBuilder, type FlowProgram } from '../../sim/program/program.js';
import { simulate } from '../../sim/simulate.js';
import { DeadlockError } from '../../sim/packet/deadlock.js';
import type { Topology } from '../../topology/graph.js';
import { mesh, torus } from '../../topology/cartesian.js';
import type { Arbitration } from '../../sim/packet/config.js';
import { maxOf, minOf } from '../../util/arrays.js';

/** Bytes each sender moves in the figure experiments: 2,048 flits of 32 bytes, so a few buffered packets are < 1 % of the time. */
export const FIGURE_BYTES = 65536;
const SETUP = [
  `${FIGURE_BYTES} bytes per transfer, 25 Gb/s links with 100 ns latency, α = 1 µs (the patent gives no sizes)`,
  'packet level: iSLIP, wormhole, 2 VCs × 16 flits, 8-flit packets of 32-byte flits (schedule-run defaults)',
];

/** A program in which each `[src, dst]` pair moves `bytes` once, each send preceded by pace(gap) when gap > 0. */
export function transfersProgram(ranks: number, pairs: ReadonlyArray<readonly [number, number]>, bytes: number, gap = 0, hints?: ReadonlyArray<readonly number[]>): FlowProgram {
  const b = new FlowProgramBuilder(ranks);
  pairs.forEach(([s, d], i) => {
    b.beginStream(s);
    if (gap > 0) b.pace(gap);
    b.send(d, bytes, i, hints ? { kind: 'path', nodes: hints[i] } : undefined);
  });
  pairs.forEach(([s, d], i) => b.beginStream(d).recv(s, bytes, i));
  return b.build();
}

/** Routes of `pairs` counted per channel (the superposition FIG. 5 draws). */
export function channelLoads(t: Topology, routing: RoutingFunction, pairs: ReadonlyArray<readonly [number, number]>): Int32Array {
  const load = new Int32Array(t.numChannels);
  const buf = makeRouteBuffers(routing.maxHops);
  for (const [s, d] of pairs) {
    const hops = routing.route(t.endpoints[s], t.endpoints[d], 0, buf);
    for (let h = 0; h < hops; h++) load[buf.channels[h]]++;
  }
  return load;
}

const link = { bandwidth: 25e9 / 8, latency: 100e-9 };
const line = (n: number): Topology => mesh([n], link);
const usOf = (s: number): string => (s * 1e6).toFixed(2);
/** The time one transfer of FIGURE_BYTES takes alone on one link. */
const alone = FIGURE_BYTES / link.bandwidth;

function packetRun(t: Topology, program: FlowProgram, arbitration: Arbitration = 'round-robin', routing?: RoutingFunction, vcs?: number) {
  return simulate({ topology: t, program, engine: 'packet', routing, packet: { config: { arbitration, ...(vcs ? { vcs } : {}) } } });
}

/** FIG. 5: nodes 1–3 of a 6-node line each send 3 hops ahead; the overlap per link is 1, 2, 3, 2, 1. */
export function fig5Claim(): Claim {
  const t = line(6);
  const pairs = [[0, 3], [1, 4], [2, 5]] as const;
  const loads = channelLoads(t, resolveRouting(t), pairs);
  const perLink = [0, 1, 2, 3, 4].map((i) => loads[t.channelBetween(t.endpoints[i], t.endpoints[i + 1])]);
  const flow = simulate({ topology: t, program: transfersProgram(6, pairs, FIGURE_BYTES), engine: 'flow' });
  // Three flows share the 3–4 link at B/3 each: α + 3 hops × 100 ns + 3 × (bytes / B).
  const expectedMakespan = 1e-6 + 3 * link.latency + 3 * alone;
  const ok = perLink.join(',') === '1,2,3,2,1' && Math.abs(flow.makespan_s / expectedMakespan - 1) < 1e-9;
  return {
    id: '000.fig5.superposition',
    source: 'document',
    claim: 'Nodes 1–3 of a line each sending 3 hops ahead overlap between node 2 and node 5, most on the link between nodes 3 and 4, whose band is divided among the overlapping routes',
    where: 'FIG. 5, ¶0038–¶0039',
    expected: 'overlap highest on link 3–4 (spec §1.3: 1, 2, 3, 2, 1 per link); the band there divided three ways',
    measured: `routes per link 1–2 … 5–6: ${perLink.join(', ')}; flow level: makespan ${usOf(flow.makespan_s)} µs against α + 3 × 100 ns + 3 × ${usOf(alone)} µs = ${usOf(expectedMakespan)} µs (each route gets B/3 on link 3–4)`,
    threshold: 'the exact per-link counts, and the makespan equal to the B/3 formula within 1e−9',
    setup: [SETUP[0], 'routing: the mesh\'s dimension order (the only minimal route on a line)'],
    ...(ok
      ? { verdict: 'reproduced' as const }
      : { verdict: 'not-reproduced' as const, why: 'the routes or the band division differ from the figure' }),
  };
}

/** FIG. 6: three nodes in series all sending beyond node 3; node 3's router splits 50/50 between its own CPU and transit. */
export function fig6Claim(): Claim {
  const t = line(4);
  const pairs = [[0, 3], [1, 3], [2, 3]] as const;
  const program = transfersProgram(4, pairs, FIGURE_BYTES);
  /** When each source's last byte has left it, in units of one transfer alone on a link. */
  const finishes = (res: { ranks: { finish_s: readonly number[] } }) => [0, 1, 2].map((r) => res.ranks.finish_s[r] / alone);
  const rr = finishes(packetRun(t, program, 'round-robin'));
  const age = finishes(packetRun(t, program, 'age'));
  const flow = finishes(simulate({ topology: t, program, engine: 'flow' }));
  // 50/50 at node 3 and at node 2: node 3 gets B/2 and ends at 2 units; nodes 1 and 2 get B/4 each, then B/2: 3 units.
  const share3 = 1 / rr[2];
  const ok = Math.abs(share3 - 0.5) <= 0.05 && Math.abs(rr[0] - 3) <= 0.15 && Math.abs(rr[1] - 3) <= 0.15;
  const f = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(', ');
  return {
    id: '000.fig6.band-split',
    source: 'document',
    claim: 'A router that splits its band evenly between its own CPU and transit packets gives the node nearest the shared route half the link, and the upstream nodes a quarter each: unfair',
    where: 'FIG. 6, ¶0040–¶0041',
    expected: 'node 3: 50 % of the link after it; nodes 1 and 2 together 50 % (25 % each, spec §1.4): finishing at 2 and 3 transfer times',
    measured: `packet level, round-robin: sources 1, 2, 3 finish at ${f(rr)} transfer times (node 3's share while all send ${(100 * share3).toFixed(1)} %); age-based arbitration: ${f(age)}; flow level (max-min): ${f(flow)}`,
    threshold: 'node 3\'s share within 45–55 % and nodes 1 and 2 finishing within 0.15 transfer times of 3',
    sensitivity: `node 3's share is ${(100 * share3).toFixed(1)} %: the verdict holds for any tolerance above ${Math.abs(100 * share3 - 50).toFixed(1)} points`,
    setup: [...SETUP, 'node i sends to node 4 (the "node subsequent to node 3"); one transfer time = bytes / link bandwidth'],
    ...(ok
      ? { verdict: 'reproduced-under-reading' as const, reading: 'the router\'s band split is round-robin between input ports (the packet engine\'s iSLIP), as the figure describes; age-based arbitration splits the same way here (all packets of a send are created when it is posted, so their ages tie), and only max-min sharing is fair' }
      : { verdict: 'not-reproduced' as const, why: 'round-robin arbitration did not give node 3 half the link' }),
  };
}

/** FIG. 7: the FIG. 5 transfers paced with gap = hops − 1 = 2 packets, against unpaced. */
export function fig7Claim(): Claim {
  const t = line(6);
  const pairs = [[0, 3], [1, 4], [2, 5]] as const;
  const unpaced = packetRun(t, transfersProgram(6, pairs, FIGURE_BYTES));
  const paced = packetRun(t, transfersProgram(6, pairs, FIGURE_BYTES, 2));
  const spread = (r: { ranks: { finish_s: readonly number[] } }) => {
    const s = [0, 1, 2].map((i) => r.ranks.finish_s[i]);
    return (maxOf(s) - minOf(s)) / maxOf(s);
  };
  const ratio = unpaced.makespan_s / paced.makespan_s;
  const fair = spread(paced) < 0.05;
  // The sentence judged here is [0044]'s "the packet waiting state is prevented on the route where
  // transfers overlap" (a property: an even share of link 3–4). Its next sentence, "the time for
  // completing the all-to-all is reduced", is 000.pacing's, judged on real all-to-alls: on this
  // 3-flow line link 3–4 bounds the time whatever the pacing (issue 27).
  const ok = fair;
  return {
    id: '000.fig7.pacing',
    source: 'document',
    form: 'property',
    claim: 'With a transmission interval of (hops − 1) packets on the FIG. 5 transfers, packets no longer wait on the overlapped route: every source gets an even share of link 3–4',
    where: 'FIG. 7, ¶0043–¶0044',
    expected: 'paced: every route gets an equal share of link 3–4 (the sources finish together)',
    decides: `paced source finish spread ${spread(paced).toFixed(3)} (unpaced ${spread(unpaced).toFixed(3)}) against the 5 % threshold`,
    measured: `packet level, round-robin: unpaced ${usOf(unpaced.makespan_s)} µs (source finish spread ${spread(unpaced).toFixed(3)}), paced (gap 2) ${usOf(paced.makespan_s)} µs (spread ${spread(paced).toFixed(3)}); unpaced / paced = ${ratio.toFixed(3)}`,
    threshold: 'paced sources finish within 5 % of each other',
    sensitivity: `paced spread ${spread(paced).toFixed(3)}: any threshold above it holds; the makespan is not this sentence's (unpaced / paced = ${ratio.toFixed(3)}: link 3–4 carries three transfers either way, so on this line pacing cannot shorten the exchange, by construction)`,
    setup: [...SETUP, 'gap in packets of the packet engine (8 flits)'],
    ...(ok
      ? { verdict: 'reproduced-under-reading' as const, reading: 'spec §1.5 (FIG. 7 draws no times): "no waiting on the overlapped route" read as an even share of link 3–4, every source finishing together' }
      : { verdict: 'not-reproduced' as const, why: 'paced sources still finish unevenly' }),
  };
}

/**
 * FIG. 8: a 4-node ring, each node sending 2 hops ahead. Uniform: every node takes the + direction.
 * Non-uniform: each node goes through its lower-numbered neighbour (node 4 to node 2 through node 1).
 */
export function fig8Claim(): Claim {
  const t = torus([4], link);
  const pairs = [0, 1, 2, 3].map((r) => [r, (r + 2) % 4] as const);
  const uniform = pairs.map(([s]) => [s, (s + 1) % 4, (s + 2) % 4]);
  const nonUniform = pairs.map(([s, d]) => [s, Math.min((s + 1) % 4, (s + 3) % 4), d]);
  const run = (hints: number[][]) => simulate({ topology: t, program: transfersProgram(4, pairs, FIGURE_BYTES, 0, hints), engine: 'flow' });
  // Load per undirected link i–(i+1), both directions together, as the figure draws links.
  const undirected = (res: ReturnType<typeof run>) => [0, 1, 2, 3].map((i) => {
    const a = t.endpoints[i];
    const b = t.endpoints[(i + 1) % 4];
    return (res.raw!.channelBytes[t.channelBetween(a, b)] + res.raw!.channelBytes[t.channelBetween(b, a)]) / FIGURE_BYTES;
  });
  const u = run(uniform);
  const n = run(nonUniform);
  const lu = undirected(u);
  const ln = undirected(n);
  const ok = maxOf(lu) === minOf(lu) && ln[0] === maxOf(ln) && ln[0] > maxOf(lu);
  return {
    id: '000.fig8.uniform-routes',
    source: 'document',
    claim: 'On a 4-node 1-D torus, similar routes on every node load every link evenly; dissimilar routes (node 4 to node 2 through node 1) overload the link between nodes 1 and 2',
    where: 'FIG. 8A/8B, ¶0045–¶0047',
    expected: 'uniform: equal load on every link; non-uniform: the most on link 1–2',
    measured: `transfers per link 1–2, 2–3, 3–4, 4–1 (both directions): uniform ${lu.join(', ')}, non-uniform ${ln.join(', ')}; flow level makespan ${usOf(u.makespan_s)} vs ${usOf(n.makespan_s)} µs (full-duplex links: each direction still carries at most 2 transfers)`,
    threshold: 'exact transfer counts per link',
    setup: [SETUP[0], 'non-uniform routes: each node through its lower-numbered neighbour (one assignment with the figure\'s route 4→1→2)', 'explicit path hints; flow level'],
    ...(ok
      ? { verdict: 'reproduced-under-reading' as const, reading: 'load counted per link over both directions, as the figure draws links; with full-duplex links the makespan is the same, so the unevenness costs time only on half-duplex links or when the links carry other traffic' }
      : { verdict: 'not-reproduced' as const, why: 'the non-uniform routes did not load link 1–2 most' }),
  };
}

/** Routes around a 1-D torus in the + direction only; with `dateline`, hops after the wrap use VC class 1. */
export function plusRingRouting(t: Topology, k: number, dateline: boolean): RoutingFunction {
  return {
    name: dateline ? 'ring-plus(dateline)' : 'ring-plus(one class)',
    params: { routing: 'ring-plus', dateline },
    vcClasses: dateline ? 2 : 1,
    // Declared deadlock free so the packet engine runs it as given: ¶0042 is about what happens when it is not.
    deadlockFree: true,
    maxHops: k,
    route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
      let node = src;
      let h = 0;
      let cls = 0;
      while (node !== dst) {
        const next = (node + 1) % k;
        if (dateline && node === k - 1) cls = 1;
        out.channels[h] = t.channelBetween(node, next);
        out.vcClass[h++] = cls;
        node = next;
      }
      return h;
    },
  };
}

/** A cycle in the channel dependency graph of the routes (channel, class) → next, as "u→v" names, or [] when acyclic. */
export function dependencyCycle(t: Topology, routing: RoutingFunction, pairs: ReadonlyArray<readonly [number, number]>): string[] {
  const next = new Map<number, Set<number>>();
  const buf = makeRouteBuffers(routing.maxHops);
  const key = (h: number) => buf.channels[h] * routing.vcClasses + buf.vcClass[h];
  for (const [s, d] of pairs) {
    const hops = routing.route(t.endpoints[s], t.endpoints[d], 0, buf);
    for (let h = 0; h + 1 < hops; h++) {
      const set = next.get(key(h)) ?? new Set<number>();
      set.add(key(h + 1));
      next.set(key(h), set);
    }
  }
  const state = new Map<number, number>();
  const stack: number[] = [];
  const name = (k: number) => {
    const c = Math.floor(k / routing.vcClasses);
    return `${t.chSrc[c] + 1}→${t.chDst[c] + 1}${routing.vcClasses > 1 ? ` (class ${k % routing.vcClasses})` : ''}`;
  };
  const visit = (v: number): number[] | null => {
    state.set(v, 1);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (state.get(w) === 1) return stack.slice(stack.indexOf(w));
      if (!state.has(w)) {
        const c = visit(w);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(v, 2);
    return null;
  };
  for (const v of next.keys()) {
    if (state.has(v)) continue;
    const c = visit(v);
    if (c) return c.map(name);
  }
  return [];
}

/** ¶0042: three nodes on a 1-D torus, each sending 2 hops ahead: a deadlock without prioritised packets, none with them. */
export function deadlockClaim(): Claim {
  const k = 3;
  const t = torus([k], link);
  const pairs = [0, 1, 2].map((r) => [r, (r + 2) % k] as const);
  const program = transfersProgram(k, pairs, FIGURE_BYTES);
  const outcome = (dateline: boolean): { cycle: string[]; packet: string; deadlocked: boolean } => {
    const routing = plusRingRouting(t, k, dateline);
    const cycle = dependencyCycle(t, routing, pairs);
    try {
      const res = packetRun(t, program, 'round-robin', routing, 2);
      return { cycle, packet: `completes in ${usOf(res.makespan_s)} µs`, deadlocked: false };
    } catch (e) {
      if (!(e instanceof DeadlockError)) throw e;
      return { cycle, packet: `deadlock at cycle ${e.cycle} (waiting: ${e.waitCycle.length} VCs in a cycle)`, deadlocked: true };
    }
  };
  const plain = outcome(false);
  const fixed = outcome(true);
  const ok = plain.cycle.length > 0 && plain.deadlocked && fixed.cycle.length === 0 && !fixed.deadlocked;
  return {
    id: '000.deadlock.1d-torus',
    source: 'document',
    claim: 'On a 1-D torus of three nodes whose routers treat all packets alike, the communication route deadlocks; prioritising some packets prevents it',
    where: '¶0042, FIG. 3, FIG. 6',
    expected: 'a deadlock without priorities; none with them',
    measured: `one buffer class: channel dependency cycle ${plain.cycle.join(' → ')}; packet level ${plain.packet}. Packets that crossed the wrap link in their own class: ${fixed.cycle.length === 0 ? 'no dependency cycle' : `cycle ${fixed.cycle.join(' → ')}`}; packet level ${fixed.packet}`,
    threshold: 'a cycle in the channel dependency graph and a packet-level deadlock without the fix; neither with it',
    setup: [...SETUP.slice(0, 1), 'each node sends 2 hops ahead in the + direction (the route through both other nodes), wormhole, 2 VCs × 16 flits per port in both runs, deadlock declared after 2,000 cycles without a flit moving', 'routers: round-robin (no priority) against a dateline class for packets past the wrap link'],
    ...(ok
      ? { verdict: 'reproduced-under-reading' as const, reading: 'the unnamed priority of ¶0042 read as the dateline: packets that have crossed the wrap link travel in a buffer class of their own, which breaks the cyclic dependency (Dally and Seitz)' }
      : { verdict: 'not-reproduced' as const, why: plain.deadlocked ? 'the dateline class did not remove the deadlock' : 'no deadlock formed without priorities at this size' }),
  };
}

/** Every figure claim, in document order. */
export function figureClaims(): Claim[] {
  return [fig5Claim(), fig6Claim(), deadlockClaim(), fig7Claim(), fig8Claim()];
}
