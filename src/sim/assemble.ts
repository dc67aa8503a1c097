/**
 * The one result assembler: both engines hand over their raw output (makespan, per-rank finish,
 * bytes per channel, an aggregate-rate series, per-op times and waits) and this builds the shared
 * RunResult: topology bounds, the schedule bound, `bound_s` and `efficiency` by one rule, the
 * per-channel summary, the throughput series and the critical path.
 */
import { ncclTestsBandwidth, type NcclTestsBandwidth } from './nccl-tests.js';
import type { CollectiveKind } from '../collectives/types.js';
import type { Topology } from '../topology/graph.js';
import type { RoutingFunction } from '../routing/types.js';
import { OP_NAMES, OpKind } from '../collectives/types.js';
import { bestBound, demandBounds, scheduleBound, type CollectiveDemand } from './bounds/index.js';
import type { FlowModel } from './program/model.js';
import type { FlowProgram } from './program/program.js';
import type { QuotientMaps } from './flow/symmetry.js';
import { RESULT_VERSION, type BoundRecord, type ChannelSummary, type OpRecord, type RunResult } from './result.js';

/** Number of bins of the throughput series. */
export const THROUGHPUT_BINS = 100;
/** Critical-path entries kept in a result (the ones nearest the makespan). */
export const CRITICAL_PATH_MAX = 200;

/** What an engine measured, in seconds and bytes. */
export interface RawRun {
  readonly engine: 'flow' | 'packet';
  readonly makespan: number;
  readonly rankFinish: ArrayLike<number>;
  readonly channelBytes: Float64Array;
  /** Aggregate injection rate, bytes/s, from each time on (a step function). */
  readonly rateTime: Float64Array;
  readonly rateValue: Float64Array;
  readonly opStart: Float64Array;
  readonly opEnd: Float64Array;
  readonly opPred: Int32Array;
  readonly stats: Omit<RunResult['stats'], 'hw_collective_ops' | 'hw_bytes'>;
}

export interface AssembleRequest {
  readonly topology: Topology;
  readonly routing: RoutingFunction;
  /** The routing the schedule bound uses (default: `routing`; the packet engine's wraps hints and VC bands around it). */
  readonly boundRouting?: RoutingFunction;
  readonly program: FlowProgram;
  readonly model: FlowModel;
  /** The engine's own model choices and descriptions, recorded after the shared model. */
  readonly modelRecord: Readonly<Record<string, unknown>>;
  readonly workload?: Readonly<Record<string, unknown>> | null;
  readonly demands?: readonly CollectiveDemand[];
  /** Per rank, the op whose end is its start of the timed region (`--barriers`); the makespan then runs from the earliest. */
  readonly timeOrigin?: Int32Array;
  /**
   * The symmetry quotient the engine ran (flow/symmetry.ts): the schedule bound and the critical path
   * are taken on its representatives (`times`: the quotient's own per-op times), so the full per-op
   * times (raw's, expanded on first use) are not built for them.
   */
  readonly quotient?: { readonly program: FlowProgram; readonly maps: QuotientMaps; readonly times: Pick<RawRun, 'opStart' | 'opEnd' | 'opPred'> };
}

/** How the shared semantics times a program: recorded in every result, whichever engine ran. */
const SEMANTICS_RECORD = {
  semantics: 'sim/program/semantics.ts: one stream interpreter for both engines',
  sendCompletion: 'a send is posted after α; a barrier, an hwCollective or the end of a stream first waits for the stream\'s own sends to leave its node',
  barrierCost: 'barrierStageLatency × ⌈log2 P⌉ for P participating ranks',
  hwCollectiveCost: '2⌈log2 P⌉ × hwLevelLatency + largest contribution / hwBandwidth, P participating ranks',
  matching: 'a recv takes the oldest arrived message of its (source, destination, tag), in program order',
  boundRule: 'bound_s: the largest topology bound of the collective\'s demands, or the schedule bound when no demands are given or when routes may stop short of their destination (routing.params.partial_routes); efficiency = bound_s / makespan, capped at 1',
};

/** nccl-tests' algbw and busbw of a collective's run (nccl-tests.ts), as `bandwidth`; nothing for other workloads. */
function ncclTestsRecord(workload: Readonly<Record<string, unknown>> | null | undefined, makespan: number): { bandwidth?: NcclTestsBandwidth } {
  const w = workload as { collective?: unknown; size_bytes?: unknown; ranks?: unknown } | null | undefined;
  if (!w || typeof w.collective !== 'string' || typeof w.size_bytes !== 'number' || typeof w.ranks !== 'number') return {};
  const bandwidth = ncclTestsBandwidth(w.collective as CollectiveKind, w.size_bytes, w.ranks, makespan);
  return bandwidth ? { bandwidth } : {};
}

