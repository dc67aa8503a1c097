/**
 * The flow engine's input: per-rank streams of timed operations in columnar typed arrays, one row
 * per operation (no per-operation objects, so a 32,768-rank schedule of millions of operations fits).
 * A schedule from the collectives IR is lowered into this form by `lowerSchedule` (from-schedule.ts);
 * tests and users may also build one directly with `FlowProgramBuilder`.
 */
import { resized } from '../../util/typed-arrays.js';
import { InputError } from '../../util/errors.js';
import type { PortsRouteHint } from '../../routing/hints.js';
import { OpKind, OP_NAMES } from '../../collectives/types.js';
import type { NoiseModel } from './disturb.js';

/**
 * A program's operations use the schedule IR's op enumeration (collectives/types.ts `OpKind`, one
 * for the whole code base): send, recv, copy, reduce, barrier, pace, hwCollective. In a program,
 * Send posts a message to one or more ranks (one read, one flow or packet train per branch); Recv
 * waits for the matching message (source, tag, program order); Reduce and Copy cost γ per byte;
 * Barrier synchronises the streams that use its key; Pace sets the gap of the stream's following
 * sends; HwCollective is a combining-network collective over the streams that use its key;
 * Compute (workloads) keeps its stream busy for a duration.
 * A non-blocking Send or Recv (`opNonBlocking`, MPI_Isend/MPI_Irecv) lets its stream go on at once;
 * Wait blocks until every non-blocking op the stream posted has completed (MPI_Waitall, opPeer −1)
 * or until the one op `opPeer` has (MPI_Wait). Beyond program order, an op may wait for ops of
 * other streams of any rank (`deps`): a workload's dependency DAG (workload/lower.ts).
 */

/** Dependencies beyond program order: op o starts only after ops `on[start[o]] .. on[start[o+1])` completed. */
export interface OpDependencies {
  readonly start: Int32Array;
  readonly on: Int32Array;
}

/** Turnaround kind at a transit node (seed 001): in the switch, through memory, or via the in-switch reduce unit. */
export type Turnaround = 'switch' | 'memory' | 'reduce' | 'none';

/**
 * A route hint in topology node ids (as the schedule IR states them): through transit/turnaround
 * nodes in turn (with several destinations, replicated at the last one as one cut-through
 * transfer), or an explicit node path. `turnaround` says how each via node turns data around
 * (default: in the switch).
 */
export type FlowRouteHint =
  | { readonly kind: 'via'; readonly nodes: readonly number[]; readonly turnaround?: Turnaround }
  | { readonly kind: 'path'; readonly nodes: readonly number[] }
  /** An explicit path as out-port indices from the source (routing/hints.ts): shared by every rank. */
  | PortsRouteHint;

/** A program's columns, by name (the options of `new FlowProgram`); the last five are optional. */
export interface FlowProgramColumns {
  readonly numRanks: number;
  /** rank of each stream */
  readonly streamRank: Int32Array;
  /** stream index within its rank */
  readonly streamLocal: Int32Array;
  /** ops of stream s are opStart[s] .. opStart[s+1) */
  readonly opStart: Int32Array;
  readonly opKind: Uint8Array;
  /** Send: first index into dsts; Recv: source rank; Barrier/HwCollective: key; Wait: the op waited for, or -1 (all); Pace: unused. */
  readonly opPeer: Int32Array;
  /** Send: number of destinations. */
  readonly opCount: Int32Array;
  /** Bytes (Send, Recv, Reduce, Copy, HwCollective); gap in packet times (Pace); seconds (Compute). */
  readonly opBytes: Float64Array;
  readonly opTag: Int32Array;
  /** index into hints, or -1 */
  readonly opHint: Int32Array;
  readonly dsts: Int32Array;
  readonly hints: readonly FlowRouteHint[];
  /** Names of barrier/hwCollective keys, for messages. */
  readonly keyNames: readonly string[];
  /** Seconds each op's stream waits before starting it (a disturbance, disturb.ts), or null for none. */
  readonly opDelay?: Float64Array | null;
  /** The disturbance that produced `opDelay`, recorded in results. */
  readonly noise?: NoiseModel | null;
  /** Per op, 1 for a non-blocking Send or Recv (isend, irecv); null when the program has none. */
  readonly opNonBlocking?: Uint8Array | null;
  /** Dependencies beyond program order, or null for none. */
  readonly deps?: OpDependencies | null;
  /**
   * Per op, 1 for an op of a collective library's schedule (NCCL's or RCCL's, picked or named;
   * sim/library.ts): the library's latency, paid once up front, replaces the default α on its
   * messages (`FlowModel.libraryAlpha`); null when the program has none.
   */
  readonly opLibrary?: Uint8Array | null;
  /**
   * Per op, 1 for a blocking send its stream follows with a receive that does not pair with it
   * (MPI_Send, then MPI_Recv), where a send directly followed by a blocking receive is otherwise a
   * sendrecv's (`isSendrecvSend`; SMPI's software overheads tell them apart); null for none.
   */
  readonly opSeparateSend?: Uint8Array | null;
}

