/**
 * One timed run at flow level, packaged as the shared RunResult: the engine's raw output plus the
 * topology bounds, the schedule bound, per-channel statistics, the throughput series and the
 * critical path.
 */
import type { Topology } from '../../topology/graph.js';
import { defaultRouting, type DefaultRoutingOptions } from '../../routing/general.js';
import type { RoutingFunction } from '../../routing/types.js';
import { bestBound, demandBounds, scheduleBound, type CollectiveDemand } from '../../analysis/bounds/index.js';
import { RESULT_VERSION, type BoundRecord, type ChannelSummary, type OpRecord, type RunResult } from '../result.js';
import { simulateFlow, type FlowEngineOptions, type FlowRunOutput } from './engine.js';
import { FLOW_OP_NAMES, type FlowProgram } from './program.js';

export interface FlowRunRequest {
  readonly topology: Topology;
  readonly program: FlowProgram;
  /** Routing; default: defaultRouting(topology, routingOptions) with exact split halves. */
  readonly routing?: RoutingFunction;
  readonly routingOptions?: DefaultRoutingOptions;
  readonly model?: FlowEngineOptions;
  /** What ran, recorded in the result (collective, algorithm, size...). */
  readonly workload?: Readonly<Record<string, unknown>> | null;
  /** The collective's demand (one per part), for the topology bounds; without it only the schedule bound is given. */
  readonly demands?: readonly CollectiveDemand[];
}

/** Number of bins of the throughput series. */
export const THROUGHPUT_BINS = 100;
/** Critical-path entries kept in a result (the ones nearest the makespan). */
export const CRITICAL_PATH_MAX = 200;

export function runFlow(req: FlowRunRequest): RunResult & { readonly raw: FlowRunOutput } {
  const t = req.topology;
  const routing = req.routing ?? defaultRouting(t, { splitHalves: true, ...req.routingOptions });
  const out = simulateFlow(t, routing, req.program, req.model ?? {});
  const sched = scheduleBound(t, routing, req.program, out.model);
  const bounds: BoundRecord[] = req.demands && req.demands.length > 0 ? demandBounds(t, req.demands, out.model) : [];
  const best = bestBound(bounds);
  const makespan = out.makespan;
  const result: RunResult = {
    kind: 'meshwork-run-result',
    version: RESULT_VERSION,
    engine: 'flow',
    makespan_s: makespan,
    bound_s: best.seconds,
    efficiency: makespan > 0 ? best.seconds / makespan : 1,
    schedule_bound_s: sched.seconds,
    bounds: [...bounds, { name: 'schedule', seconds: sched.seconds, detail: `${sched.steps} barrier-separated steps, each at its own bottleneck, zero latency (not a topology bound)` }],
    topology: { spec: t.spec, family: t.family, nodes: t.numNodes, channels: t.numChannels, endpoints: t.numEndpoints, params: t.params },
    routing: { name: routing.name, params: routing.params },
    workload: req.workload ?? null,
    model: {
      ...out.model,
      engine:
        out.model.sharing === 'cm02'
          ? "flow-level, SimGrid CM02 weighted progressive filling (each flow's share ∝ 1 / its route latency)"
          : 'flow-level, max-min fair progressive filling',
      rateUpdateRule:
        out.model.rateUpdate === 'exact'
          ? 'batched exact: all events at one instant (within the simultaneity tolerance) are applied, then every active flow is re-rated once (max-min)'
          : 'batched local: all events at one instant are applied, then only the flows sharing a channel with a started or finished flow are re-rated, within what the others leave (feasible, may be below max-min)',
      latency: 'α (sender busy) + bytes at the max-min rate + Σ channel latency + hops × router latency + turnaround extra',
      sendCompletion: 'a send is posted after α; a barrier or the end of a stream first waits for the stream\'s own sends to leave',
      barrierCost: 'barrierStageLatency × ⌈log2 P⌉ for P participating ranks',
      hwCollectiveCost: '2⌈log2 P⌉ × hwLevelLatency + bytes / hwBandwidth',
      pacing: 'a send after pace(g) is capped at 1/(g+1) of its bottleneck channel bandwidth',
    },
    ranks: { count: req.program.numRanks, finish_s: Array.from(out.rankFinish) },
    channels: channelSummary(t, out.channelBytes, makespan),
    throughput: throughputSeries(out.rateTime, out.rateValue, makespan),
    critical_path: criticalPath(req.program, out),
    stats: { messages: out.stats.messages, flows: out.stats.flows, bytes: out.stats.bytes, events: out.stats.events, rate_updates: out.stats.rateUpdates },
  };
  Object.defineProperty(result, 'raw', { value: out, enumerable: false });
  return result as RunResult & { raw: FlowRunOutput };
}

