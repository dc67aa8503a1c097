/**
 * Seed 001 timing in the document's own latency model (spec/seed001_fullmesh.md §1.4, §8):
 * T0 = 2 µs per direct transfer ([0057]) and a 1-hop latency T1 that the document states per
 * embodiment — 4 µs through processor memory (1st, [0035]; 4th reduce, [0100]), 2.1 µs turned
 * around in the switch (2nd, [0035]; 3rd, [0057]), 2.4 µs with the reduce unit in the switch
 * (5th, [0103]).
 *
 * The verified schedules of the collectives area are lowered once and then retimed:
 * - the distributed switch drives all N−1 links at once ([0041]), so the sends a rank issues
 *   before its first receive go out in parallel (one flow stream each), each paying T0 = α;
 * - a `via` turnaround takes the embodiment's kind (memory +2 µs, switch +0.1 µs over T0);
 * - a reduce's forward step (turnaround node → receivers) is a second transfer from memory (α,
 *   T1 = 2·T0: 4th and 6th) or, in the 5th embodiment, is issued by the switch's reduce unit 0.4 µs
 *   after the data arrived. The flow engine has one α per run, so the 5th is timed as the run with
 *   α forwards minus (α − 0.4 µs): every forward of these symmetric schedules starts at the same
 *   instant, so the shift is exact (the test checks the crossover against spec §8's closed form).
 *
 * Crossover sizes (where the 1-hop variant starts to beat direct only) are found by bisection on
 * the size, the schedule's byte counts scaled continuously, and printed beside spec §8's closed
 * forms and the document's thresholds (80/20/4/70/20 kbit). The other reading — one turnaround
 * latency for every embodiment (in the switch, and reduce forwards from memory) — is an option.
 */
import { buildSchedule } from '../../collectives/index.js';
import type { CollectiveKind } from '../../collectives/types.js';
import { fullMeshRouting } from '../../routing/full-mesh.js';
import { simulate } from '../../sim/simulate.js';
import { lowerSchedule } from '../../sim/program/from-schedule.js';
import { FlowProgramBuilder, type FlowProgram, type FlowRouteHint, type Turnaround } from '../../sim/program/program.js';
import { OpKind } from '../../collectives/types.js';
import type { Topology } from '../../topology/graph.js';
import { flowPreset } from '../../sim/flow/presets.js';
import type { FlowModelOptions } from '../../sim/program/model.js';
import { buildTopology } from '../../topology/index.js';

/** Direct-link latency of the related full mesh, [0057]. */
export const SEED001_T0 = 2e-6;

/**
 * The spec's latency model, the library's `seed001` time-model preset (sim/flow/presets.ts, each
 * value's source beside it; `--preset seed001`). The turnaround values give the document's T1 − T0:
 * through memory 2 µs, in the switch 0.1 µs, reduce unit 0.4 µs. Its sends issued in parallel share
 * a link (spec §8's break-even sizes assume it), so the NIC model is `shared`, not the engines'
 * default `fifo` under which two sends on one link leave one after the other. Without the preset's
 * name, so the reproduction's recorded parameters are the model alone.
 */
export const SEED001_MODEL: FlowModelOptions = (({ preset: _name, ...model }) => model)(flowPreset('seed001').model);

/**
 * The same model at packet level, with FIFO source queues (the packet engine also has `shared`,
 * packets interleaved; the pinned packet figures keep FIFO): two sends on one link leave one
 * after the other instead of side by side, which moves
 * when each ends but not when the link is done, so large-data ratios compare. Links take at least
 * one cycle of latency (the flow model's lat = 0 cannot be had) and each hop pays the router
 * pipeline (docs/packet.md): a few cycles of 12.8 ns at 20 Gbps, negligible against T0 = 2 µs.
 */
export const SEED001_PACKET_MODEL: FlowModelOptions = { ...SEED001_MODEL, injectionOrder: 'fifo' };

/** Which engine times a seed 001 case. */
export type Seed001Engine = 'flow' | 'packet';

/**
 * 'per-embodiment' (spec §1.4, default): each embodiment's own T1. 'one-latency': the flow
 * engine's plain lowering — every turnaround in the switch (T1 = 2.1 µs) and every reduce forward a
 * second transfer from memory (T1 = 4 µs), whatever the embodiment.
 */
export type TurnaroundReading = 'per-embodiment' | 'one-latency';
export const TURNAROUND_READINGS: readonly TurnaroundReading[] = ['per-embodiment', 'one-latency'];

export interface Seed001Variant {
  readonly label: string;
  readonly collective: CollectiveKind;
  readonly algorithm: string;
  readonly why?: string;
}

/** How the embodiment's 1-hop latency arises. */
export type HopLatency =
  | { readonly kind: 'via'; readonly turnaround: Turnaround }
  /** Reduce: the forward step from the turnaround node costs this (seconds) instead of α; undefined = α. */
  | { readonly kind: 'forward'; readonly overhead?: number };