/**
 * Columns only: what a run's routes take (the 'linear' barrier's rank-to-rank latency) is the
 * engines' to answer (`StreamHost.routeLatency`), never stored here.
 */
export class FlowProgram implements FlowProgramColumns {
  readonly numRanks: number;
  readonly streamRank: Int32Array;
  readonly streamLocal: Int32Array;
  readonly opStart: Int32Array;
  readonly opKind: Uint8Array;
  readonly opPeer: Int32Array;
  readonly opCount: Int32Array;
  readonly opBytes: Float64Array;
  readonly opTag: Int32Array;
  readonly opHint: Int32Array;
  readonly dsts: Int32Array;
  readonly hints: readonly FlowRouteHint[];
  readonly keyNames: readonly string[];
  readonly opDelay: Float64Array | null;
  readonly noise: NoiseModel | null;
  readonly opNonBlocking: Uint8Array | null;
  readonly deps: OpDependencies | null;
  readonly opLibrary: Uint8Array | null;
  readonly opSeparateSend: Uint8Array | null;

  constructor(c: FlowProgramColumns) {
    this.numRanks = c.numRanks;
    this.streamRank = c.streamRank;
    this.streamLocal = c.streamLocal;
    this.opStart = c.opStart;
    this.opKind = c.opKind;
    this.opPeer = c.opPeer;
    this.opCount = c.opCount;
    this.opBytes = c.opBytes;
    this.opTag = c.opTag;
    this.opHint = c.opHint;
    this.dsts = c.dsts;
    this.hints = c.hints;
    this.keyNames = c.keyNames;
    this.opDelay = c.opDelay ?? null;
    this.noise = c.noise ?? null;
    this.opNonBlocking = c.opNonBlocking ?? null;
    this.deps = c.deps ?? null;
    this.opLibrary = c.opLibrary ?? null;
    this.opSeparateSend = c.opSeparateSend ?? null;
  }

  /** Whether blocking send `op` of stream `s` is directly followed by a blocking receive of its stream. */
  followedByBlockingRecv(s: number, op: number): boolean {
    const next = op + 1;
    return next < this.opStart[s + 1] && this.opKind[next] === OpKind.Recv && !(this.opNonBlocking !== null && this.opNonBlocking[next] === 1);
  }

  /** Whether blocking send `op` of stream `s` is a sendrecv's: a blocking receive follows it, and it is not marked separate (`opSeparateSend`). */
  isSendrecvSend(s: number, op: number): boolean {
    return this.followedByBlockingRecv(s, op) && !(this.opSeparateSend !== null && this.opSeparateSend[op] === 1);
  }

  /** This program with some columns replaced; the others are shared, not copied. */
  with(changes: Partial<FlowProgramColumns>): FlowProgram {
    return new FlowProgram({ ...this, ...changes });
  }

  get numStreams(): number {
    return this.streamRank.length;
  }

  get numOps(): number {
    return this.opKind.length;
  }
}

