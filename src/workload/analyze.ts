/**
 * A workload's timeline from a run's per-op times: step time, per-rank compute, communication and
 * exposed (non-overlapped) communication, the critical path in trace nodes, per-collective times
 * and bus bandwidth, and per-link traffic.
 *
 * Definitions (docs/workloads.md):
 * - compute time of a rank: the length of the union of its GPU-compute and memory op intervals
 *   (CPU ops, such as PyTorch's operator launches, are reported apart: they do not hide
 *   communication on the accelerator, as ASTRA-sim's exposed communication counts GPU compute);
 * - communication time: the union of its collective and point-to-point intervals (a collective
 *   counts from the first to the last op of the rank's share of it);
 * - exposed communication: the part of the communication union that no compute interval covers;
 * - a collective's time: from its earliest op start to its latest op end over all member ranks;
 *   algbw = S / time with nccl-tests' size S (comm_size, but P × comm_size for allgather and
 *   gather, whose comm_size is one rank's contribution); busbw = algbw × nccl-tests' factor
 *   (allreduce 2(P−1)/P; allgather, reduce-scatter, alltoall (P−1)/P; the others 1).
 */
import type { RunResult } from '../sim/result.js';
import { opTimesOf } from '../sim/assemble.js';
import type { Topology } from '../topology/graph.js';
import type { ChakraCollective } from './chakra/read.js';
import { OP_CATEGORIES, type LoweredWorkload } from './lower.js';

export interface RankTimeline {
  readonly rank: number;
  readonly finish_s: number;
  readonly compute_s: number;
  /** Union of its CPU ops. */
  readonly cpu_s: number;
  readonly communication_s: number;
  readonly exposed_communication_s: number;
}

export interface CollectiveTiming {
  readonly index: number;
  readonly collective: ChakraCollective;
  readonly group: string;
  /** The algorithm spec it ran; a library's pick says so (`... (nccl pick)`). */
  readonly algorithm: string;
  readonly ranks: number;
  readonly bytes: number;
  readonly start_s: number;
  readonly end_s: number;
  readonly time_s: number;
  readonly algbw_bytes_per_s: number;
  readonly busbw_bytes_per_s: number;
}

export interface CriticalNode {
  /** The rank of the entry's last op (a collective's ops span its members: one entry). */
  readonly rank: number;
  /** The collective instance, -1 for other nodes. */
  readonly collective: number;
  readonly node: number;
  readonly name: string;
  readonly category: string;
  readonly start_s: number;
  readonly end_s: number;
}

export interface LinkTraffic {
  readonly channel: number;
  readonly src: number;
  readonly dst: number;
  readonly class: string;
  readonly bytes: number;
  readonly utilisation: number;
}

export interface WorkloadReport {
  readonly kind: 'meshwork-workload-report';
  readonly step_time_s: number;
  readonly ranks: readonly RankTimeline[];
  readonly collectives: readonly CollectiveTiming[];
  /** Trace nodes on the chain that ends at the step time, earliest first. */
  readonly critical_path: readonly CriticalNode[];
  /** Channels that carried bytes, busiest first. */
  readonly links: readonly LinkTraffic[];
  readonly rounded_sizes: LoweredWorkload['rounded'];
}

export function busbwFactor(c: ChakraCollective, P: number): number {
  if (P <= 1) return 0;
  if (c === 'allreduce') return (2 * (P - 1)) / P;
  if (c === 'allgather' || c === 'reduce-scatter' || c === 'alltoall') return (P - 1) / P;
  return 1;
}

/** Length of the union of intervals given as flat [start, end, start, end, ...]. */
export function unionLength(iv: number[]): number {
  return merged(iv).reduce((s, [a, b]) => s + (b - a), 0);
}

function merged(iv: number[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < iv.length; i += 2) if (iv[i + 1] > iv[i]) pairs.push([iv[i], iv[i + 1]]);
  pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: Array<[number, number]> = [];
  for (const p of pairs) {
    const last = out[out.length - 1];
    if (last && p[0] <= last[1]) last[1] = Math.max(last[1], p[1]);
    else out.push([p[0], p[1]]);
  }
  return out;
}

/** Length of `a` not covered by `b` (both unions of intervals). */
export function uncoveredLength(a: number[], b: number[]): number {
  const A = merged(a);
  const B = merged(b);
  let total = 0;
  let j = 0;
  for (const [s, e] of A) {
    let x = s;
    while (j < B.length && B[j][1] <= x) j++;
    for (let k = j; k < B.length && B[k][0] < e; k++) {
      if (B[k][0] > x) total += B[k][0] - x;
      x = Math.max(x, B[k][1]);
      if (x >= e) break;
    }
    if (x < e) total += e - x;
  }
  return total;
}

