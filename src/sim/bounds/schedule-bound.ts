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
import { hintMaxHops, routeWithHint } from '../../routing/hints.js';
import { makeRouteBuffers, type RoutingFunction } from '../../routing/types.js';
import type { FlowProgram } from '../program/program.js';
import { OpKind } from '../../collectives/types.js';
import type { FlowModel } from '../program/model.js';

export interface ScheduleBound {
  readonly seconds: number;
  readonly steps: number;
  /** Time of each step, seconds (at most 1,000 listed). */
  readonly stepSeconds: readonly number[];
}

export function scheduleBound(t: Topology, routing: RoutingFunction, program: FlowProgram, model: FlowModel): ScheduleBound {
  const R = program.numRanks;
  const C = t.numChannels;
  const nics = model.nics;
  const injBase = C;
  const ejBase = C + R * nics;
  const load = new Float64Array(ejBase + R);
  const touched = new Int32Array(load.length);
  const isTouched = new Uint8Array(load.length);
  const S = program.numStreams;
  const cursor = new Int32Array(S);
  const gap = new Float64Array(S);
  for (let s = 0; s < S; s++) cursor[s] = program.opStart[s];
  let maxHops = 2 * routing.maxHops + 2;
  for (const hint of program.hints) maxHops = Math.max(maxHops, hintMaxHops(routing, hint) + routing.maxHops);
  const rb = makeRouteBuffers(maxHops);
  const rb2 = makeRouteBuffers(maxHops);
  const scratch = makeRouteBuffers(maxHops);
  const capOf = (r: number): number => (r < C ? t.chBandwidth[r] : r < ejBase ? model.injectionBandwidth! : model.ejectionBandwidth! * nics);
  let total = 0;
  const stepSeconds: number[] = [];
  let steps = 0;
  for (;;) {
    let nt = 0;
    let flowMax = 0;
    let any = false;
    const add = (r: number, bytes: number): void => {
      if (!isTouched[r]) {
        isTouched[r] = 1;
        touched[nt++] = r;
      }
      load[r] += bytes;
    };
    const addRoute = (buf: typeof rb, hops: number, srcRank: number, dstRank: number, s: number, bytes: number, withInj: boolean): number => {
      let minBw = Infinity;
      for (let i = 0; i < hops; i++) {
        add(buf.channels[i], bytes);
        minBw = Math.min(minBw, t.chBandwidth[buf.channels[i]]);
      }
      if (model.injectionBandwidth !== null && withInj) {
        add(injBase + srcRank * nics + (program.streamLocal[s] % nics), bytes);
        minBw = Math.min(minBw, model.injectionBandwidth);
      }
      if (model.ejectionBandwidth !== null && dstRank >= 0) add(ejBase + dstRank, bytes);
      return minBw;
    };
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
          minBw = addRoute(rb, h1, srcRank, -1, s, bytes, true);
          for (let i = 0; i < count; i++) {
            const dr = program.dsts[program.opPeer[o] + i];
            const h2 = routing.route(via, t.endpoints[dr], 0, rb2);
            minBw = Math.min(minBw, addRoute(rb2, h2, srcRank, dr, s, bytes, false));
          }
        } else {
          for (let i = 0; i < count; i++) {
            const dr = program.dsts[program.opPeer[o] + i];
            if (dr === srcRank) continue;
            const hops = routeWithHint(t, routing, t.endpoints[srcRank], t.endpoints[dr], hint, o * 2, rb, scratch);
            if (model.splitTies) {
              const hops2 = routeWithHint(t, routing, t.endpoints[srcRank], t.endpoints[dr], hint, o * 2 + 1, rb2, scratch);
              minBw = Math.min(minBw, addRoute(rb, hops, srcRank, dr, s, bytes / 2, true), addRoute(rb2, hops2, srcRank, dr, s, bytes / 2, true));
            } else {
              minBw = Math.min(minBw, addRoute(rb, hops, srcRank, dr, s, bytes, true));
            }
          }
        }
        if (gap[s] > 0 && minBw < Infinity) flowMax = Math.max(flowMax, (bytes * (gap[s] + 1)) / minBw);
      }
      cursor[s] = o;
    }
    if (!any) break;
    let step = flowMax;
    for (let i = 0; i < nt; i++) {
      const r = touched[i];
      step = Math.max(step, load[r] / capOf(r));
      load[r] = 0;
      isTouched[r] = 0;
    }
    total += step;
    if (stepSeconds.length < 1000) stepSeconds.push(step);
    steps++;
  }
  return { seconds: total, steps, stepSeconds };
}