/**
 * Records are built and read back in tiles of TILE streams, their ops in step: the columns are read
 * in runs and the step-major records written in runs (stream by stream, every write of a record went
 * to another page; op by op in step, every column read did).
 */
const TILE = 64;

/** Streams from which a run's op table is stored as records, step-major (`OpTable`). */
export const OP_RECORD_STREAMS = 4096;

/**
 * Most bytes of records (2 GiB, 44.7 M ops): past it the table keeps columns, so that the records
 * never add more than this to a run's peak and the schedule limit's per-op cost (MAX_FLOW_OPS,
 * flow/collective-run.ts, about 120 bytes an op at 2^27 ops) stays what it says.
 */
export const OP_RECORD_MAX_BYTES = 2 ** 31;

/**
 * A run's view of its ops: each op's hot program fields (kind, peer, count, tag, hint, bytes) and
 * its times (start, end, predecessor), read and written through the accessors below by the op's
 * index `index(s, op)`. Programs of OP_RECORD_STREAMS streams or more, whose streams are near equal
 * in length (collectives), keep them as one 48-byte record per op, step-major: the k-th op of every
 * stream side by side (record k × streams + s). Their streams advance in step, so columns put each
 * field of each op on its own cache line and page, and every first read of every column missed
 * (docs/performance.md, "Outside the rate update"); records of one step are consecutive. Fewer
 * streams keep the program's columns: their ops stay in the caches, and building the records
 * (48 bytes an op of fresh memory, and the times copied back to columns after the run) cost the
 * 512-stream ring about 10 %. Results are the same either way (the same values, stored elsewhere).
 */
export class OpTable {
  /** Records: op k of stream s at (k × stride + s) × 12 int32 slots; empty in column mode. */
  private readonly i32: Int32Array;
  /** The same buffer as float64: slots (k × stride + s) × 6 + 3 .. 5. */
  private readonly f64: Float64Array;
  /** Streams when stored as records, 0 in column mode. */
  private readonly stride: number;
  /** Ops of the longest stream: the records' steps. */
  private readonly longest: number;
  private readonly opStart: Int32Array;
  private readonly program: FlowProgram;
  // Column mode: the program's columns (held here, one load less per read) and the run's times per op.
  private readonly kindCol: Uint8Array;
  private readonly peerCol: Int32Array;
  private readonly countCol: Int32Array;
  private readonly tagCol: Int32Array;
  private readonly hintCol: Int32Array;
  private readonly bytesCol: Float64Array;
  private readonly startCol: Float64Array;
  private readonly endCol: Float64Array;
  private readonly predCol: Int32Array;

  /** `recordStreams`, `recordMaxBytes`: when records are used (tests lower them to check both layouts). */
  constructor(p: FlowProgram, recordStreams = OP_RECORD_STREAMS, recordMaxBytes = OP_RECORD_MAX_BYTES) {
    this.program = p;
    this.kindCol = p.opKind;
    this.peerCol = p.opPeer;
    this.countCol = p.opCount;
    this.tagCol = p.opTag;
    this.hintCol = p.opHint;
    this.bytesCol = p.opBytes;
    const n = p.numOps;
    const S = p.numStreams;
    const opStart = (this.opStart = p.opStart);
    let longest = 0;
    for (let s = 0; s < S; s++) longest = Math.max(longest, opStart[s + 1] - opStart[s]);
    // Records pad every stream to the longest: only when that costs at most an eighth more.
    this.stride = S >= recordStreams && S * longest <= n + (n >> 3) && S * longest * 48 <= recordMaxBytes ? S : 0;
    const size = this.stride > 0 ? S * longest : 0;
    const buffer = new ArrayBuffer(size * 48);
    this.i32 = new Int32Array(buffer);
    this.f64 = new Float64Array(buffer);
    this.longest = longest;
    this.startCol = new Float64Array(this.stride > 0 ? 0 : n).fill(NaN);
    this.endCol = new Float64Array(this.stride > 0 ? 0 : n).fill(NaN);
    this.predCol = new Int32Array(this.stride > 0 ? 0 : n).fill(-1);
    if (this.stride === 0) return;
    this.copyRecords(null);
  }

