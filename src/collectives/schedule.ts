/**
 * The schedule IR: the one description of a collective algorithm.
 *
 * Semantics (the reference is docs/collectives.md):
 * - A schedule holds one or more **parts** (sub-communicators). Each part is one collective on a
 *   list of global ranks (disjoint between parts) and runs concurrently with the others. Ranks are
 *   0..numRanks-1 and map to the topology's compute endpoints (`Topology.endpoints[rank]`).
 * - Each rank has `streams` ordered op lists. Streams of one rank run concurrently (several NICs
 *   or channels); ops within a stream run in program order.
 * - Buffers are per rank and named: 0 = `send` (input), 1 = `recv` (output), then temporaries
 *   declared with `tmpBuffer`. Their sizes follow from the part's collective and size (see
 *   `ioBytes`). With `inPlace`, the input is preloaded in `recv` and `send` is empty.
 * - A **region** is a list of extents (buffer, offset, length), or a strided vector of one or two
 *   levels (buffer, offset, block length, inner stride, inner count, outer stride, outer count:
 *   block (o, i) at offset + o·outerStride + i·innerStride, i fastest); its bytes are the
 *   concatenation in order. A vector takes O(1) storage whatever its block count (a middle-axis
 *   slab of a 32×32×32 torus is 1,024 blocks). One send of a many-extent region is one merged
 *   message. Regions are interned in a flat table.
 * - Ops:
 *   send(to | to[], region, tag, hint?)  eager: the region is read when the op executes; a list of
 *       destinations is a multicast from one read; optional route hint (see RouteHint).
 *   recv(from, region, tag)  blocks until the matching message arrives; matching is by
 *       (source, destination, tag) in program order (FIFO); lengths must be equal.
 *   copy(src, dst) and reduce(op, src, dst) (dst = dst op src, element-wise in the schedule's dtype).
 *   barrier(group)  a group is a set of (rank, stream) participants; the barrier completes when every
 *       participant has reached its k-th barrier on that group. It blocks only the stream that
 *       executes it; the rank's other streams keep running unless they are participants too (a
 *       whole-rank barrier is a group listing every stream of each rank: `group(ranks, 'all')`).
 *   pace(gap)  intra-packet gap in packet times (seed 000) for the following sends of this stream,
 *       until the next pace; 0 = back to back. Timing only: the executor ignores it.
 *   isend / irecv  the same as send (one destination) and recv, but non-blocking (MPI_Isend,
 *       MPI_Irecv): the stream posts them and goes on at once. An irecv is posted (counts for
 *       rendezvous and for matching order) when it executes; its data lands by the next waitall.
 *   waitall  blocks the stream until every isend and irecv it posted has completed (MPI_Waitall).
 *   wait(request)  blocks the stream until one earlier isend or irecv of the stream has completed
 *       (MPI_Wait; ring algorithms post the next receive before they wait for the current one).
 *       A program must not end with non-blocking operations it has not waited for.
 *   hw(kind, op, region, group, result = region)  a modelled combining network (seed 002): every
 *       participant contributes `region` (or the identity, -1) and receives the reduction of all
 *       contributions in `result` (or discards it, -1). Completes like a barrier. Contributions are
 *       read before any result is written, so region = result is an in-place update.
 * - Storage is columnar (typed arrays, growable), never one object per op: a 4,096-rank pairwise
 *   alltoall (33.5 M ops) takes about 26 bytes per op.
 */
import { resized } from '../util/typed-arrays.js';
import { InputError, LimitError } from '../util/errors.js';
import {
  COLLECTIVES as COLLECTIVE_NAMES,
  CollectiveKind,
  DTYPES,
  Dtype,
  HINT_KINDS,
  HW_KINDS,
  HintKind,
  HwKind,
  OpKind,
  REDUCE_OPS,
  ReduceOp,
  RouteHint,
  sizeMeaning,
} from './types.js';
import { appendAll } from '../util/arrays.js';

export const SEND = 0;
export const RECV = 1;
/** Largest stream count per rank (the stream column is a Uint8Array). */
export const MAX_STREAMS = 256;
/**
 * Largest op count a schedule may hold: 2^28 ops take 26 bytes each in the op columns (7 GiB), the
 * most this 24 GiB machine class holds with the runs built on them; buildSchedule refuses a larger
 * declared (or alltoall's known) op count before building.
 */
export const MAX_OPS = 1 << 28;
/** Most ranks a schedule may have: the topologies' node limit (2^24). */
export const MAX_SCHEDULE_RANKS = 1 << 24;
/** A send's opB: 1 non-blocking, SEPARATE_SEND a blocking send its stream's next receive does not pair with (`isSeparateSend`). */
const SEPARATE_SEND = 2;

/** One collective on a subset of ranks (a sub-communicator). */
export interface Part {
  readonly collective: CollectiveKind;
  /** Global ranks, in part-local order (local rank i is ranks[i]). */
  readonly ranks: Int32Array;
  /** Global rank of the root (rooted collectives; the source for one-to-one), else -1. */
  readonly root: number;
  /** Global rank of the destination of one-to-one, else -1. */
  readonly peer: number;
  /** Bytes, per the size convention of `sizeMeaning(collective)`. */
  readonly size: number;
  /** alltoallv: bytes from local rank i to local rank j at [i·n + j] (row = sender), else undefined. */
  readonly sizes?: Float64Array;
}

/**
 * alltoallv's buffer layout (MPI's, displacements packed in rank order): local rank i's send buffer
 * holds its blocks to j = 0..n−1 back to back (sdispl[i·n + j]); local rank j's receive buffer holds
 * the blocks from i = 0..n−1 back to back (rdispl[i·n + j]).
 */
export function alltoallvLayout(part: Part): { sdispl: Float64Array; rdispl: Float64Array; sendTotal: Float64Array; recvTotal: Float64Array } {
  const n = part.ranks.length;
  const m = part.sizes!;
  const sdispl = new Float64Array(n * n);
  const rdispl = new Float64Array(n * n);
  const sendTotal = new Float64Array(n);
  const recvTotal = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      sdispl[i * n + j] = sendTotal[i];
      sendTotal[i] += m[i * n + j];
      rdispl[i * n + j] = recvTotal[j];
      recvTotal[j] += m[i * n + j];
    }
  }
  return { sdispl, rdispl, sendTotal, recvTotal };
}

export interface ScheduleHeader {
  /** Algorithm name and the spec text that built it (recorded in results and JSON). */
  readonly algorithm: string;
  readonly algorithmSpec: string;
  /** The SimGrid SMPI name the algorithm was asked for by (smpi-names.ts), if any. */
  readonly algorithmAlias?: string;
  readonly topology: string;
  readonly numRanks: number;
  readonly streams: number;
  readonly dtype: Dtype;
  readonly op: ReduceOp;
  readonly inPlace: boolean;
  readonly parts: readonly Part[];
}

