/**
 * A schedule's own bound: the makespan it would reach if each of its steps ran at its own
 * bottleneck with zero latency and zero overhead. A step is the part of every stream between two
 * of its barriers (or hwCollectives); step k of all streams counts as one step. Within a step,
 * the time is the largest load/capacity over channels (and NIC ports, when modelled), or a paced
 * flow's own bytes × (g+1) / bottleneck bandwidth when that is larger, or the bytes of an
 * hwCollective ending the step over the combining network's bandwidth (seed 002's xor-swap moves
 * all its data that way: without this term its bound read 0). The gap between this and the
 * topology bound says whether the algorithm or the engine is losing time.
 */
import type { Topology } from '../../topology/graph.js';
import { fatpipeChannels } from '../../topology/registry.js';
import { hintMaxHops, routeWithHint } from '../../routing/hints.js';
import { makeRouteBuffers, type RouteBuffers, type RoutingFunction } from '../../routing/types.js';
import type { FlowProgram } from '../program/program.js';
import { OpKind } from '../../collectives/types.js';
import type { FlowModel } from '../program/model.js';
import type { QuotientMaps } from '../flow/symmetry.js';

export interface ScheduleBound {
  readonly seconds: number;
  readonly steps: number;
  /** Time of each step, seconds (at most 1,000 listed). */
  readonly stepSeconds: readonly number[];
}

/**
 * One step's load per resource (channels, then injection ports, then ejection ports), with the
 * resources it touched. Methods rather than closures made per step: the bound adds every route
 * entry of every message, and the closures were 16 % of a hop-grouped 32×32×16 run.
 */
class StepLoad {
  readonly load: Float64Array;
  readonly touched: Int32Array;
  private readonly isTouched: Uint8Array;
  /** FATPIPE channels (fatpipeChannels), whose loads bound nothing. */
  private readonly fatpipe: Uint8Array | undefined;
  numTouched = 0;

  constructor(
    private readonly t: Topology,
    private readonly program: FlowProgram,
    private readonly model: FlowModel,
    private readonly injBase: number,
    private readonly ejBase: number,
    /** A symmetry quotient (flow/symmetry.ts): loads land on channel orbits and representatives' ports. */
    private readonly quotient: QuotientMaps | undefined,
  ) {
    this.load = new Float64Array(ejBase + program.numRanks);
    this.fatpipe = fatpipeChannels(t);
    this.touched = new Int32Array(this.load.length);
    this.isTouched = new Uint8Array(this.load.length);
  }

  add(r: number, bytes: number): void {
    if (!this.isTouched[r]) {
      this.isTouched[r] = 1;
      this.touched[this.numTouched++] = r;
    }
    this.load[r] += bytes;
  }

  /** Adds a route's channels and its NIC ports; returns its bottleneck bandwidth. */
  addRoute(buf: RouteBuffers, hops: number, srcRank: number, dstRank: number, s: number, bytes: number, withInj: boolean): number {
    const { t, model } = this;
    const orbit = this.quotient?.channelOrbit;
    let minBw = Infinity;
    for (let i = 0; i < hops; i++) {
      this.add(orbit === undefined ? buf.channels[i] : orbit[buf.channels[i]], bytes);
      minBw = Math.min(minBw, t.chBandwidth[buf.channels[i]]);
    }
    if (model.injectionBandwidth !== null && withInj) {
      this.add(this.injBase + srcRank * model.nics + (this.program.streamLocal[s] % model.nics), bytes);
      minBw = Math.min(minBw, model.injectionBandwidth);
    }
    if (model.ejectionBandwidth !== null && dstRank >= 0) this.add(this.ejBase + (this.quotient === undefined ? dstRank : this.quotient.repOf[dstRank]), bytes);
    return minBw;
  }

  /** The step's time (at least `flowMax`), leaving every load at zero for the next step. */
  finish(flowMax: number): number {
    const { t, model, load, touched, quotient: q } = this;
    let step = flowMax;
    for (let i = 0; i < this.numTouched; i++) {
      const r = touched[i];
      // An orbit O of channels carries |H| / |O| images of each entry: its capacity is bandwidth × |O| / |H|.
      // A FATPIPE link's flows do not add up (each is bounded by its bandwidth through flowMax).
      const cap =
        r < t.numChannels
          ? this.fatpipe?.[r] === 1
            ? Infinity
            : q === undefined
              ? t.chBandwidth[r]
              : (t.chBandwidth[r] * q.orbitSize[r]) / q.order
          : r < this.ejBase
            ? model.injectionBandwidth!
            : model.ejectionBandwidth! * model.nics;
      step = Math.max(step, load[r] / cap);
      load[r] = 0;
      this.isTouched[r] = 0;
    }
    this.numTouched = 0;
    return step;
  }
}