  /** Whether the ops are stored as records (else the program's columns and the times' own). */
  get records(): boolean {
    return this.stride > 0;
  }

  /** The index of op `op`, which belongs to stream s, for the accessors. */
  index(s: number, op: number): number {
    return this.stride === 0 ? op : (op - this.opStart[s]) * this.stride + s;
  }

  kind(r: number): number {
    return this.stride === 0 ? this.kindCol[r] : this.i32[r * 12];
  }

  peer(r: number): number {
    return this.stride === 0 ? this.peerCol[r] : this.i32[r * 12 + 1];
  }

  count(r: number): number {
    return this.stride === 0 ? this.countCol[r] : this.i32[r * 12 + 2];
  }

  tag(r: number): number {
    return this.stride === 0 ? this.tagCol[r] : this.i32[r * 12 + 3];
  }

  hint(r: number): number {
    return this.stride === 0 ? this.hintCol[r] : this.i32[r * 12 + 4];
  }

  bytes(r: number): number {
    return this.stride === 0 ? this.bytesCol[r] : this.f64[r * 6 + 3];
  }

  start(r: number): number {
    return this.stride === 0 ? this.startCol[r] : this.f64[r * 6 + 4];
  }

  end(r: number): number {
    return this.stride === 0 ? this.endCol[r] : this.f64[r * 6 + 5];
  }

  setStart(r: number, t: number): void {
    if (this.stride === 0) this.startCol[r] = t;
    else this.f64[r * 6 + 4] = t;
  }

  /** Op r completed at t after waiting for op `pred` (-1: none). */
  setEnd(r: number, t: number, pred: number): void {
    if (this.stride === 0) {
      this.endCol[r] = t;
      this.predCol[r] = pred;
    } else {
      this.f64[r * 6 + 5] = t;
      this.i32[r * 12 + 5] = pred;
    }
  }

  /** The times as columns by op id (the results' layout): the columns themselves, or copied from the records. */
  times(): { start: Float64Array; end: Float64Array; pred: Int32Array } {
    if (this.stride === 0) return { start: this.startCol, end: this.endCol, pred: this.predCol };
    const n = this.program.numOps;
    const start = new Float64Array(n);
    const end = new Float64Array(n);
    const pred = new Int32Array(n);
    this.copyRecords({ start, end, pred });
    return { start, end, pred };
  }

  /**
   * Without `times`, fills the records from the program's columns (times unset, no predecessor);
   * with it, copies the records' times out by op id. Tiles of TILE streams, their ops in step, in
   * direct loops: the columns are read in runs and the step-major records written in runs (a closure
   * called per op cost more than the copy itself).
   */
  private copyRecords(times: { start: Float64Array; end: Float64Array; pred: Int32Array } | null): void {
    const { opStart, stride, longest, f64, i32 } = this;
    const { opKind, opPeer, opCount, opTag, opHint, opBytes } = this.program;
    const S = opStart.length - 1;
    for (let s0 = 0; s0 < S; s0 += TILE) {
      const s1 = Math.min(S, s0 + TILE);
      for (let k = 0; k < longest; k++) {
        for (let s = s0; s < s1; s++) {
          const o = opStart[s] + k;
          if (o >= opStart[s + 1]) continue;
          const r = k * stride + s;
          if (times !== null) {
            times.start[o] = f64[r * 6 + 4];
            times.end[o] = f64[r * 6 + 5];
            times.pred[o] = i32[r * 12 + 5];
            continue;
          }
          const i = r * 12;
          i32[i] = opKind[o];
          i32[i + 1] = opPeer[o];
          i32[i + 2] = opCount[o];
          i32[i + 3] = opTag[o];
          i32[i + 4] = opHint[o];
          i32[i + 5] = -1;
          const d = r * 6;
          f64[d + 3] = opBytes[o];
          f64[d + 4] = NaN;
          f64[d + 5] = NaN;
        }
      }
    }
  }
}