export interface TmpBuffer {
  readonly name: string;
  /** Capacity in bytes (the same on every rank); peak memory counts only bytes actually touched. */
  readonly bytes: number;
}


/** Read-only view of a finished schedule. Columns are indexed by op id (0..numOps-1). */
export class Schedule implements ScheduleHeader {
  readonly algorithm: string;
  readonly algorithmSpec: string;
  readonly algorithmAlias?: string;
  readonly topology: string;
  readonly numRanks: number;
  readonly streams: number;
  readonly dtype: Dtype;
  readonly op: ReduceOp;
  readonly inPlace: boolean;
  readonly parts: readonly Part[];
  /** Buffer names: 0 send, 1 recv, then temporaries. */
  readonly buffers: readonly TmpBuffer[];

  readonly numOps: number;
  readonly opKind: Uint8Array;
  readonly opRank: Int32Array;
  readonly opStream: Uint8Array;
  /** send: destination rank, or -(destList+1); recv: source rank; barrier/hw: group id. */
  readonly opPeer: Int32Array;
  /** send/recv: tag; hw: kind index; reduce: 1 when uncharged (see `reduceCharged`). */
  readonly opTag: Int32Array;
  /** send/recv/hw: region (-1 none for hw); copy/reduce: source region; pace: index into paceValues. */
  readonly opA: Int32Array;
  /** copy/reduce: destination region; hw: result region (-1 none); send/recv: 1 when non-blocking (isend, irecv). */
  readonly opB: Int32Array;
  /** send: hint id or -1; reduce/hw: reduce-op index. */
  readonly opC: Int32Array;

  /**
   * Regions: entries regStart[r] .. regStart[r]+regCount[r] of the extent table; each entry is
   * expanded to regInner[r] copies regInnerStride[r] bytes apart, and the whole list is repeated
   * regRepeat[r] times regStride[r] bytes apart (an extent list has regInner = regRepeat = 1; a
   * vector has one entry).
   */
  readonly regStart: Int32Array;
  readonly regCount: Int32Array;
  readonly regRepeat: Int32Array;
  readonly regStride: Float64Array;
  readonly regInner: Int32Array;
  readonly regInnerStride: Float64Array;
  readonly extBuf: Uint16Array;
  readonly extOff: Float64Array;
  readonly extLen: Float64Array;
  readonly numRegions: number;

  /** Groups of (rank, stream) participants, encoded rank * MAX_STREAMS + stream. */
  readonly groupStart: Int32Array;
  readonly groupMembers: Int32Array;
  readonly numGroups: number;
  /** Multicast destination lists. */
  readonly destStart: Int32Array;
  readonly destRanks: Int32Array;
  /** Route hints. */
  readonly hintKind: Uint8Array;
  readonly hintStart: Int32Array;
  readonly hintNodes: Int32Array;
  readonly numHints: number;
  readonly paceValues: readonly number[];

  /** Part index of each rank, -1 if the rank takes part in none. */
  readonly partOfRank: Int32Array;
  /** Each rank's position among its part's ranks (-1 if in none): bufferBytes reads it instead of searching the part. */
  readonly positionInPart: Int32Array;

  constructor(init: Omit<Schedule, 'partOfRank' | 'positionInPart' | keyof ScheduleMethods>) {
    this.algorithm = init.algorithm;
    this.algorithmSpec = init.algorithmSpec;
    this.algorithmAlias = init.algorithmAlias;
    this.topology = init.topology;
    this.numRanks = init.numRanks;
    this.streams = init.streams;
    this.dtype = init.dtype;
    this.op = init.op;
    this.inPlace = init.inPlace;
    this.parts = init.parts;
    this.buffers = init.buffers;
    this.numOps = init.numOps;
    this.opKind = init.opKind;
    this.opRank = init.opRank;
    this.opStream = init.opStream;
    this.opPeer = init.opPeer;
    this.opTag = init.opTag;
    this.opA = init.opA;
    this.opB = init.opB;
    this.opC = init.opC;
    this.regStart = init.regStart;
    this.regCount = init.regCount;
    this.regRepeat = init.regRepeat;
    this.regStride = init.regStride;
    this.regInner = init.regInner;
    this.regInnerStride = init.regInnerStride;
    this.extBuf = init.extBuf;
    this.extOff = init.extOff;
    this.extLen = init.extLen;
    this.numRegions = init.numRegions;
    this.groupStart = init.groupStart;
    this.groupMembers = init.groupMembers;
    this.numGroups = init.numGroups;
    this.destStart = init.destStart;
    this.destRanks = init.destRanks;
    this.hintKind = init.hintKind;
    this.hintStart = init.hintStart;
    this.hintNodes = init.hintNodes;
    this.numHints = init.numHints;
    this.paceValues = init.paceValues;
    this.partOfRank = new Int32Array(init.numRanks).fill(-1);
    this.positionInPart = new Int32Array(init.numRanks).fill(-1);
    init.parts.forEach((p, i) => {
      p.ranks.forEach((r, k) => {
        this.partOfRank[r] = i;
        this.positionInPart[r] = k;
      });
    });
  }

  /** The (first) collective; most schedules have exactly one part. */
  get collective(): CollectiveKind {
    return this.parts[0].collective;
  }

  /** Bytes of buffer `buf` (0 send, 1 recv, 2+ temporaries) on `rank`. */
  bufferBytes(rank: number, buf: number): number {
    if (buf >= 2) return this.buffers[buf].bytes;
    const p = this.partOfRank[rank];
    if (p < 0) return 0;
    const io = ioBytes(this.parts[p], this.positionInPart[rank]);
    if (buf === SEND) return this.inPlace ? 0 : io.send;
    return this.inPlace ? Math.max(io.send, io.recv) : io.recv;
  }

  /** Total bytes of a region. */
  regionBytes(region: number): number {
    let total = 0;
    const s = this.regStart[region];
    for (let e = s; e < s + this.regCount[region]; e++) total += this.extLen[e];
    return total * this.regInner[region] * this.regRepeat[region];
  }

  /** Number of extents a region expands to (blocks of a vector). */
  regionExtents(region: number): number {
    return this.regCount[region] * this.regInner[region] * this.regRepeat[region];
  }

  /** Calls fn(buffer, offset, length) for each extent of a region, in order. */
  forEachExtent(region: number, fn: (buf: number, offset: number, length: number) => void): void {
    const s = this.regStart[region];
    const n = this.regCount[region];
    const stride = this.regStride[region];
    const inner = this.regInner[region];
    const innerStride = this.regInnerStride[region];
    for (let rep = 0; rep < this.regRepeat[region]; rep++) {
      for (let e = s; e < s + n; e++) {
        for (let i = 0; i < inner; i++) fn(this.extBuf[e], this.extOff[e] + rep * stride + i * innerStride, this.extLen[e]);
      }
    }
  }