export interface Seed001Case {
  readonly id: string;
  readonly label: string;
  readonly where: string;
  /** Bytes every size is rounded to for the plotted points (whole int32 pieces). */
  readonly quantum: number;
  readonly direct: Seed001Variant;
  readonly variant: Seed001Variant;
  /** The document's 1-hop latency for this embodiment (seconds). */
  readonly t1: number;
  readonly hop: HopLatency;
  /** Spec §8 closed-form crossover: S* = factor(N) · B · (T1 − T0). */
  readonly closedFactor?: (n: number) => number;
  /** The document's threshold (bits), a figure reading (spec §7.8). */
  readonly documentBits?: number;
}

const MCAST_DIRECT: Seed001Variant = { label: 'direct only', collective: 'scatter', algorithm: 'linear', why: 'the root sends the whole buffer to each rank over its own link' };
const REDUCE_DIRECT: Seed001Variant = { label: 'direct only', collective: 'gather', algorithm: 'linear', why: 'every rank sends its whole buffer to the root over its own link; reduction compute not modelled' };
const ALLREDUCE_DIRECT: Seed001Variant = { label: 'direct only', collective: 'allreduce', algorithm: 'fullmesh-adaptive:select=direct', why: 'every rank sends its whole buffer to every other over its own link; reduction compute not modelled' };
const P2P_DIRECT: Seed001Variant = { label: 'direct only', collective: 'one-to-one', algorithm: 'direct', why: 'one link' };
const SWITCH: HopLatency = { kind: 'via', turnaround: 'switch' };