/** The first n entries: the column itself when full, else a copy (a built program owns its arrays). */
function fit<T extends Uint8Array | Int32Array | Float64Array>(col: T, n: number): T {
  return (col.length === n ? col : col.slice(0, n)) as T;
}

/** Growable columnar builder. Streams are written one at a time: beginStream, then ops. */
export class FlowProgramBuilder {
  private kind: Uint8Array;
  private peer: Int32Array;
  private count: Int32Array;
  private bytes: Float64Array;
  private tag: Int32Array;
  private hint: Int32Array;
  private nonBlocking: Uint8Array;
  private anyNonBlocking = false;
  private n = 0;
  private dstList = new Int32Array(1024);
  private nd = 0;
  private readonly streams: number[] = [];
  private readonly locals: number[] = [];
  private readonly starts: number[] = [];
  private readonly hintList: FlowRouteHint[] = [];
  private readonly hintIndex = new Map<string, number>();
  private readonly keys = new Map<string, number>();
  private readonly perRank: number[];
  private readonly depOp: number[] = [];
  private readonly depOn: number[] = [];
  /** Ranges [from, to] of ops marked as a collective library's (`markLibrary`), flattened. */
  private readonly libraryRanges: number[] = [];
  /** Ops marked by markSeparateSend. */
  private readonly separate: number[] = [];

  /** `expectedOps` sizes the columns once (a lowering knows its op count; growing by doubling costs 1.5× at the peak). */
  constructor(
    readonly numRanks: number,
    expectedOps = 1024,
  ) {
    if (!Number.isInteger(numRanks) || numRanks < 1) throw new InputError('schedule.ranks', numRanks, 'a positive integer');
    this.perRank = new Array<number>(numRanks).fill(0);
    const cap = Math.max(16, expectedOps);
    this.kind = new Uint8Array(cap);
    this.peer = new Int32Array(cap);
    this.count = new Int32Array(cap);
    this.bytes = new Float64Array(cap);
    this.tag = new Int32Array(cap);
    this.hint = new Int32Array(cap);
    this.nonBlocking = new Uint8Array(cap);
  }

  /** Starts the next stream of `rank`; `local` is its stream index within the rank (default: the next one). */
  beginStream(rank: number, local?: number): this {
    this.checkRank(rank, 'stream rank');
    this.streams.push(rank);
    this.locals.push(local ?? this.perRank[rank]);
    this.perRank[rank] = Math.max(this.perRank[rank], (local ?? this.perRank[rank]) + 1);
    this.starts.push(this.n);
    return this;
  }

  /** `hint`: a route hint (interned by value), or the id `addHint` returned. */
  send(to: number | readonly number[], bytes: number, tag = 0, hint?: FlowRouteHint | number): this {
    const first = this.nd;
    // One destination without a one-element array per send (millions of sends in a lowering).
    const n = typeof to === 'number' ? 1 : to.length;
    if (n === 0) throw new InputError('send.to', to, 'at least one destination rank');
    if (this.nd + n > this.dstList.length) this.dstList = resized(this.dstList, Math.max(2 * this.dstList.length, this.nd + n));
    for (let i = 0; i < n; i++) {
      const d = typeof to === 'number' ? to : to[i];
      this.checkRank(d, 'send.to');
      this.dstList[this.nd++] = d;
    }
    let h = -1;
    if (typeof hint === 'number') {
      if (!(Number.isInteger(hint) && hint >= -1 && hint < this.hintList.length)) throw new InputError('send.hint', hint, `a hint id from addHint (0 to ${this.hintList.length - 1}) or -1`);
      h = hint;
    } else if (hint) h = this.hintId(hint);
    return this.push(OpKind.Send, first, n, bytes, tag, h);
  }

  /**
   * Adds a route hint without interning it and returns its id for `send`. For a lowering whose
   * hints are already distinct (the schedule IR interns them): keying millions of hints by their
   * JSON text would dominate the lowering.
   */
  addHint(hint: FlowRouteHint): number {
    this.hintList.push(hint);
    return this.hintList.length - 1;
  }