  /** Destinations of a send op (one, or the multicast list). */
  sendDests(op: number): number[] {
    const p = this.opPeer[op];
    if (p >= 0) return [p];
    const l = -p - 1;
    return Array.from(this.destRanks.subarray(this.destStart[l], this.destStart[l + 1]));
  }

  groupParticipants(group: number): Array<{ rank: number; stream: number }> {
    const out: Array<{ rank: number; stream: number }> = [];
    for (let i = this.groupStart[group]; i < this.groupStart[group + 1]; i++) {
      const m = this.groupMembers[i];
      out.push({ rank: Math.floor(m / MAX_STREAMS), stream: m % MAX_STREAMS });
    }
    return out;
  }

  hint(id: number): RouteHint | undefined {
    if (id < 0) return undefined;
    return { kind: HINT_KINDS[this.hintKind[id]], nodes: Array.from(this.hintNodes.subarray(this.hintStart[id], this.hintStart[id + 1])) };
  }

  /** Op ids of each (rank, stream) program in program order: ops of program rank*streams+s are order[start[p]..start[p+1]). */
  programs(): { start: Int32Array; order: Int32Array } {
    const np = this.numRanks * this.streams;
    const start = new Int32Array(np + 1);
    for (let i = 0; i < this.numOps; i++) start[this.opRank[i] * this.streams + this.opStream[i] + 1]++;
    for (let p = 0; p < np; p++) start[p + 1] += start[p];
    const fill = start.slice(0, np);
    const order = new Int32Array(this.numOps);
    for (let i = 0; i < this.numOps; i++) order[fill[this.opRank[i] * this.streams + this.opStream[i]]++] = i;
    return { start, order };
  }

  // The generic columns opA/opB/opC by what they mean for each op kind (read these, not the columns).
  /** send/recv: the message's region; copy/reduce: the source; hw: the contribution (-1 none). */
  dataRegion(op: number): number {
    return this.opA[op];
  }

  /** copy/reduce: the destination region; hw: the result region (-1 none). */
  targetRegion(op: number): number {
    return this.opB[op];
  }

  /** send/recv: whether it is non-blocking (isend, irecv: the stream goes on; a later waitall completes it). */
  isNonBlocking(op: number): boolean {
    return (this.opKind[op] === OpKind.Send || this.opKind[op] === OpKind.Recv) && this.opB[op] === 1;
  }

  /**
   * send: whether it is an MPI_Send its stream follows with an MPI_Recv of its own
   * (`ScheduleBuilder.separateSend`), where a blocking send directly followed by a blocking receive
   * is otherwise a sendrecv (MPI_Sendrecv): SMPI charges the first smpi/os, a sendrecv's send
   * smpi/ois (program/software-overheads.ts).
   */
  isSeparateSend(op: number): boolean {
    return this.opKind[op] === OpKind.Send && this.opB[op] === SEPARATE_SEND;
  }

  /** wait: the op id of the request it waits for, or -1 for a waitall. */
  waitTarget(op: number): number {
    return this.opPeer[op];
  }

  /** send: its route hint id, or -1. */
  sendHint(op: number): number {
    return this.opC[op];
  }

  /** reduce/hw: index of its reduction in REDUCE_OPS. */
  reduceOpIndex(op: number): number {
    return this.opC[op];
  }

  /**
   * Whether a reduce takes its time (γ per byte) in a run. An uncharged reduce still combines the
   * data, in no time: how a simulator that leaves one reduction out of its accounting is
   * reproduced (ASTRA-sim's halving-doubling last step, astra-native.ts), the data still checked.
   */
  reduceCharged(op: number): boolean {
    return this.opTag[op] === 0;
  }

  /** pace: its gap's index in paceValues. */
  paceValueIndex(op: number): number {
    return this.opA[op];
  }

  /** pace: its gap, in packet times. */
  paceGap(op: number): number {
    return this.paceValues[this.paceValueIndex(op)];
  }

  /** One op as readable text, e.g. "send to 3 recv[8..15] tag 0 via [12]". */
  describeOp(op: number): string {
    const k = this.opKind[op];
    const r = (id: number): string => (id < 0 ? '(nothing)' : this.describeRegion(id));
    switch (k) {
      case OpKind.Send: {
        const dests = this.sendDests(op);
        const h = this.hint(this.sendHint(op));
        const hint = h ? ` ${h.kind}${h.nodes.length ? ` [${h.nodes.join(',')}]` : ''}` : '';
        return `${this.isNonBlocking(op) ? 'isend' : this.isSeparateSend(op) ? 'separate send' : 'send'} to ${dests.length === 1 ? dests[0] : `[${dests.join(',')}]`} ${r(this.dataRegion(op))} tag ${this.opTag[op]}${hint}`;
      }
      case OpKind.Recv:
        return `${this.isNonBlocking(op) ? 'irecv' : 'recv'} from ${this.opPeer[op]} ${r(this.dataRegion(op))} tag ${this.opTag[op]}`;
      case OpKind.Copy:
        return `copy ${r(this.dataRegion(op))} -> ${r(this.targetRegion(op))}`;
      case OpKind.Reduce:
        return `reduce ${REDUCE_OPS[this.reduceOpIndex(op)]} ${r(this.dataRegion(op))} into ${r(this.targetRegion(op))}${this.reduceCharged(op) ? '' : ' (uncharged)'}`;
      case OpKind.Barrier:
        return `barrier group ${this.opPeer[op]} (${this.groupStart[this.opPeer[op] + 1] - this.groupStart[this.opPeer[op]]} participants)`;
      case OpKind.Pace:
        return `pace gap ${this.paceGap(op)}`;
      case OpKind.Wait:
        return this.waitTarget(op) < 0 ? 'waitall' : `wait #${this.waitTarget(op)}`;
      default:
        return `hw ${HW_KINDS[this.opTag[op]]} ${REDUCE_OPS[this.reduceOpIndex(op)]} ${r(this.dataRegion(op))} -> ${r(this.targetRegion(op))} group ${this.opPeer[op]}`;
    }
  }

  /** "recv[0..15]" or "send[0..3,8..11]" (byte ranges, inclusive). */
  describeRegion(region: number): string {
    const parts: string[] = [];
    let lastBuf = -1;
    let count = 0;
    this.forEachExtent(region, (buf, off, len) => {
      count++;
      if (count > 8) return;
      const range = `${off}..${off + len - 1}`;
      parts.push(buf === lastBuf ? range : `${this.buffers[buf].name}[${range}`);
      lastBuf = buf;
    });
    const text = parts.map((p, i) => (i + 1 < parts.length && !parts[i + 1].includes('[') ? `${p},` : `${p}]`)).join('');
    const more = count > 8 ? ` (+${count - 8} extents)` : '';
    return `${text.replace(/\],?(?=[a-z])/g, '] ')}${more}`;
  }
}