/** `quotient`: the program is a symmetry quotient's representatives (flow/symmetry.ts); the bound is the full program's. */
export function scheduleBound(t: Topology, routing: RoutingFunction, program: FlowProgram, model: FlowModel, quotient?: QuotientMaps): ScheduleBound {
  const R = program.numRanks;
  const C = t.numChannels;
  const nics = model.nics;
  const injBase = C;
  const ejBase = C + R * nics;
  const stepLoad = new StepLoad(t, program, model, injBase, ejBase, quotient);
  const S = program.numStreams;
  const cursor = new Int32Array(S);
  const gap = new Float64Array(S);
  for (let s = 0; s < S; s++) cursor[s] = program.opStart[s];
  let maxHops = 2 * routing.maxHops + 2;
  for (const hint of program.hints) maxHops = Math.max(maxHops, hintMaxHops(routing, hint) + routing.maxHops);
  const rb = makeRouteBuffers(maxHops);
  const rb2 = makeRouteBuffers(maxHops);
  const scratch = makeRouteBuffers(maxHops);
  let total = 0;
  const stepSeconds: number[] = [];
  let steps = 0;
  for (;;) {
    let flowMax = 0;
    let any = false;
    for (let s = 0; s < S; s++) {
      const end = program.opStart[s + 1];
      let o = cursor[s];
      if (o < end) any = true;
      const srcRank = program.streamRank[s];
      for (; o < end; o++) {
        const kind = program.opKind[o];
        if (kind === OpKind.Barrier || kind === OpKind.HwCollective) {
          if (kind === OpKind.HwCollective) flowMax = Math.max(flowMax, program.opBytes[o] / model.hwBandwidth);
          o++;
          break;
        }
        if (kind === OpKind.Pace) gap[s] = program.opBytes[o];
        if (kind !== OpKind.Send) continue;
        const bytes = program.opBytes[o];
        const h = program.opHint[o];
        const hint = h >= 0 ? program.hints[h] : undefined;
        const count = program.opCount[o];
        let minBw = Infinity;
        if (hint !== undefined && hint.kind === 'via' && count > 1 && hint.nodes.length > 0) {
          // One cut-through flow over the union of the branches: the first leg carries the bytes once.
          const via = hint.nodes[hint.nodes.length - 1];
          const h1 = routeWithHint(t, routing, t.endpoints[srcRank], via, { kind: 'via', nodes: hint.nodes.slice(0, -1) }, 0, rb, scratch);
          minBw = stepLoad.addRoute(rb, h1, srcRank, -1, s, bytes, true);
          for (let i = 0; i < count; i++) {
            const dr = program.dsts[program.opPeer[o] + i];
            const h2 = routing.route(via, t.endpoints[dr], 0, rb2);
            minBw = Math.min(minBw, stepLoad.addRoute(rb2, h2, srcRank, dr, s, bytes, false));
          }
        } else {
          for (let i = 0; i < count; i++) {
            const dr = program.dsts[program.opPeer[o] + i];
            if (dr === srcRank) continue;
            const hops = routeWithHint(t, routing, t.endpoints[srcRank], t.endpoints[dr], hint, o * 2, rb, scratch);
            if (model.splitTies) {
              const hops2 = routeWithHint(t, routing, t.endpoints[srcRank], t.endpoints[dr], hint, o * 2 + 1, rb2, scratch);
              minBw = Math.min(minBw, stepLoad.addRoute(rb, hops, srcRank, dr, s, bytes / 2, true), stepLoad.addRoute(rb2, hops2, srcRank, dr, s, bytes / 2, true));
            } else {
              minBw = Math.min(minBw, stepLoad.addRoute(rb, hops, srcRank, dr, s, bytes, true));
            }
          }
        }
        if (gap[s] > 0 && minBw < Infinity) flowMax = Math.max(flowMax, (bytes * (gap[s] + 1)) / minBw);
      }
      cursor[s] = o;
    }
    if (!any) break;
    const step = stepLoad.finish(flowMax);
    total += step;
    if (stepSeconds.length < 1000) stepSeconds.push(step);
    steps++;
  }
  return { seconds: total, steps, stepSeconds };
}