export function analyzeWorkload(lowered: LoweredWorkload, result: RunResult, topology: Topology): WorkloadReport {
  const { program, opCategory, opCollective, trace } = lowered;
  const times = opTimesOf(result);
  const R = trace.ranks.length;
  const computeIv: number[][] = Array.from({ length: R }, () => []);
  const cpuIv: number[][] = Array.from({ length: R }, () => []);
  const commIv: number[][] = Array.from({ length: R }, () => []);
  // A collective's share on one rank: the span of its ops there (keyed by rank and instance).
  const spanStart = new Map<number, number>();
  const spanEnd = new Map<number, number>();
  const collStart = new Float64Array(trace.collectives.length).fill(Infinity);
  const collEnd = new Float64Array(trace.collectives.length).fill(-Infinity);
  for (let s = 0; s < program.numStreams; s++) {
    const r = program.streamRank[s];
    for (let o = program.opStart[s]; o < program.opStart[s + 1]; o++) {
      const a = times.start[o];
      const e = times.end[o];
      const c = OP_CATEGORIES[opCategory[o]];
      if (c === 'compute' || c === 'memory') computeIv[r].push(a, e);
      else if (c === 'cpu') cpuIv[r].push(a, e);
      else if (c === 'p2p') commIv[r].push(a, e);
      const k = opCollective[o];
      if (k >= 0) {
        const key = k * R + r;
        spanStart.set(key, Math.min(spanStart.get(key) ?? Infinity, a));
        spanEnd.set(key, Math.max(spanEnd.get(key) ?? -Infinity, e));
        collStart[k] = Math.min(collStart[k], a);
        collEnd[k] = Math.max(collEnd[k], e);
      }
    }
  }
  for (const [key, a] of spanStart) commIv[key % R].push(a, spanEnd.get(key)!);
  const ranks: RankTimeline[] = [];
  for (let r = 0; r < R; r++) {
    ranks.push({
      rank: r,
      finish_s: result.ranks.finish_s[r] ?? 0,
      compute_s: unionLength(computeIv[r]),
      cpu_s: unionLength(cpuIv[r]),
      communication_s: unionLength(commIv[r]),
      exposed_communication_s: uncoveredLength(commIv[r], computeIv[r]),
    });
  }
  const collectives = trace.collectives.map((inst): CollectiveTiming => {
    const start = Number.isFinite(collStart[inst.index]) ? collStart[inst.index] : 0;
    const end = Number.isFinite(collEnd[inst.index]) ? collEnd[inst.index] : start;
    const time = end - start;
    const P = inst.ranks.length;
    const size = inst.collective === 'allgather' || inst.collective === 'gather' ? inst.bytes * P : inst.bytes;
    const algbw = time > 0 ? size / time : 0;
    return {
      index: inst.index,
      collective: inst.collective,
      group: inst.group,
      algorithm: lowered.collectiveAlgorithm[inst.index],
      ranks: inst.ranks.length,
      bytes: inst.bytes,
      start_s: start,
      end_s: end,
      time_s: time,
      algbw_bytes_per_s: algbw,
      busbw_bytes_per_s: algbw * busbwFactor(inst.collective, inst.ranks.length),
    };
  });
  return {
    kind: 'meshwork-workload-report',
    step_time_s: result.makespan_s,
    ranks,
    collectives,
    critical_path: criticalNodes(lowered, times),
    links: linkTraffic(result, topology),
    rounded_sizes: lowered.rounded,
  };
}

/** The op chain that ends last, folded into trace nodes (consecutive ops of one node are one entry). */
function criticalNodes(lowered: LoweredWorkload, times: ReturnType<typeof opTimesOf>): CriticalNode[] {
  const { program, opCategory, opNode, opCollective, trace } = lowered;
  let last = -1;
  for (let o = 0; o < program.numOps; o++) if (last < 0 || times.end[o] > times.end[last]) last = o;
  const streamOf = new Int32Array(program.numOps);
  for (let s = 0; s < program.numStreams; s++) streamOf.fill(s, program.opStart[s], program.opStart[s + 1]);
  const chain: CriticalNode[] = [];
  const seen = new Set<number>();
  for (let o = last; o >= 0 && !seen.has(o); o = times.pred[o]) {
    seen.add(o);
    const rank = program.streamRank[streamOf[o]];
    const v = opNode[o];
    const n = trace.ranks[rank]?.nodes[v];
    const prev = chain[chain.length - 1];
    const k = opCollective[o];
    if (prev && (k >= 0 ? prev.collective === k : prev.collective < 0 && prev.rank === rank && prev.node === (n?.id ?? -1))) {
      chain[chain.length - 1] = { ...prev, start_s: times.start[o] };
      continue;
    }
    chain.push({ rank, collective: k, node: n?.id ?? -1, name: n?.name ?? '', category: OP_CATEGORIES[opCategory[o]], start_s: times.start[o], end_s: times.end[o] });
  }
  return chain.reverse();
}

function linkTraffic(result: RunResult, t: Topology): LinkTraffic[] {
  const bytes = result.channels.bytes;
  if (!bytes) return result.channels.busiest.map((c) => ({ ...c }));
  const links: LinkTraffic[] = [];
  const span = result.makespan_s;
  for (let c = 0; c < bytes.length; c++) {
    if (bytes[c] <= 0) continue;
    links.push({ channel: c, src: t.chSrc[c], dst: t.chDst[c], class: t.className(c), bytes: bytes[c], utilisation: span > 0 ? bytes[c] / (t.chBandwidth[c] * span) : 0 });
  }
  return links.sort((a, b) => b.bytes - a.bytes || a.channel - b.channel);
}