type ScheduleMethods = Pick<
  Schedule,
  'collective' | 'isNonBlocking' | 'isSeparateSend' | 'waitTarget' | 'bufferBytes' | 'regionBytes' | 'regionExtents' | 'forEachExtent' | 'sendDests' | 'groupParticipants' | 'hint' | 'programs' | 'describeOp' | 'describeRegion' | 'dataRegion' | 'targetRegion' | 'sendHint' | 'reduceOpIndex' | 'reduceCharged' | 'paceValueIndex' | 'paceGap'
>;

/** Bytes of the input (`send`) and output (`recv`) buffers of local rank `local` in a part. */
export function ioBytes(part: Part, local: number): { send: number; recv: number } {
  const n = part.ranks.length;
  const s = part.size;
  const isRoot = part.ranks[local] === part.root;
  switch (part.collective) {
    case 'alltoall':
      return { send: n * s, recv: n * s };
    case 'alltoallv': {
      let send = 0;
      let recv = 0;
      for (let q = 0; q < n; q++) {
        send += part.sizes![local * n + q];
        recv += part.sizes![q * n + local];
      }
      return { send, recv };
    }
    case 'allgather':
      return { send: s, recv: n * s };
    case 'gather':
      return { send: s, recv: isRoot ? n * s : 0 };
    case 'scatter':
      return { send: isRoot ? n * s : 0, recv: s };
    case 'broadcast':
      return { send: isRoot ? s : 0, recv: s };
    case 'reduce':
      return { send: s, recv: isRoot ? s : 0 };
    case 'allreduce':
      return { send: s, recv: s };
    case 'reduce-scatter':
      return { send: s, recv: s / n };
    case 'one-to-one':
      return { send: isRoot ? s : 0, recv: part.ranks[local] === part.peer ? s : 0 };
    case 'barrier':
      return { send: 0, recv: 0 };
  }
}

export interface BuilderInit {
  collective: CollectiveKind;
  numRanks: number;
  size: number;
  root?: number;
  /** one-to-one destination (default: the last rank). */
  peer?: number;
  dtype?: Dtype;
  op?: ReduceOp;
  inPlace?: boolean;
  streams?: number;
  algorithm?: string;
  algorithmSpec?: string;
  algorithmAlias?: string;
  topology?: string;
  /** alltoallv: bytes from rank i to rank j at [i·n + j] (one part of all ranks). */
  sizes?: ArrayLike<number>;
  /** Sub-communicators; default one part of all ranks with the collective above. */
  parts?: Array<{ collective: CollectiveKind; ranks: ArrayLike<number>; size: number; root?: number; peer?: number; sizes?: ArrayLike<number> }>;
  /** Expected op count, to size the columns once. */
  expectedOps?: number;
}

/**
 * Builds a Schedule. Typical use inside an algorithm:
 *
 *   for (let r = 0; r < n; r++) for (let j = 0; j < n; j++) {
 *     b.send(r, j, b.block(SEND, j));
 *     b.recv(j, r, b.block(RECV, r));
 *   }
 *
 * Ops of one (rank, stream) are kept in the order they are added, whatever the interleaving
 * of ranks. Region, group, hint and destination-list ids are interned (equal inputs, equal id).
 */
export class ScheduleBuilder {
  readonly numRanks: number;
  readonly collective: CollectiveKind;
  /** The collective's size in bytes (see sizeMeaning). */
  readonly size: number;
  readonly root: number;
  readonly peer: number;
  readonly dtype: Dtype;
  readonly op: ReduceOp;
  readonly inPlace: boolean;
  streams: number;
  private readonly header: { algorithm: string; algorithmSpec: string; algorithmAlias?: string; topology: string };
  readonly parts: Part[];
  private readonly buffers: TmpBuffer[] = [
    { name: 'send', bytes: 0 },
    { name: 'recv', bytes: 0 },
  ];

  private n = 0;
  private kind: Uint8Array;
  private rank: Int32Array;
  private stream: Uint8Array;
  private peerCol: Int32Array;
  private tag: Int32Array;
  private a: Int32Array;
  private b: Int32Array;
  private c: Int32Array;

  private regionIds = new Map<string, number>();
  private regionHash = new Map<number, number[]>();
  private regStart: number[] = [];
  private regCount: number[] = [];
  private regRepeat: number[] = [];
  private regStride: number[] = [];
  private regInner: number[] = [];
  private regInnerStride: number[] = [];
  private extBuf: number[] = [];
  private extOff: number[] = [];
  private extLen: number[] = [];
  private blockCache = new Map<number, number>();

  private groupIds = new Map<string, number>();
  private groupStart: number[] = [0];
  private groupMembers: number[] = [];
  private destIds = new Map<string, number>();
  private destStart: number[] = [0];
  private destRanks: number[] = [];
  // Route hints in growable typed columns with an open-addressing hash table of hint ids: a
  // 32×32×32 hop-grouped alltoall interns 3 M distinct per-rank paths, which as JS arrays and a
  // Map of buckets took most of the build time and a GiB of heap.
  private numHints = 0;
  private hintKind = new Uint8Array(64);
  private hintStart = new Int32Array(65);
  private hintNodes = new Int32Array(256);
  private hintHashOf = new Int32Array(64);
  private hintTable = new Int32Array(128).fill(-1);
  private paceIds = new Map<number, number>();
  private paceValues: number[] = [];
  // Per (rank, stream) with non-blocking ops since its last waitall: how many (finish refuses leftovers).
  private unwaited = new Map<number, number>();

  constructor(init: BuilderInit) {
    if (!Number.isInteger(init.numRanks) || init.numRanks < 1) throw new InputError('ranks', init.numRanks, 'a positive integer');
    if (init.numRanks > MAX_SCHEDULE_RANKS) throw new LimitError('ranks', init.numRanks, `${MAX_SCHEDULE_RANKS} ranks (2^24, the topologies' node limit)`);
    if (!(COLLECTIVE_NAMES as readonly unknown[]).includes(init.collective)) throw new InputError('collective', init.collective, `one of ${COLLECTIVE_NAMES.join(', ')}`);
    if (init.dtype !== undefined && !(DTYPES as readonly unknown[]).includes(init.dtype)) throw new InputError('dtype', init.dtype, DTYPES.join(', '));
    if (!(Number.isInteger(init.size) && init.size >= 0)) throw new InputError('size', init.size, 'a whole number of bytes >= 0');
    this.numRanks = init.numRanks;
    this.collective = init.collective;
    this.size = init.size;
    this.root = init.root ?? 0;
    this.peer = init.peer ?? init.numRanks - 1;
    this.dtype = init.dtype ?? 'int32';
    this.op = init.op ?? 'sum';
    this.inPlace = init.inPlace ?? false;
    this.streams = init.streams ?? 1;
    if (!(this.streams >= 1 && this.streams <= MAX_STREAMS)) throw new InputError('streams', this.streams, `1 to ${MAX_STREAMS}`);
    this.header = { algorithm: init.algorithm ?? 'custom', algorithmSpec: init.algorithmSpec ?? init.algorithm ?? 'custom', algorithmAlias: init.algorithmAlias, topology: init.topology ?? '' };
    const partsInit = init.parts ?? [{ collective: init.collective, ranks: Array.from({ length: init.numRanks }, (_, i) => i), size: init.size, root: this.root, peer: this.peer, sizes: init.sizes }];
    this.parts = partsInit.map((p) => makePart(p, init.numRanks));
    checkDisjoint(this.parts, init.numRanks);
    const cap = Math.max(64, Math.min(init.expectedOps ?? 1024, MAX_OPS));
    this.kind = new Uint8Array(cap);
    this.rank = new Int32Array(cap);
    this.stream = new Uint8Array(cap);
    this.peerCol = new Int32Array(cap);
    this.tag = new Int32Array(cap);
    this.a = new Int32Array(cap);
    this.b = new Int32Array(cap);
    this.c = new Int32Array(cap);
  }