export function assembleResult(req: AssembleRequest, raw: RawRun): RunResult {
  const t = req.topology;
  const sched = scheduleBound(t, req.boundRouting ?? req.routing, req.quotient?.program ?? req.program, req.model, req.quotient?.maps);
  // The latency bound takes the least α a message pays: a collective library's messages pay libraryAlpha.
  const boundModel = req.program.opLibrary !== null ? { ...req.model, alpha: Math.min(req.model.alpha, req.model.libraryAlpha) } : req.model;
  // Topology bounds hold for messages that cross the network; routes that stop short (ASTRA-sim's first-dimension charge) may beat them.
  const topo: BoundRecord[] = req.demands && req.demands.length > 0 && !req.routing.partialRoutes ? demandBounds(t, req.demands, boundModel) : [];
  const bound = topo.length > 0 ? bestBound(topo).seconds : sched.seconds;
  const makespan = raw.makespan - (req.timeOrigin ? timeOriginOf(req.timeOrigin, raw.opEnd) : 0);
  const result: RunResult = {
    kind: 'meshwork-run-result',
    version: RESULT_VERSION,
    engine: raw.engine,
    makespan_s: makespan,
    bound_s: bound,
    efficiency: efficiency(bound, makespan),
    schedule_bound_s: sched.seconds,
    bounds: [...topo, { name: 'schedule', seconds: sched.seconds, detail: `${sched.steps} barrier-separated steps, each at its own bottleneck, zero latency (not a topology bound)` }],
    topology: { spec: t.spec, family: t.family, nodes: t.numNodes, channels: t.numChannels, endpoints: t.numEndpoints, params: t.params },
    routing: { name: req.routing.name, params: req.routing.params },
    workload: req.workload ?? null,
    ...ncclTestsRecord(req.workload, makespan),
    model: { ...req.model, ...SEMANTICS_RECORD, noise: req.program.noise, ...req.modelRecord },
    ranks: { count: req.program.numRanks, finish_s: Array.from(raw.rankFinish) },
    channels: channelSummary(t, raw.channelBytes, raw.makespan),
    throughput: throughputSeries(raw.rateTime, raw.rateValue, raw.makespan),
    critical_path: criticalPath(req.quotient?.program ?? req.program, req.quotient?.times ?? raw),
    stats: { ...raw.stats, ...hwCollectiveStats(req.program) },
  };
  // Per-op times in seconds, for views that need every op (workload timelines); not serialised.
  // A getter: a symmetry quotient's raw expands its per-op times only when a view asks for them.
  Object.defineProperty(result, 'opTimes', { get: (): OpTimes => ({ start: raw.opStart, end: raw.opEnd, pred: raw.opPred }), enumerable: false });
  return result;
}

/** Every op's start and end (seconds) and the op it waited for, as both engines measured them. */
export interface OpTimes {
  readonly start: Float64Array;
  readonly end: Float64Array;
  readonly pred: Int32Array;
}

/** The per-op times of a result `assembleResult` built (both engines). */
export function opTimesOf(result: RunResult): OpTimes {
  const times = (result as RunResult & { opTimes?: OpTimes }).opTimes;
  if (times === undefined) throw new Error('opTimesOf: a result from assembleResult (simulate) is needed');
  return times;
}

/** The earliest end of the given ops (each rank's t0 after the first barrier), or 0 without them. */
function timeOriginOf(ops: Int32Array | undefined, opEnd: Float64Array): number {
  if (!ops || ops.length === 0) return 0;
  let t = Infinity;
  for (const o of ops) t = Math.min(t, opEnd[o]);
  return t;
}

/**
 * Contributions to combining-network collectives and their bytes: data an hwCollective moves is no
 * message, so without these a schedule like seed 002's xor-swap read "0 messages, 0 B moved".
 */
export function hwCollectiveStats(program: FlowProgram): { hw_collective_ops: number; hw_bytes: number } {
  let ops = 0;
  let bytes = 0;
  for (let o = 0; o < program.numOps; o++) {
    if (program.opKind[o] !== OpKind.HwCollective) continue;
    ops++;
    bytes += program.opBytes[o];
  }
  return { hw_collective_ops: ops, hw_bytes: bytes };
}

/** bound / makespan, capped at 1 (a bound within a rounding above the makespan is not a gain); 1 for an empty run. */
export function efficiency(bound: number, makespan: number): number {
  return makespan > 0 ? Math.min(1, bound / makespan) : 1;
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

export function criticalPath(program: FlowProgram, out: Pick<RawRun, 'opStart' | 'opEnd' | 'opPred'>): { ops: OpRecord[]; length: number; truncated: boolean } {
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
      return { rank: program.streamRank[s], stream: program.streamLocal[s], index: o - program.opStart[s], kind: OP_NAMES[program.opKind[o]], start_s: out.opStart[o], end_s: out.opEnd[o] };
    }),
    length: chain.length,
    truncated: chain.length > CRITICAL_PATH_MAX,
  };
}