  recv(from: number, bytes: number, tag = 0): this {
    this.checkRank(from, 'recv.from');
    return this.push(OpKind.Recv, from, 0, bytes, tag, -1);
  }

  /** A non-blocking send (MPI_Isend): the stream goes on; a later `waitall` waits for it. */
  isend(to: number, bytes: number, tag = 0, hint?: FlowRouteHint | number): this {
    this.send(to, bytes, tag, hint);
    return this.markNonBlocking();
  }

  /** A non-blocking receive (MPI_Irecv): posted now; a later `waitall` waits for its message. */
  irecv(from: number, bytes: number, tag = 0): this {
    this.recv(from, bytes, tag);
    return this.markNonBlocking();
  }

  /** MPI_Waitall: waits for every isend and irecv this stream posted. */
  waitall(): this {
    return this.push(OpKind.Wait, -1, 0, 0, 0, -1);
  }

  /** MPI_Wait: waits for one earlier isend or irecv of this stream, by its op id (`lastOp` after adding it). */
  wait(request: number): this {
    const first = this.starts[this.starts.length - 1];
    if (!(Number.isInteger(request) && request >= first && request < this.n && this.nonBlocking[request] === 1)) {
      throw new InputError('wait.request', request, 'the op id of an earlier isend or irecv of this stream');
    }
    return this.push(OpKind.Wait, request, 0, 0, 0, -1);
  }

  /** Marks the blocking send added last as separate: the receive after it is not its sendrecv's (`FlowProgram.opSeparateSend`). */
  markSeparateSend(): this {
    if (!(this.n > 0 && this.kind[this.n - 1] === OpKind.Send && this.nonBlocking[this.n - 1] === 0)) throw new InputError('separate send', this.n - 1, 'a blocking send added last');
    this.separate.push(this.n - 1);
    return this;
  }

  /** The id of the op added last (to name it in `wait` or `dependsOn`). */
  get lastOp(): number {
    return this.n - 1;
  }

  private markNonBlocking(): this {
    this.nonBlocking[this.n - 1] = 1;
    this.anyNonBlocking = true;
    return this;
  }

  reduce(bytes: number): this {
    return this.push(OpKind.Reduce, 0, 0, bytes, 0, -1);
  }

  copy(bytes: number): this {
    return this.push(OpKind.Copy, 0, 0, bytes, 0, -1);
  }

  /** A barrier among every stream that uses the same key (default: all streams with key "world"). */
  barrier(key = 'world'): this {
    return this.push(OpKind.Barrier, this.keyId(key), 0, 0, 0, -1);
  }

  pace(gap: number): this {
    if (!(gap >= 0 && Number.isFinite(gap))) throw new InputError('pace.gap', gap, 'a non-negative number of packet times');
    return this.push(OpKind.Pace, 0, 0, gap, 0, -1);
  }

  hwCollective(bytes: number, key = 'world'): this {
    return this.push(OpKind.HwCollective, this.keyId(key), 0, bytes, 0, -1);
  }

  /** Keeps its stream busy for `seconds` (a workload's compute or memory operation). */
  compute(seconds: number): this {
    if (!(seconds >= 0 && Number.isFinite(seconds))) throw new InputError('compute.seconds', seconds, 'a non-negative finite duration');
    return this.push(OpKind.Compute, 0, 0, seconds, 0, -1);
  }

  /** Op `op` starts only after op `on` (of any stream) has completed. */
  dependsOn(op: number, on: number): this {
    if (!(Number.isInteger(op) && op >= 0 && op < this.n && Number.isInteger(on) && on >= 0 && on < this.n)) throw new InputError('dependency', `${op} after ${on}`, `ops from 0 to ${this.n - 1}`);
    this.depOp.push(op);
    this.depOn.push(on);
    return this;
  }