  get numOps(): number {
    return this.n;
  }

  /** Size of one block of the (first) collective: its size for block collectives, size/ranks for the others. */
  get blockBytes(): number {
    return sizeMeaning(this.collective) === 'block' ? this.size : this.size / this.numRanks;
  }

  /** Declares a temporary buffer of `bytes` capacity on every rank; returns its buffer id. */
  tmpBuffer(name: string, bytes: number): number {
    const existing = this.buffers.findIndex((b) => b.name === name);
    // send and recv are the collective's own buffers (SEND, RECV): a temporary of that name would alias one.
    if (existing === SEND || existing === RECV) throw new InputError('buffer', name, 'a temporary buffer name other than send and recv (the collective\'s own buffers: use SEND and RECV)');
    if (existing >= 0) {
      if (this.buffers[existing].bytes < bytes) this.buffers[existing] = { name, bytes };
      return existing;
    }
    if (!/^[a-z][a-z0-9_]*$/i.test(name)) throw new InputError('buffer', name, 'a name of letters, digits and "_"');
    this.buffers.push({ name, bytes });
    return this.buffers.length - 1;
  }

  /** A region of one extent. */
  region(buf: number, offset: number, length: number): number {
    return this.extents([[buf, offset, length]]);
  }

  /**
   * A region made of the given extents [buffer, offset, length], concatenated in order.
   * Interned by a numeric hash of the extents (algorithms call this once per op with long lists,
   * so no string keys), then compared extent by extent.
   */
  extents(list: ReadonlyArray<readonly [number, number, number]>): number {
    let h = 0x811c9dc5 ^ list.length;
    for (const e of list) h = mix(mix(mix(h, e[0]), e[1]), e[2]);
    const candidates = this.regionHash.get(h);
    if (candidates) {
      for (const id of candidates) if (this.sameExtents(id, list)) return id;
    }
    for (const [buf, off, len] of list) this.checkExtent(buf, off, len);
    const id = this.regStart.length;
    this.regStart.push(this.extBuf.length);
    this.regCount.push(list.length);
    this.regRepeat.push(1);
    this.regStride.push(0);
    this.regInner.push(1);
    this.regInnerStride.push(0);
    for (const [buf, off, len] of list) {
      this.extBuf.push(buf);
      this.extOff.push(off);
      this.extLen.push(len);
    }
    if (candidates) candidates.push(id);
    else this.regionHash.set(h, [id]);
    return id;
  }

  private sameExtents(id: number, list: ReadonlyArray<readonly [number, number, number]>): boolean {
    if (this.regCount[id] !== list.length || this.regRepeat[id] !== 1 || this.regInner[id] !== 1) return false;
    const s = this.regStart[id];
    for (let i = 0; i < list.length; i++) {
      if (this.extBuf[s + i] !== list[i][0] || this.extOff[s + i] !== list[i][1] || this.extLen[s + i] !== list[i][2]) return false;
    }
    return true;
  }

  /** A strided vector: `count` blocks of `blockLength` bytes, starting at offset, `stride` bytes apart. */
  strided(buf: number, offset: number, blockLength: number, stride: number, count: number): number {
    return this.strided2(buf, offset, blockLength, 0, 1, stride, count);
  }

  /**
   * A two-level strided vector: for o < outerCount, for i < innerCount, the block of `blockLength`
   * bytes at offset + o·outerStride + i·innerStride (i fastest). O(1) storage however many blocks.
   */
  strided2(buf: number, offset: number, blockLength: number, innerStride: number, innerCount: number, outerStride: number, outerCount: number): number {
    // One level when the inner blocks are a single block or touch each other (one longer block).
    if (innerCount === 1) innerStride = 0;
    else if (innerStride === blockLength && Number.isInteger(innerCount) && innerCount >= 1) {
      blockLength *= innerCount;
      innerCount = 1;
      innerStride = 0;
    }
    const key = `v${buf}:${offset}:${blockLength}:${innerStride}:${innerCount}:${outerStride}:${outerCount}`;
    const found = this.regionIds.get(key);
    if (found !== undefined) return found;
    this.checkExtent(buf, offset, blockLength);
    for (const [count, stride, what] of [[innerCount, innerStride, 'inner'], [outerCount, outerStride, 'outer']] as const) {
      if (!(Number.isInteger(count) && count >= 1) || !(Number.isSafeInteger(stride) && stride >= 0)) {
        throw new InputError(`region.${what}`, [stride, count], 'count >= 1 and a whole stride >= 0');
      }
    }
    const last = offset + (outerCount - 1) * outerStride + (innerCount - 1) * innerStride + blockLength;
    if (!Number.isSafeInteger(last)) throw new InputError('region.extent', [buf, offset, blockLength, innerStride, innerCount, outerStride, outerCount], 'a vector ending below 2^53 bytes');
    const id = this.regStart.length;
    this.regStart.push(this.extBuf.length);
    this.regCount.push(1);
    this.regRepeat.push(outerCount);
    this.regStride.push(outerStride);
    this.regInner.push(innerCount);
    this.regInnerStride.push(innerStride);
    this.extBuf.push(buf);
    this.extOff.push(offset);
    this.extLen.push(blockLength);
    this.regionIds.set(key, id);
    return id;
  }

  /** Block `index` (of `blockBytes` or the given length) of buffer `buf`; `count` consecutive blocks. */
  block(buf: number, index: number, count = 1, blockLength = this.blockBytes): number {
    if (count === 1 && blockLength === this.blockBytes && buf < 64 && index < 1 << 24) {
      const key = buf * (1 << 24) + index;
      const hit = this.blockCache.get(key);
      if (hit !== undefined) return hit;
      const id = this.region(buf, index * blockLength, blockLength);
      this.blockCache.set(key, id);
      return id;
    }
    return this.region(buf, index * blockLength, count * blockLength);
  }