/** Every timed embodiment; N is a parameter (quanta assume N ≤ 8). */
export const SEED001_CASES: readonly Seed001Case[] = [
  { id: 'p2p1', label: '1-to-1, 1st embodiment (turnaround through memory, T1 = 4 µs)', where: '[0023], [0035], 図3', quantum: 4 * 7 * 6 * 5, direct: P2P_DIRECT, variant: { label: 'direct + N−2 1-hop links', collective: 'one-to-one', algorithm: 'fullmesh-split' }, t1: 4e-6, hop: { kind: 'via', turnaround: 'memory' }, closedFactor: (n) => (n - 1) / (n - 2), documentBits: 80e3 },
  { id: 'p2p2', label: '1-to-1, 2nd embodiment (turnaround in the switch, T1 = 2.1 µs)', where: '[0035], 図7', quantum: 4 * 7 * 6 * 5, direct: P2P_DIRECT, variant: { label: 'direct + N−2 1-hop links', collective: 'one-to-one', algorithm: 'fullmesh-split' }, t1: 2.1e-6, hop: SWITCH, closedFactor: (n) => (n - 1) / (n - 2), documentBits: 20e3 },
  { id: 'p2p6', label: '1-to-1, 6th embodiment (1-hop only, K = N−2)', where: '[0107], 図38', quantum: 4 * 7 * 6 * 5, direct: P2P_DIRECT, variant: { label: 'K = N−2 1-hop links, no direct link', collective: 'one-to-one', algorithm: 'fullmesh-split:L=0' }, t1: 2.1e-6, hop: SWITCH },
  { id: 'mcast3', label: 'multicast, 3rd embodiment (sender a turnaround node, K = N, T1 ≈ 2.1 µs)', where: '[0057]–[0058], 図16', quantum: 4 * 8 * 7, direct: MCAST_DIRECT, variant: { label: 'K = N turnaround nodes', collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=3' }, t1: 2.1e-6, hop: SWITCH, closedFactor: (n) => n / (n - 2), documentBits: 4e3 },
  { id: 'mcast6', label: 'multicast, 6th embodiment (K = N−1, sender excluded)', where: '[0109], 図40', quantum: 4 * 8 * 7, direct: MCAST_DIRECT, variant: { label: 'K = N−1 turnaround nodes', collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=6' }, t1: 2.1e-6, hop: SWITCH },
  { id: 'reduce4', label: 'reduce, 4th embodiment (K = N, reduction in processor memory, T1 = 4 µs)', where: '[0100], 図35', quantum: 4 * 8 * 8 * 7, direct: REDUCE_DIRECT, variant: { label: 'K = N turnaround nodes', collective: 'reduce', algorithm: 'fullmesh-turnaround:embodiment=4' }, t1: 4e-6, hop: { kind: 'forward' }, closedFactor: (n) => n / (n - 2), documentBits: 70e3 },
  { id: 'allreduce4', label: 'allreduce, 4th embodiment (K = N, reduction in processor memory, T1 = 4 µs)', where: '[0100], 図32B, 図35', quantum: 4 * 8 * 8 * 7, direct: ALLREDUCE_DIRECT, variant: { label: 'K = N turnaround nodes', collective: 'allreduce', algorithm: 'fullmesh-turnaround:embodiment=4' }, t1: 4e-6, hop: { kind: 'forward' }, closedFactor: (n) => n / (n - 2), documentBits: 70e3 },
  { id: 'reduce5', label: 'reduce, 5th embodiment (reduce unit in the switch, T1 = 2.4 µs)', where: '[0103], 図37', quantum: 4 * 8 * 8 * 7, direct: REDUCE_DIRECT, variant: { label: 'K = N, reduce unit in the switch', collective: 'reduce', algorithm: 'fullmesh-turnaround:embodiment=5' }, t1: 2.4e-6, hop: { kind: 'forward', overhead: 400e-9 }, closedFactor: (n) => n / (n - 2), documentBits: 20e3 },
  { id: 'reduce6', label: 'reduce, 6th embodiment (K = 4)', where: '[0110], 図41', quantum: 4 * 8 * 8 * 7, direct: REDUCE_DIRECT, variant: { label: 'K = 4 turnaround nodes', collective: 'reduce', algorithm: 'fullmesh-turnaround:embodiment=6,K=4' }, t1: 4e-6, hop: { kind: 'forward' } },
  { id: 'scatter', label: 'scatter across two groups of four', where: '[0088]–[0090], 図29', quantum: 4 * 8 * 2, direct: { label: 'direct only', collective: 'scatter', algorithm: 'linear', why: 'the root sends each rank its block over its direct link' }, variant: { label: 'direct + 1-hop paths, two groups', collective: 'scatter', algorithm: 'fullmesh-two-group' }, t1: 2.1e-6, hop: SWITCH },
];

export function seed001Case(id: string): Seed001Case {
  const c = SEED001_CASES.find((x) => x.id === id);
  if (!c) throw new Error(`unknown seed 001 case ${id}`);
  return c;
}

/** The hop latency a reading assigns to a case. */
export function hopLatency(c: Seed001Case, reading: TurnaroundReading): HopLatency {
  if (reading === 'per-embodiment') return c.hop;
  return c.hop.kind === 'via' ? SWITCH : { kind: 'forward' };
}

/** T1 of a case under a reading (seconds). */
export function readingT1(c: Seed001Case, reading: TurnaroundReading): number {
  const hop = hopLatency(c, reading);
  if (hop.kind === 'forward') return SEED001_T0 + (hop.overhead ?? SEED001_T0);
  const extra = { memory: SEED001_MODEL.turnaroundMemory!, switch: SEED001_MODEL.turnaroundSwitch!, reduce: SEED001_MODEL.turnaroundReduce!, none: 0 }[hop.turnaround];
  return SEED001_T0 + extra;
}

/**
 * Retimes a lowered schedule: bytes × scale; the blocking sends before a stream's first blocking
 * receive or wait each get a stream of their own (issued in parallel; copies and reductions cost
 * nothing here, γ = 0); `via` hints take `turnaround`. Every other op is copied as it is, with its
 * non-blocking flag (isend, irecv) and its wait or waitall, so that the retimed program means what the
 * schedule does under any protocol: under seed 001's eager model an isend times as a send and a
 * waitall adds nothing, but under rendezvous the isends + waitall of fullmesh-turnaround's step 2 are
 * what keeps it from deadlocking.
 */
export function parallelIssue(program: FlowProgram, scale: number, turnaround: Turnaround): FlowProgram {
  const b = new FlowProgramBuilder(program.numRanks);
  const nonBlocking = (o: number): boolean => program.opNonBlocking !== null && program.opNonBlocking[o] === 1;
  /** New op id of each old non-blocking op, for `wait(request)`. */
  const moved = new Int32Array(program.numOps).fill(-1);
  const hint = (h: number): FlowRouteHint | undefined => {
    if (h < 0) return undefined;
    const x = program.hints[h];
    return x.kind === 'via' ? { ...x, turnaround } : x;
  };
  const emit = (o: number): void => {
    const bytes = program.opBytes[o] * scale;
    switch (program.opKind[o]) {
      case OpKind.Send: {
        const first = program.opPeer[o];
        if (nonBlocking(o)) b.isend(program.dsts[first], bytes, program.opTag[o], hint(program.opHint[o]));
        else b.send(Array.from(program.dsts.subarray(first, first + program.opCount[o])), bytes, program.opTag[o], hint(program.opHint[o]));
        break;
      }
      case OpKind.Recv:
        if (nonBlocking(o)) b.irecv(program.opPeer[o], bytes, program.opTag[o]);
        else b.recv(program.opPeer[o], bytes, program.opTag[o]);
        break;
      case OpKind.Reduce:
        b.reduce(bytes);
        break;
      case OpKind.Copy:
        b.copy(bytes);
        break;
      case OpKind.Wait:
        if (program.opPeer[o] < 0) b.waitall();
        else b.wait(moved[program.opPeer[o]]);
        break;
      default:
        // The seed 001 schedules have no barriers, pacing, hardware collectives or compute.
        throw new Error(`seed 001 retiming: unexpected ${program.opKind[o]} op`);
    }
    if (nonBlocking(o)) moved[o] = b.lastOp;
  };
  for (let s = 0; s < program.numStreams; s++) {
    const lo = program.opStart[s];
    const hi = program.opStart[s + 1];
    // Before its first blocking receive or wait a stream waits for nothing: its blocking sends after
    // the first go out in parallel (isends already do, and stay with the wait that completes them).
    let lead = lo;
    while (lead < hi && !((program.opKind[lead] === OpKind.Recv && !nonBlocking(lead)) || program.opKind[lead] === OpKind.Wait)) lead++;
    const parallel: number[] = [];
    b.beginStream(program.streamRank[s]);
    let first = true;
    for (let o = lo; o < lead; o++) {
      const blockingSend = program.opKind[o] === OpKind.Send && !nonBlocking(o);
      if (blockingSend && !first) parallel.push(o);
      else emit(o);
      if (blockingSend) first = false;
    }
    for (let o = lead; o < hi; o++) emit(o);
    for (const o of parallel) {
      b.beginStream(program.streamRank[s]);
      emit(o);
    }
  }
  return b.build();
}

/** A case on `fullmesh:n` (with `planes` switch planes) at `gbps`, ready to time at any size. */
export class Seed001Timer {
  readonly topology: Topology;
  private readonly routing;
  private readonly base: { direct: FlowProgram; variant: FlowProgram };
  private readonly baseBytes: number;

  constructor(
    readonly c: Seed001Case,
    readonly n: number,
    readonly gbps: number,
    readonly reading: TurnaroundReading = 'per-embodiment',
    readonly engine: Seed001Engine = 'flow',
    /** Switch planes (7th embodiment, [0128]): parallel channels per pair, each transfer spread over them. */
    readonly planes = 1,
  ) {
    this.topology = buildTopology(`fullmesh:${n},bw=${gbps}Gbps,lat=0${planes > 1 ? `,mult=${planes}` : ''}`);
    this.routing = fullMeshRouting(this.topology);
    this.baseBytes = 64 * c.quantum;
    const lower = (v: Seed001Variant): FlowProgram => lowerSchedule(buildSchedule({ collective: v.collective, algorithm: v.algorithm, topology: this.topology, size: this.baseBytes, root: 0, peer: 1 }));
    this.base = { direct: lower(c.direct), variant: lower(c.variant) };
  }

  /** Communication time (seconds) of direct only and of the 1-hop variant for `bytes` per rank. */
  time(bytes: number): { direct: number; variant: number } {
    const scale = bytes / this.baseBytes;
    const hop = hopLatency(this.c, this.reading);
    const turnaround = hop.kind === 'via' ? hop.turnaround : 'switch';
    const run = (p: FlowProgram): number => {
      const program = parallelIssue(p, scale, turnaround);
      const model = this.engine === 'flow' ? SEED001_MODEL : SEED001_PACKET_MODEL;
      return simulate({ topology: this.topology, routing: this.routing, program, engine: this.engine, model }).makespan_s;
    };
    const shift = hop.kind === 'forward' && hop.overhead !== undefined ? SEED001_T0 - hop.overhead : 0;
    return { direct: run(this.base.direct), variant: run(this.base.variant) - shift };
  }

  /**
   * The size (bits) above which the variant is faster: bisection on the size (geometric midpoints)
   * until hi/lo < 1 + `relTol`; undefined when the variant is slower at `hiBits` or already faster
   * at 1 bit. Both curves are piecewise linear in the size, latency-bound below and bandwidth-bound
   * above, so there is one sign change (the plotted grid shows it).
   */
  crossoverBits(relTol = 1e-4, hiBits = 1e10): number | undefined {
    const faster = (bits: number): boolean => {
      const t = this.time(bits / 8);
      return t.variant < t.direct;
    };
    let lo = 1;
    let hi = hiBits;
    if (faster(lo) || !faster(hi)) return undefined;
    while (hi / lo > 1 + relTol) {
      const mid = Math.sqrt(lo * hi);
      if (faster(mid)) hi = mid;
      else lo = mid;
    }
    return Math.sqrt(lo * hi);
  }
}

/** Spec §8's closed-form crossover in bits, or undefined when the spec gives none for the case. */
export function closedFormCrossoverBits(c: Seed001Case, n: number, gbps: number, reading: TurnaroundReading = 'per-embodiment'): number | undefined {
  if (!c.closedFactor) return undefined;
  return c.closedFactor(n) * gbps * 1e9 * (readingT1(c, reading) - SEED001_T0);
}