export function channelSummary(t: Topology, bytes: Float64Array, makespan: number): ChannelSummary {
  const n = t.numChannels;
  let max = 0;
  let sum = 0;
  let sumSq = 0;
  let total = 0;
  const util = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    const u = makespan > 0 ? bytes[c] / (t.chBandwidth[c] * makespan) : 0;
    util[c] = u;
    max = Math.max(max, u);
    sum += u;
    sumSq += u * u;
    total += bytes[c];
  }
  const order = Array.from({ length: n }, (_, i) => i)
    .sort((a, b) => util[b] - util[a] || a - b)
    .slice(0, 10);
  return {
    count: n,
    max_utilisation: max,
    mean_utilisation: n > 0 ? sum / n : 0,
    jain_fairness: sumSq > 0 ? (sum * sum) / (n * sumSq) : 1,
    total_bytes: total,
    busiest: order.map((c) => ({ channel: c, src: t.chSrc[c], dst: t.chDst[c], class: t.className(c), bytes: bytes[c], utilisation: util[c] })),
    ...(n <= 65536 ? { bytes: Array.from(bytes) } : {}),
  };
}

/** Time-weighted mean aggregate rate over THROUGHPUT_BINS equal bins of [0, makespan]. */
export function throughputSeries(times: Float64Array, rates: Float64Array, makespan: number): { t_s: number[]; bytes_per_s: number[] } {
  if (!(makespan > 0)) return { t_s: [], bytes_per_s: [] };
  const bins = THROUGHPUT_BINS;
  const width = makespan / bins;
  const acc = new Float64Array(bins);
  for (let i = 0; i < times.length; i++) {
    const a = times[i];
    const b = i + 1 < times.length ? times[i + 1] : makespan;
    const r = rates[i];
    if (!(b > a) || r === 0) continue;
    // Walk the bins the interval covers; the last bin also takes anything past the makespan, and a
    // start that rounds onto a bin edge moves to the next bin, so no part of the interval is lost.
    let k = Math.min(bins - 1, Math.floor(a / width));
    if (k < bins - 1 && (k + 1) * width <= a) k++;
    let x = a;
    while (x < b) {
      const end = k === bins - 1 ? b : Math.min(b, (k + 1) * width);
      acc[k] += r * (end - x);
      x = end;
      k++;
    }
  }
  return { t_s: Array.from({ length: bins }, (_, k) => (k + 0.5) * width), bytes_per_s: Array.from(acc, (v) => v / width) };
}

export function criticalPath(program: FlowProgram, out: Pick<FlowRunOutput, 'opStart' | 'opEnd' | 'opPred'>): { ops: OpRecord[]; length: number; truncated: boolean } {
  let last = -1;
  for (let o = 0; o < program.numOps; o++) if (last < 0 || out.opEnd[o] > out.opEnd[last]) last = o;
  const chain: number[] = [];
  const seen = new Set<number>();
  for (let o = last; o >= 0 && !seen.has(o); o = out.opPred[o]) {
    seen.add(o);
    chain.push(o);
  }
  const streamOf = (op: number): number => {
    let lo = 0;
    let hi = program.numStreams - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (program.opStart[mid] <= op) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const kept = chain.slice(0, CRITICAL_PATH_MAX).reverse();
  return {
    ops: kept.map((o) => {
      const s = streamOf(o);
      return { rank: program.streamRank[s], stream: program.streamLocal[s], index: o - program.opStart[s], kind: FLOW_OP_NAMES[program.opKind[o]], start_s: out.opStart[o], end_s: out.opEnd[o] };
    }),
    length: chain.length,
    truncated: chain.length > CRITICAL_PATH_MAX,
  };
}