  /** Several (possibly non-contiguous) blocks as one region, in the order given. */
  blocks(buf: number, indices: readonly number[], blockLength = this.blockBytes): number {
    const list: Array<[number, number, number]> = [];
    for (const i of indices) {
      const last = list[list.length - 1];
      if (last && last[1] + last[2] === i * blockLength) last[2] += blockLength;
      else list.push([buf, i * blockLength, blockLength]);
    }
    return this.extents(list);
  }

  /** A group of (rank, stream) participants: the given ranks on the given streams (default: stream 0; 'all': every stream). */
  group(ranks: ArrayLike<number>, streams: readonly number[] | 'all' = [0]): number {
    const ss = streams === 'all' ? Array.from({ length: this.streams }, (_, i) => i) : streams;
    const members: number[] = [];
    for (let i = 0; i < ranks.length; i++) {
      this.checkRank(ranks[i], 'group.rank');
      for (const s of ss) {
        this.checkStream(s);
        members.push(ranks[i] * MAX_STREAMS + s);
      }
    }
    return this.groupOf(members);
  }

  /** A group from explicit (rank, stream) pairs. */
  groupOfPairs(pairs: ReadonlyArray<{ rank: number; stream: number }>): number {
    return this.groupOf(pairs.map((p) => (this.checkRank(p.rank, 'group.rank'), this.checkStream(p.stream), p.rank * MAX_STREAMS + p.stream)));
  }

  private groupOf(members: number[]): number {
    members.sort((x, y) => x - y);
    for (let i = 1; i < members.length; i++) if (members[i] === members[i - 1]) throw new InputError('group', members[i], 'each (rank, stream) at most once');
    if (members.length === 0) throw new InputError('group', '[]', 'at least one participant');
    const key = members.join(',');
    const found = this.groupIds.get(key);
    if (found !== undefined) return found;
    const id = this.groupStart.length - 1;
    appendAll(this.groupMembers, members);
    this.groupStart.push(this.groupMembers.length);
    this.groupIds.set(key, id);
    return id;
  }

  /** Interns a route hint; node ids are topology node ids. */
  hint(kind: HintKind, nodes: readonly number[] = []): number {
    const k = HINT_KINDS.indexOf(kind);
    if (k < 0) throw new InputError('hint.kind', kind, HINT_KINDS.join(', '));
    if (kind !== 'direct' && nodes.length === 0) throw new InputError('hint.nodes', nodes, `at least one node for a ${kind} hint`);
    let h = mix(0x811c9dc5 ^ nodes.length, k);
    for (const v of nodes) {
      if (!(Number.isInteger(v) && v >= 0 && v <= 0x7fffffff)) throw new InputError('hint.nodes', v, 'node ids (integers >= 0)');
      h = mix(h, v);
    }
    // Avalanche (murmur3 fmix32): the table uses the low bits, which FNV leaves clustered for
    // paths of neighbouring nodes (long probe runs).
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
    const mask = this.hintTable.length - 1;
    let slot = h & mask;
    for (let id = this.hintTable[slot]; id >= 0; slot = (slot + 1) & mask, id = this.hintTable[slot]) {
      if (this.hintHashOf[id] === h && this.sameHint(id, k, nodes)) return id;
    }
    const id = this.numHints++;
    if (id === this.hintKind.length) {
      this.hintKind = resized(this.hintKind, 2 * id);
      this.hintHashOf = resized(this.hintHashOf, 2 * id);
      this.hintStart = resized(this.hintStart, 2 * id + 1);
    }
    const st = this.hintStart[id];
    if (st + nodes.length > this.hintNodes.length) this.hintNodes = resized(this.hintNodes, Math.max(2 * this.hintNodes.length, st + nodes.length));
    this.hintKind[id] = k;
    this.hintHashOf[id] = h;
    for (let i = 0; i < nodes.length; i++) this.hintNodes[st + i] = nodes[i];
    this.hintStart[id + 1] = st + nodes.length;
    this.hintTable[slot] = id;
    // Keep the table at most half full (short probe runs); rehash from the stored hashes.
    if (2 * this.numHints > this.hintTable.length) {
      const table = new Int32Array(2 * this.hintTable.length).fill(-1);
      const m = table.length - 1;
      for (let j = 0; j < this.numHints; j++) {
        let sl = this.hintHashOf[j] & m;
        while (table[sl] >= 0) sl = (sl + 1) & m;
        table[sl] = j;
      }
      this.hintTable = table;
    }
    return id;
  }

  private sameHint(id: number, kind: number, nodes: readonly number[]): boolean {
    const st = this.hintStart[id];
    if (this.hintKind[id] !== kind || this.hintStart[id + 1] - st !== nodes.length) return false;
    for (let i = 0; i < nodes.length; i++) if (this.hintNodes[st + i] !== nodes[i]) return false;
    return true;
  }

  /** send(to | to[], region): eager send; a list of destinations is one multicast. */
  send(rank: number, to: number | readonly number[], region: number, tag = 0, stream = 0, hint = -1): number {
    let peer: number;
    if (typeof to === 'number') {
      this.checkRank(to, 'send.to');
      peer = to;
    } else if (to.length === 1) {
      this.checkRank(to[0], 'send.to');
      peer = to[0];
    } else {
      peer = -(this.destList(to) + 1);
    }
    return this.push(OpKind.Send, rank, stream, peer, tag, region, 0, hint);
  }

  recv(rank: number, from: number, region: number, tag = 0, stream = 0): number {
    this.checkRank(from, 'recv.from');
    return this.push(OpKind.Recv, rank, stream, from, tag, region, 0, -1);
  }

  /**
   * A blocking send to one rank that the receive following it in its stream does not pair with
   * (MPI_Send, then MPI_Recv: not a sendrecv; `isSeparateSend`).
   */
  separateSend(rank: number, to: number, region: number, tag = 0, stream = 0): number {
    this.checkRank(to, 'send.to');
    return this.push(OpKind.Send, rank, stream, to, tag, region, SEPARATE_SEND, -1);
  }

  /** A non-blocking send to one rank (MPI_Isend): the stream goes on; a later waitall completes it. */
  isend(rank: number, to: number, region: number, tag = 0, stream = 0, hint = -1): number {
    this.checkRank(to, 'isend.to');
    this.countUnwaited(rank, stream, 1);
    return this.push(OpKind.Send, rank, stream, to, tag, region, 1, hint);
  }

  /** A non-blocking receive (MPI_Irecv): posted now, matched in posting order; a later waitall completes it. */
  irecv(rank: number, from: number, region: number, tag = 0, stream = 0): number {
    this.checkRank(from, 'irecv.from');
    this.countUnwaited(rank, stream, 1);
    return this.push(OpKind.Recv, rank, stream, from, tag, region, 1, -1);
  }