  /** Marks ops `from` to the last added as a collective library's (`FlowProgram.opLibrary`). */
  markLibrary(from: number): this {
    if (!(Number.isInteger(from) && from >= 0 && from <= this.n)) throw new InputError('library ops', from, `an op id from 0 to ${this.n}`);
    if (from < this.n) this.libraryRanges.push(from, this.n - 1);
    return this;
  }

  build(): FlowProgram {
    const ns = this.streams.length;
    const opStart = new Int32Array(ns + 1);
    for (let s = 0; s < ns; s++) opStart[s] = this.starts[s];
    opStart[ns] = this.n;
    return new FlowProgram({
      numRanks: this.numRanks,
      streamRank: Int32Array.from(this.streams),
      streamLocal: Int32Array.from(this.locals),
      opStart,
      opKind: fit(this.kind, this.n),
      opPeer: fit(this.peer, this.n),
      opCount: fit(this.count, this.n),
      opBytes: fit(this.bytes, this.n),
      opTag: fit(this.tag, this.n),
      opHint: fit(this.hint, this.n),
      dsts: this.dstList.slice(0, this.nd),
      hints: this.hintList,
      keyNames: [...this.keys.keys()],
      opNonBlocking: this.anyNonBlocking ? fit(this.nonBlocking, this.n) : null,
      deps: this.buildDeps(),
      opLibrary: this.buildLibrary(),
      opSeparateSend: this.buildSeparate(),
    });
  }

  private buildSeparate(): Uint8Array | null {
    if (this.separate.length === 0) return null;
    const col = new Uint8Array(this.n);
    for (const op of this.separate) col[op] = 1;
    return col;
  }


  private buildLibrary(): Uint8Array | null {
    if (this.libraryRanges.length === 0) return null;
    const col = new Uint8Array(this.n);
    for (let i = 0; i < this.libraryRanges.length; i += 2) col.fill(1, this.libraryRanges[i], this.libraryRanges[i + 1] + 1);
    return col;
  }

  private buildDeps(): OpDependencies | null {
    if (this.depOp.length === 0) return null;
    const start = new Int32Array(this.n + 1);
    for (const o of this.depOp) start[o + 1]++;
    for (let o = 0; o < this.n; o++) start[o + 1] += start[o];
    const fill = start.slice(0, this.n);
    const on = new Int32Array(this.depOp.length);
    for (let i = 0; i < this.depOp.length; i++) on[fill[this.depOp[i]]++] = this.depOn[i];
    return { start, on };
  }

  private push(kind: OpKind, peer: number, count: number, bytes: number, tag: number, hint: number): this {
    if (this.streams.length === 0) throw new Error('FlowProgramBuilder: beginStream before adding operations');
    if (!(bytes >= 0 && Number.isFinite(bytes))) throw new InputError(`${OP_NAMES[kind]}.bytes`, bytes, 'a non-negative finite size');
    if (this.n === this.kind.length) {
      const m = this.n * 2;
      this.kind = resized(this.kind, m);
      this.peer = resized(this.peer, m);
      this.count = resized(this.count, m);
      this.bytes = resized(this.bytes, m);
      this.tag = resized(this.tag, m);
      this.hint = resized(this.hint, m);
      this.nonBlocking = resized(this.nonBlocking, m);
    }
    const i = this.n++;
    this.kind[i] = kind;
    this.peer[i] = peer;
    this.count[i] = count;
    this.bytes[i] = bytes;
    this.tag[i] = tag;
    this.hint[i] = hint;
    return this;
  }

  private checkRank(rank: number, field: string): void {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.numRanks) {
      throw new InputError(field, rank, `a rank from 0 to ${this.numRanks - 1}`);
    }
  }

  private hintId(hint: FlowRouteHint): number {
    const key = JSON.stringify(hint);
    let id = this.hintIndex.get(key);
    if (id === undefined) {
      id = this.hintList.length;
      this.hintList.push(hint);
      this.hintIndex.set(key, id);
    }
    return id;
  }

  private keyId(key: string): number {
    let id = this.keys.get(key);
    if (id === undefined) {
      id = this.keys.size;
      this.keys.set(key, id);
    }
    return id;
  }
}

