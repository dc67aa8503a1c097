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
 * One run's per-op record: each op's hot program fields and its times side by side, 48 bytes an op
 * (12 int32 slots; the float64 slots overlay the same buffer). Columns put each field of an op on
 * its own cache line (and page): with 32,768 streams advancing in step, every first read of every
 * column missed (docs/performance.md, "Outside the rate update"); here one op's reads share one or
 * two lines. When the streams' lengths are near equal (collectives), records are stored step-major,
 * the k-th op of every stream side by side (record k × streams + s), so streams advancing in step
 * read consecutive records; otherwise in op order. Built per run from the columns (the columns stay
 * the program's interface; the records are the engines' working copy while a run lasts).
 */
export class OpRecords {
  /** Op `op` of stream s's int32 fields are at index(s, op) × 12 + REC_KIND .. REC_PRED. */
  readonly i32: Int32Array;
  /** The same buffer as float64: at index(s, op) × 6 + REC_BYTES .. REC_END. */
  readonly f64: Float64Array;
  /** Streams when step-major, 0 when in op order. */
  private readonly stride: number;
  private readonly opStart: Int32Array;

  constructor(p: FlowProgram) {
    const n = p.numOps;
    const S = p.numStreams;
    const opStart = (this.opStart = p.opStart);
    let longest = 0;
    for (let s = 0; s < S; s++) longest = Math.max(longest, opStart[s + 1] - opStart[s]);
    // Step-major pads every stream to the longest: only when that costs at most an eighth more.
    const stepMajor = S > 1 && S * longest <= n + (n >> 3);
    this.stride = stepMajor ? S : 0;
    const size = stepMajor ? S * longest : n;
    const buffer = new ArrayBuffer(size * 48);
    const i32 = (this.i32 = new Int32Array(buffer));
    const f64 = (this.f64 = new Float64Array(buffer));
    const { opKind, opPeer, opCount, opTag, opHint, opBytes } = p;
    for (let s = 0; s < S; s++) {
      for (let o = opStart[s]; o < opStart[s + 1]; o++) {
        const r = this.index(s, o);
        const a = r * 12;
        const b = r * 6;
        i32[a + REC_KIND] = opKind[o];
        i32[a + REC_PEER] = opPeer[o];
        i32[a + REC_COUNT] = opCount[o];
        i32[a + REC_TAG] = opTag[o];
        i32[a + REC_HINT] = opHint[o];
        i32[a + REC_PRED] = -1;
        f64[b + REC_BYTES] = opBytes[o];
        f64[b + REC_START] = NaN;
        f64[b + REC_END] = NaN;
      }
    }
  }

  /** The record of op `op`, which belongs to stream s. */
  index(s: number, op: number): number {
    return this.stride === 0 ? op : (op - this.opStart[s]) * this.stride + s;
  }
}

// OpRecords int32 slots: the program's opKind, opPeer, opCount, opTag, opHint, and the run's opPred.
export const REC_KIND = 0;
export const REC_PEER = 1;
export const REC_COUNT = 2;
export const REC_TAG = 3;
export const REC_HINT = 4;
export const REC_PRED = 5;
// OpRecords float64 slots (int32 slots 6..11): the program's opBytes, the run's start and end times.
export const REC_BYTES = 3;
export const REC_START = 4;
export const REC_END = 5;

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
    });
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