  /** MPI_Waitall over every isend and irecv this (rank, stream) posted since its last waitall. */
  waitall(rank: number, stream = 0): number {
    this.countUnwaited(rank, stream, 0);
    return this.push(OpKind.Wait, rank, stream, -1, 0, -1, 0, -1);
  }

  /** MPI_Wait for one request: `request` is the op id an earlier isend or irecv of this (rank, stream) returned; wait for each request at most once. */
  wait(rank: number, request: number, stream = 0): number {
    const ok = Number.isInteger(request) && request >= 0 && request < this.n && (this.kind[request] === OpKind.Send || this.kind[request] === OpKind.Recv) && this.b[request] === 1;
    if (!ok || this.rank[request] !== rank || this.stream[request] !== stream) throw new InputError('wait.request', request, `the op id of an earlier isend or irecv of rank ${rank} stream ${stream}`);
    this.countUnwaited(rank, stream, -1);
    return this.push(OpKind.Wait, rank, stream, request, 0, -1, 0, -1);
  }

  private countUnwaited(rank: number, stream: number, add: number): void {
    const key = rank * MAX_STREAMS + stream;
    const count = (this.unwaited.get(key) ?? 0) + add;
    if (add === 0 || count === 0) this.unwaited.delete(key);
    else this.unwaited.set(key, count);
  }

  /** send then recv on the same stream (a sendrecv: both may complete in one unit step). */
  sendrecv(rank: number, to: number, sendRegion: number, from: number, recvRegion: number, tag = 0, stream = 0): void {
    this.send(rank, to, sendRegion, tag, stream);
    this.recv(rank, from, recvRegion, tag, stream);
  }

  copy(rank: number, src: number, dst: number, stream = 0): number {
    return this.push(OpKind.Copy, rank, stream, 0, 0, src, dst, -1);
  }

  /** dst = dst op src, element-wise; op defaults to the schedule's op; `charged` false: in no time (Schedule.reduceCharged). */
  reduce(rank: number, src: number, dst: number, stream = 0, op: ReduceOp = this.op, charged = true): number {
    return this.push(OpKind.Reduce, rank, stream, 0, charged ? 0 : 1, src, dst, reduceOpIndex(op));
  }

  barrier(rank: number, group: number, stream = 0): number {
    return this.push(OpKind.Barrier, rank, stream, group, 0, -1, 0, -1);
  }

  pace(rank: number, gap: number, stream = 0): number {
    if (!(Number.isFinite(gap) && gap >= 0)) throw new InputError('pace.gap', gap, 'a number of packet times >= 0');
    let id = this.paceIds.get(gap);
    if (id === undefined) {
      id = this.paceValues.length;
      this.paceValues.push(gap);
      this.paceIds.set(gap, id);
    }
    return this.push(OpKind.Pace, rank, stream, 0, 0, id, 0, -1);
  }

  /** A combining-network operation over `group`: contributes `region` (-1: the identity), stores the result in `result` (-1: discards it). */
  hw(rank: number, kind: HwKind, op: ReduceOp, region: number, group: number, stream = 0, result = region): number {
    const k = HW_KINDS.indexOf(kind);
    if (k < 0) throw new InputError('hw.kind', kind, HW_KINDS.join(', '));
    // `contribute` is an allreduce whose result this participant discards.
    return this.push(OpKind.HwCollective, rank, stream, group, k, region, kind === 'contribute' ? -1 : result, reduceOpIndex(op));
  }

  /** A rank-bound view for readable algorithm code: `const p = b.on(r); p.send(...); p.recv(...)`. */
  on(rank: number, stream = 0): RankProgram {
    return new RankProgram(this, rank, stream);
  }

  private destList(to: readonly number[]): number {
    for (const r of to) this.checkRank(r, 'send.to');
    if (new Set(to).size !== to.length) throw new InputError('send.to', to, 'distinct destinations');
    const key = to.join(',');
    const found = this.destIds.get(key);
    if (found !== undefined) return found;
    const id = this.destStart.length - 1;
    appendAll(this.destRanks, to);
    this.destStart.push(this.destRanks.length);
    this.destIds.set(key, id);
    return id;
  }

  private push(kind: number, rank: number, stream: number, peer: number, tag: number, a: number, b: number, c: number): number {
    if (!(rank >= 0 && rank < this.numRanks && Number.isInteger(rank))) this.checkRank(rank, 'op.rank');
    if (stream >= this.streams) this.checkStream(stream);
    if (this.n === this.kind.length) this.growColumns();
    const i = this.n++;
    this.kind[i] = kind;
    this.rank[i] = rank;
    this.stream[i] = stream;
    this.peerCol[i] = peer;
    this.tag[i] = tag;
    this.a[i] = a;
    this.b[i] = b;
    this.c[i] = c;
    return i;
  }

  private growColumns(): void {
    const size = Math.min(MAX_OPS, this.kind.length * 2);
    if (size <= this.n) throw new LimitError('schedule', `${this.n + 1} ops`, `${MAX_OPS} ops`);
    this.kind = resized(this.kind, size);
    this.rank = resized(this.rank, size);
    this.stream = resized(this.stream, size);
    this.peerCol = resized(this.peerCol, size);
    this.tag = resized(this.tag, size);
    this.a = resized(this.a, size);
    this.b = resized(this.b, size);
    this.c = resized(this.c, size);
  }

  private checkRank(r: number, field: string): void {
    if (!(Number.isInteger(r) && r >= 0 && r < this.numRanks)) throw new InputError(field, r, `a rank from 0 to ${this.numRanks - 1}`);
  }

  private checkStream(s: number): void {
    if (!(Number.isInteger(s) && s >= 0 && s < MAX_STREAMS)) throw new InputError('stream', s, `a stream from 0 to ${MAX_STREAMS - 1}`);
    if (s >= this.streams) this.streams = s + 1;
  }

  private checkExtent(buf: number, off: number, len: number): void {
    if (!(Number.isInteger(buf) && buf >= 0 && buf < this.buffers.length)) {
      throw new InputError('region.buffer', buf, `a declared buffer id 0..${this.buffers.length - 1} (0 send, 1 recv, then tmpBuffer ids)`);
    }
    if (!(Number.isSafeInteger(off) && off >= 0 && Number.isSafeInteger(len) && len >= 0)) {
      throw new InputError('region.extent', [buf, off, len], 'whole byte offsets and lengths >= 0');
    }
  }

  /** Freezes the ops into a Schedule (the builder must not be used afterwards). */
  finish(): Schedule {
    for (const [key, count] of this.unwaited) {
      throw new InputError('schedule', `rank ${Math.floor(key / MAX_STREAMS)} stream ${key % MAX_STREAMS} ends with ${count} non-blocking operation(s) it never waits for`, 'a wait or waitall for every isend and irecv');
    }
    const n = this.n;
    // Columns mostly full are shared (a view), not copied: copying 37 M ops' columns would
    // double the schedule's peak memory for a moment.
    const fit = <T extends Uint8Array | Int32Array>(col: T): T => (col.length === n ? col : 4 * n >= 3 * col.length ? (col.subarray(0, n) as T) : (col.slice(0, n) as T));
    return new Schedule({
      ...this.header,
      numRanks: this.numRanks,
      streams: this.streams,
      dtype: this.dtype,
      op: this.op,
      inPlace: this.inPlace,
      parts: this.parts,
      buffers: this.buffers,
      numOps: n,
      opKind: fit(this.kind),
      opRank: fit(this.rank),
      opStream: fit(this.stream),
      opPeer: fit(this.peerCol),
      opTag: fit(this.tag),
      opA: fit(this.a),
      opB: fit(this.b),
      opC: fit(this.c),
      regStart: Int32Array.from(this.regStart),
      regCount: Int32Array.from(this.regCount),
      regRepeat: Int32Array.from(this.regRepeat),
      regStride: Float64Array.from(this.regStride),
      regInner: Int32Array.from(this.regInner),
      regInnerStride: Float64Array.from(this.regInnerStride),
      extBuf: Uint16Array.from(this.extBuf),
      extOff: Float64Array.from(this.extOff),
      extLen: Float64Array.from(this.extLen),
      numRegions: this.regStart.length,
      groupStart: Int32Array.from(this.groupStart),
      groupMembers: Int32Array.from(this.groupMembers),
      numGroups: this.groupStart.length - 1,
      destStart: Int32Array.from(this.destStart),
      destRanks: Int32Array.from(this.destRanks),
      hintKind: this.hintKind.slice(0, this.numHints),
      hintStart: this.hintStart.slice(0, this.numHints + 1),
      hintNodes: this.hintNodes.slice(0, this.hintStart[this.numHints]),
      numHints: this.numHints,
      paceValues: this.paceValues,
    });
  }
}

/** A (rank, stream)-bound view of a builder: the same ops without repeating rank and stream. */
export class RankProgram {
  constructor(
    readonly builder: ScheduleBuilder,
    readonly rank: number,
    readonly stream: number,
  ) {}
  send(to: number | readonly number[], region: number, tag = 0, hint = -1): this {
    this.builder.send(this.rank, to, region, tag, this.stream, hint);
    return this;
  }
  recv(from: number, region: number, tag = 0): this {
    this.builder.recv(this.rank, from, region, tag, this.stream);
    return this;
  }
  isend(to: number, region: number, tag = 0, hint = -1): this {
    this.builder.isend(this.rank, to, region, tag, this.stream, hint);
    return this;
  }
  irecv(from: number, region: number, tag = 0): this {
    this.builder.irecv(this.rank, from, region, tag, this.stream);
    return this;
  }
  waitall(): this {
    this.builder.waitall(this.rank, this.stream);
    return this;
  }
  /** Waits for one request (the op id an isend or irecv returned: use `builder.isend`/`irecv` to get it). */
  wait(request: number): this {
    this.builder.wait(this.rank, request, this.stream);
    return this;
  }
  copy(src: number, dst: number): this {
    this.builder.copy(this.rank, src, dst, this.stream);
    return this;
  }
  reduce(src: number, dst: number, op?: ReduceOp): this {
    this.builder.reduce(this.rank, src, dst, this.stream, op);
    return this;
  }
  barrier(group: number): this {
    this.builder.barrier(this.rank, group, this.stream);
    return this;
  }
  pace(gap: number): this {
    this.builder.pace(this.rank, gap, this.stream);
    return this;
  }
  hw(kind: HwKind, op: ReduceOp, region: number, group: number, result = region): this {
    this.builder.hw(this.rank, kind, op, region, group, this.stream, result);
    return this;
  }
}

export function reduceOpIndex(op: ReduceOp): number {
  const i = REDUCE_OPS.indexOf(op);
  if (i < 0) throw new InputError('op', op, REDUCE_OPS.join(', '));
  return i;
}

function makePart(p: { collective: CollectiveKind; ranks: ArrayLike<number>; size: number; root?: number; peer?: number; sizes?: ArrayLike<number> }, numRanks: number): Part {
  const ranks = Int32Array.from(p.ranks);
  if (ranks.length === 0) throw new InputError('part.ranks', [], 'at least one rank');
  for (const r of ranks) if (!(r >= 0 && r < numRanks)) throw new InputError('part.ranks', r, `ranks from 0 to ${numRanks - 1}`);
  const root = p.root ?? ranks[0];
  const peer = p.peer ?? ranks[ranks.length - 1];
  const rooted = ['broadcast', 'reduce', 'scatter', 'gather', 'one-to-one'].includes(p.collective);
  if (rooted && !ranks.includes(root)) throw new InputError('root', root, `a rank of the communicator (0 to ${numRanks - 1})`);
  if (p.collective === 'one-to-one' && !ranks.includes(peer)) throw new InputError('peer', peer, `a rank of the communicator (0 to ${numRanks - 1})`);
  if (p.collective === 'reduce-scatter' && p.size % ranks.length !== 0) {
    throw new InputError('size', p.size, `a multiple of the rank count ${ranks.length} for reduce-scatter (the whole buffer is split in equal blocks)`);
  }
  let sizes: Float64Array | undefined;
  if (p.collective === 'alltoallv') {
    const n = ranks.length;
    if (!p.sizes || p.sizes.length !== n * n) throw new InputError('sizes', p.sizes ? `${p.sizes.length} entries` : 'none', `an alltoallv size matrix of ${n} x ${n} = ${n * n} entries (bytes from rank i to rank j)`);
    sizes = Float64Array.from(p.sizes);
    for (let k = 0; k < sizes.length; k++) {
      if (!(Number.isSafeInteger(sizes[k]) && sizes[k] >= 0)) throw new InputError(`sizes[${Math.floor(k / n)}][${k % n}]`, sizes[k], 'a whole number of bytes >= 0');
    }
  }
  return { collective: p.collective, ranks, size: p.size, root: rooted ? root : -1, peer: p.collective === 'one-to-one' ? peer : -1, ...(sizes ? { sizes } : {}) };
}

function checkDisjoint(parts: readonly Part[], numRanks: number): void {
  const seen = new Uint8Array(numRanks);
  for (const p of parts) {
    for (const r of p.ranks) {
      if (seen[r]) throw new InputError('parts', r, 'each rank in at most one part (sub-communicators are disjoint)');
      seen[r] = 1;
    }
  }
}

/** One FNV-style mixing step over a number (integers up to 2^53: low and high words both count). */
function mix(h: number, x: number): number {
  h = Math.imul(h ^ (x | 0), 0x01000193);
  return Math.imul(h ^ ((x / 4294967296) | 0), 0x01000193);
}
