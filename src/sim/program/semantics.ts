/**
 * What a program means in time, written once and driven by both engines: the stream interpreter
 * (program order, α before a send is posted, γ costs, pacing), receive matching by (source,
 * destination, tag) in program order, the barrier and hwCollective (their participants and their
 * cost), the turnaround extra of a `via` hint, the point-to-point protocol, and when a send counts
 * as complete; non-blocking sends and receives (MPI_Isend, MPI_Irecv) and the waitall that completes
 * them. An engine only moves data: it posts the sends this module hands it, says when a
 * stream's sends have left its node, delivers arrived messages, and wakes streams at the times this
 * module asks for. Times are in the engine's own unit (seconds at flow level, cycles at packet
 * level): `duration` converts a model cost in seconds to that unit.
 */
import { InputError, UnrunnableError } from '../../util/errors.js';
import { OP_NAMES, OpKind } from '../../collectives/types.js';
import type { FlowModel } from './model.js';
import { OpTable, type FlowProgram, type FlowRouteHint } from './program.js';
import { MatchTable } from './match-table.js';
import { overheadSeconds } from './software-overheads.js';

/** What an engine does for the stream interpreter. */
export interface StreamHost {
  /** Starts moving the data of send `op` of stream `s` (α has elapsed). */
  postSend(s: number, op: number, now: number): void;
  /** Whether every send stream `s` posted has left its node (local completion). */
  sendsLeft(s: number): boolean;
  /** Calls `StreamRunner.wake(s, at)` at time `at`. */
  wakeAt(at: number, s: number): void;
  /**
   * True when the engine calls `sendsLeftNow` itself as a stream's last send leaves; false when it
   * polls `retryFences` instead (the runner then keeps the list of streams waiting).
   */
  readonly signalsSendsLeft: boolean;
  /**
   * Seconds from rank `src` to rank `dst` over the routes the engine uses (the 'linear' barrier's
   * zero-byte messages, timed without moving them): the engine answers it from its topology and
   * routing (program/route-latency.ts), asked only when a barrier is timed 'linear'.
   */
  routeLatency(srcRank: number, dstRank: number): number;
  /**
   * Ranks each program rank stands for in a barrier's P (a symmetry quotient runs one rank per orbit
   * of |H| ranks, flow/symmetry.ts); default 1.
   */
  readonly groupRankFactor?: number;
}

const READY = 0;
/** Waiting for a wake: α, a γ cost, a barrier's release or a rendezvous send's data leaving. */
const BUSY = 1;
const RECV = 2;
/** Waiting for its own sends to leave (before a barrier or the end of the stream). */
const FENCE = 3;
const BARRIER = 4;
const DONE = 5;
/** At a waitall (or the stream's end) with non-blocking operations not yet complete. */
const WAIT = 6;
/** Waiting for the op's dependencies on other streams (program.deps) to complete. */
const DEPS = 7;

/** Extra latency a route hint adds at its turnaround nodes (seed 001's embodiments), seconds. */
export function turnaroundSeconds(hint: FlowRouteHint | undefined, model: FlowModel): number {
  if (hint === undefined || hint.kind !== 'via') return 0;
  const per = { switch: model.turnaroundSwitch, memory: model.turnaroundMemory, reduce: model.turnaroundReduce, none: 0 }[hint.turnaround ?? 'switch'];
  return per * hint.nodes.length;
}

/**
 * The node where a send fans out (seed 001's turnaround multicast, 3rd and 6th embodiments), or -1:
 * a send to several ranks with a `via` hint goes once to the hint's last node, which copies it to
 * every destination in cut-through (the flow engine as one tree flow, the packet engine packet by
 * packet). The turnaround's cost is `turnaroundSeconds`, paid once where it turns.
 */
export function fanOutNode(hint: FlowRouteHint | undefined, destinations: number): number {
  return hint !== undefined && hint.kind === 'via' && destinations > 1 && hint.nodes.length > 0 ? hint.nodes[hint.nodes.length - 1] : -1;
}

/** The rate cap of a send after `pace(gap)`: one packet time in gap + 1 of its bottleneck. */
export function pacedRate(bottleneck: number, gap: number): number {
  return gap > 0 ? bottleneck / (gap + 1) : Infinity;
}

/**
 * Cost of a barrier or hwCollective among `ranks` participating ranks (the streams of one rank
 * meet locally first; the modelled network has one port per rank): ⌈log2 P⌉ stages of the barrier
 * network, or a combining tree up and down plus the largest contribution at its bandwidth. A
 * collective library's hw operation (`library`) pays libraryHwLevelLatency per level: its latency
 * is the library's, paid once up front, as its messages' α is.
 */
export function groupCostSeconds(kind: number, ranks: number, bytes: number, model: FlowModel, library = false): number {
  const levels = ranks > 1 ? Math.ceil(Math.log2(ranks)) : 0;
  if (kind === OpKind.Barrier) return model.barrierStageLatency * levels;
  return 2 * levels * (library ? model.libraryHwLevelLatency : model.hwLevelLatency) + bytes / model.hwBandwidth;
}

/** deliveryWaiter entries at or below this mark a non-blocking send of stream NB_SENDER − entry. */
const NB_SENDER = -2;

/** Whether a send of `bytes` waits for its matching receive to be posted (rendezvous). */
export function isRendezvous(bytes: number, model: FlowModel): boolean {
  return model.protocol === 'smpi' ? bytes >= model.asyncSmallThreshold : model.protocol === 'mpi' && bytes >= model.eagerThreshold;
}

/** The stream interpreter both engines drive. Per-op timing columns are in the engine's unit. */
export class StreamRunner {
  /**
   * The ops' hot fields and times (program.ts `OpTable`): the engines read an op's fields here, by
   * `ops.index(s, op)`, not from the program's columns, so with many streams in step its first read
   * misses one line, not six.
   */
  readonly ops: OpTable;
  private timing: { start: Float64Array; end: Float64Array; pred: Int32Array } | null = null;
  readonly streamFinish: Float64Array;
  /** Per stream, the gap (in packet times) set by its last pace op. */
  readonly gap: Float64Array;
  private readonly pc: Int32Array;
  private readonly state: Uint8Array;
  private readonly lastOp: Int32Array;
  private readonly resumePred: Int32Array;
  private readonly alpha: number;
  private readonly libraryAlpha: number;
  /** Whether the model sets any of SMPI's software overheads (model.sendOverhead, isendOverhead, recvOverhead). */
  private readonly overheads: boolean;
  // Barrier and hwCollective keys: streams expected, ranks taking part, arrivals so far.
  private readonly keyStreams: Int32Array;
  private readonly keyRanks: Int32Array;
  private readonly keyArrived: Int32Array;
  private readonly keyWaiting: number[][];
  // Per stream, when it arrived at its current barrier (barrier 'linear').
  private readonly arrivedAt: Float64Array;
  // Matching: dense tag index and the (source, destination, tag) FIFOs.
  private readonly tagIndex = new Map<number, number>();
  private readonly nTags: number;
  private lastTag = NaN;
  private lastTagIndex = 0;
  private readonly matches: MatchTable;
  /**
   * With one stream per rank and no non-blocking operation, at most one receive waits per rank (its
   * stream's, blocked in it): per stream the match key it waits on (-1: none), and per rank its
   * stream, take the match table's waiting lists' place. The same matches, without a table insert,
   * lookup and removal per message (at 32,768 ranks each one missed the cache); null otherwise.
   */
  private readonly blockedKey: Float64Array | null = null;
  private readonly streamOfRank: Int32Array | null = null;
  // Protocol mpi: sends and receives seen per match key, rendezvous senders waiting per key, and
  // per stream the sequence number its waiting send has on its key (-1: none) and whether a
  // rendezvous send waits for its data to leave.
  private readonly sendSeq = new Map<number, number>();
  private readonly recvSeq = new Map<number, number>();
  private readonly rdvWait = new Map<number, number[]>();
  // Protocol smpi: detached sends whose receive is not posted yet, per match key, as (stream, op, sequence) triples.
  private readonly detachedWait = new Map<number, number[]>();
  private readonly rdvSeq: Int32Array;
  private readonly draining: Uint8Array;
  // Per stream, the receive op already posted while its stream blocked at the send before it (-1: none).
  private readonly prepostedRecv: Int32Array;
  // Protocol smpi: per send op, the stream blocked until its message is delivered (-1: none); null otherwise.
  private readonly deliveryWaiter: Int32Array | null;
  private readonly fenced: number[] = [];
  private done = 0;
  // Disturbance delays in the engine's unit (null: none), and per stream the op whose delay it is serving or has served.
  private readonly delay: Float64Array | null;
  private readonly delayedOp: Int32Array;
  private readonly delaying: Uint8Array;
  // Non-blocking operations: per stream, how many are not complete yet, the last one to complete (the
  // waitall's predecessor, -1: none), and (protocol mpi) whether a rendezvous isend was posted, so
  // the waitall also waits for the stream's data to leave.
  private readonly nbPending: Int32Array;
  private readonly nbLast: Int32Array;
  private readonly nbDrain: Uint8Array;
  // Dependencies (program.deps, null when none): per op the number not yet completed, the ops that
  // wait on each op (CSR), each op's stream, and per stream whether its wake is a dependency release.
  private readonly depsLeft: Int32Array | null = null;
  private readonly dependentStart: Int32Array | null = null;
  private readonly dependents: Int32Array | null = null;
  private readonly opStream: Int32Array | null = null;
  private readonly released: Uint8Array;

  constructor(
    readonly program: FlowProgram,
    readonly model: FlowModel,
    private readonly host: StreamHost,
    /** Converts a cost in seconds to the engine's time unit. */
    readonly duration: (seconds: number) => number,
  ) {
    const S = program.numStreams;
    const nOps = program.numOps;
    this.ops = new OpTable(program);
    this.streamFinish = new Float64Array(S);
    this.gap = new Float64Array(S);
    this.pc = program.opStart.slice(0, S);
    this.state = new Uint8Array(S);
    this.lastOp = new Int32Array(S).fill(-1);
    this.resumePred = new Int32Array(S).fill(-1);
    this.rdvSeq = new Int32Array(S).fill(-1);
    this.draining = new Uint8Array(S);
    this.prepostedRecv = new Int32Array(S).fill(-1);
    this.deliveryWaiter = model.protocol === 'smpi' ? new Int32Array(nOps).fill(-1) : null;
    this.alpha = duration(model.alpha);
    this.libraryAlpha = duration(model.libraryAlpha);
    this.overheads = model.sendOverhead !== null || model.isendOverhead !== null || model.recvOverhead !== null;
    this.delay = program.opDelay ? program.opDelay.map(duration) : null;
    this.delayedOp = new Int32Array(S).fill(-1);
    this.delaying = new Uint8Array(S);
    this.nbPending = new Int32Array(S);
    this.nbLast = new Int32Array(S).fill(-1);
    this.nbDrain = new Uint8Array(S);
    this.released = new Uint8Array(S);
    const deps = program.deps;
    if (deps !== null) {
      this.depsLeft = new Int32Array(nOps);
      const start = new Int32Array(nOps + 1);
      for (let o = 0; o < nOps; o++) {
        this.depsLeft[o] = deps.start[o + 1] - deps.start[o];
        for (let i = deps.start[o]; i < deps.start[o + 1]; i++) start[deps.on[i] + 1]++;
      }
      for (let o = 0; o < nOps; o++) start[o + 1] += start[o];
      const fill = start.slice(0, nOps);
      this.dependents = new Int32Array(start[nOps]);
      for (let o = 0; o < nOps; o++) for (let i = deps.start[o]; i < deps.start[o + 1]; i++) this.dependents[fill[deps.on[i]]++] = o;
      this.dependentStart = start;
      this.opStream = new Int32Array(nOps);
      for (let st = 0; st < S; st++) this.opStream.fill(st, program.opStart[st], program.opStart[st + 1]);
    }
    const nKeys = program.keyNames.length;
    this.keyStreams = new Int32Array(nKeys);
    this.keyRanks = new Int32Array(nKeys);
    this.keyArrived = new Int32Array(nKeys);
    this.keyWaiting = Array.from({ length: nKeys }, () => []);
    this.arrivedAt = new Float64Array(S);
    const { opKind, opPeer, opTag } = program;
    const seen = new Set<number>();
    const rankSeen = new Set<number>();
    for (let s = 0; s < S && nKeys > 0; s++) {
      seen.clear();
      for (let o = program.opStart[s]; o < program.opStart[s + 1]; o++) if (opKind[o] === OpKind.Barrier || opKind[o] === OpKind.HwCollective) seen.add(opPeer[o]);
      for (const k of seen) {
        this.keyStreams[k]++;
        const rk = k * program.numRanks + program.streamRank[s];
        if (!rankSeen.has(rk)) {
          rankSeen.add(rk);
          this.keyRanks[k]++;
        }
      }
    }
    if (host.groupRankFactor !== undefined) for (let k = 0; k < nKeys; k++) this.keyRanks[k] *= host.groupRankFactor;
    // Collectives use few tags, mostly in runs: skip the map while the tag repeats.
    let runTag = NaN;
    for (let o = 0; o < nOps; o++) {
      if ((opKind[o] !== OpKind.Send && opKind[o] !== OpKind.Recv) || opTag[o] === runTag) continue;
      runTag = opTag[o];
      if (!this.tagIndex.has(runTag)) this.tagIndex.set(runTag, this.tagIndex.size);
    }
    this.nTags = Math.max(1, this.tagIndex.size);
    this.matches = new MatchTable();
    if (program.opNonBlocking === null && S === program.numRanks) {
      const streamOfRank = new Int32Array(S).fill(-1);
      let sole = true;
      for (let st = 0; st < S && sole; st++) {
        const rank = program.streamRank[st];
        if (streamOfRank[rank] >= 0) sole = false;
        streamOfRank[rank] = st;
      }
      if (sole) {
        this.streamOfRank = streamOfRank;
        this.blockedKey = new Float64Array(S).fill(-1);
      }
    }
  }

  /** Each op's start time, in the engine's unit (NaN: never started); read after the run. */
  get opStartT(): Float64Array {
    return this.times().start;
  }

  get opEndT(): Float64Array {
    return this.times().end;
  }

  /** The op each op waited for last (the critical path's links), or -1. */
  get opPred(): Int32Array {
    return this.times().pred;
  }

  /** The times as columns by op id, taken once after the run (the results' layout). */
  private times(): { start: Float64Array; end: Float64Array; pred: Int32Array } {
    if (this.timing === null) this.timing = this.ops.times();
    return this.timing;
  }

  /** Participating ranks of the group of barrier/hwCollective op `op` (P in its cost). */
  groupRanks(op: number): number {
    return this.keyRanks[this.program.opPeer[op]];
  }

  /** Runs every stream from the start. */
  start(now: number): void {
    for (let s = 0; s < this.program.numStreams; s++) this.run(s, now);
  }

  get finished(): boolean {
    return this.done === this.program.numStreams;
  }

  /** Operations completed so far (progress reports). */
  opsDone(): number {
    let n = 0;
    for (let s = 0; s < this.program.numStreams; s++) n += this.pc[s] - this.program.opStart[s];
    return n;
  }

  /** A wake the runner asked for: α ended (post the send), a cost ended, or a barrier released. */
  wake(s: number, now: number): void {
    if (this.released[s]) {
      this.released[s] = 0;
      this.state[s] = READY;
      this.run(s, now);
      return;
    }
    if (this.delaying[s]) {
      this.delaying[s] = 0;
      this.state[s] = READY;
      this.run(s, now);
      return;
    }
    const op = this.pc[s];
    if (this.ops.kind(this.ops.index(s, op)) === OpKind.Send) {
      if (this.isNonBlocking(op)) this.postNonBlocking(s, op, now);
      else if (!this.postOrWait(s, op, now)) return;
    } else this.complete(s, op, now, this.resumePred[s]);
    this.state[s] = READY;
    this.run(s, now);
  }

  /** The message of send op `op` from `src` to `dst` with `tag` has arrived at `now`. */
  deliver(src: number, dst: number, tag: number, op: number, now: number): void {
    const key = this.matchKey(src, dst, tag);
    let s: number;
    let waitOp = -1;
    if (this.blockedKey !== null) {
      s = this.streamOfRank![dst];
      if (this.blockedKey[s] === key) this.blockedKey[s] = -1;
      else s = -1;
    } else {
      s = this.matches.takeWaiting(key);
      waitOp = this.matches.waitOp;
    }
    if (s < 0) this.matches.addArrival(key, now, op);
    else if (waitOp >= 0) this.nonBlockingDone(s, waitOp, now, op);
    else if (this.finishRecv(s, this.pc[s], now, op)) {
      this.state[s] = READY;
      this.run(s, now);
    }
    const sender = this.deliveryWaiter === null ? -1 : this.deliveryWaiter[op];
    if (sender >= 0) {
      this.deliveryWaiter![op] = -1;
      this.state[sender] = READY;
      this.complete(sender, op, now, this.resumePred[sender]);
      this.run(sender, now);
    } else if (sender <= NB_SENDER) {
      // A non-blocking send that completes on delivery (protocol smpi).
      this.deliveryWaiter![op] = -1;
      this.nonBlockingDone(NB_SENDER - sender, op, now, this.lastOp[NB_SENDER - sender]);
    }
  }

  /**
   * The engine says stream `s` has no send left in its node: a fenced stream goes on, and a
   * rendezvous send whose data has all left completes.
   */
  sendsLeftNow(s: number, now: number): void {
    if (this.draining[s]) {
      this.draining[s] = 0;
      this.complete(s, this.pc[s], now, this.resumePred[s]);
    } else if (this.state[s] !== FENCE) return;
    this.state[s] = READY;
    this.run(s, now);
  }

  /** Re-checks every fenced stream (for an engine that polls its NICs rather than signals). */
  retryFences(now: number): void {
    if (this.fenced.length === 0) return;
    const waiting = this.fenced.splice(0);
    for (const s of waiting) {
      if (this.host.sendsLeft(s)) this.sendsLeftNow(s, now);
      else this.fenced.push(s);
    }
  }

  /** Whether some stream waits for its sends to leave. */
  get hasFences(): boolean {
    return this.fenced.length > 0;
  }

  /** Throws the deadlock or unreceived-message error a run that stopped early must report. */
  checkComplete(): void {
    const p = this.program;
    for (let s = 0; s < p.numStreams; s++) {
      if (this.state[s] === DONE) continue;
      const op = this.pc[s];
      const k = p.opPeer[op];
      const what =
        this.state[s] === DEPS
          ? `waits for ${this.depsLeft![op]} dependencies that never completed`
          : this.state[s] === RECV
          ? `recv from rank ${p.opPeer[op]} tag ${p.opTag[op]} never matched`
          : this.state[s] === BARRIER
            ? `${OP_NAMES[p.opKind[op]]} "${p.keyNames[k]}" never completed (${this.keyArrived[k]} of ${this.keyStreams[k]} streams arrived)`
            : this.rdvSeq[s] >= 0
              ? `rendezvous send to rank ${p.dsts[p.opPeer[op]]} tag ${p.opTag[op]} never matched by a receive`
              : this.state[s] === WAIT
                ? `waitall: ${this.nbPending[s]} non-blocking send(s) or receive(s) never completed`
                : 'stream never finished';
      throw new UnrunnableError('schedule', `deadlock at rank ${p.streamRank[s]} stream ${p.streamLocal[s]} op ${op - p.opStart[s]}`, `a schedule whose every operation completes (${what})`);
    }
    const unreceived = this.matches.firstUnreceived();
    if (unreceived >= 0) {
      const pair = Math.floor(unreceived / this.nTags);
      const R = p.numRanks;
      throw new InputError('schedule', `message from rank ${Math.floor(pair / R)} to rank ${pair % R} never received`, 'a schedule whose every message is received');
    }
  }

  /**
   * A zero-byte send to the sender's own rank signals between its streams (an MSCCL thread-block
   * dependency, a flag in the GPU's memory): it is not a network message and costs no α.
   */
  private isLocalSignal(s: number, op: number): boolean {
    const ops = this.ops;
    const r = ops.index(s, op);
    if (ops.bytes(r) !== 0 || ops.count(r) !== 1) return false;
    const p = this.program;
    return p.dsts[ops.peer(r)] === p.streamRank[s];
  }

  /** Runs stream s until it blocks. */
  run(s: number, now: number): void {
    const p = this.program;
    const end = p.opStart[s + 1];
    const ops = this.ops;
    while (this.state[s] === READY) {
      const op = this.pc[s];
      if (op === end) {
        // The end of a stream waits for its non-blocking operations, as a waitall.
        if (this.nbPending[s] > 0) {
          this.state[s] = WAIT;
          return;
        }
        if (!this.host.sendsLeft(s)) {
          this.fence(s);
          return;
        }
        this.state[s] = DONE;
        this.streamFinish[s] = now;
        this.done++;
        return;
      }
      if (this.depsLeft !== null && this.depsLeft[op] > 0) {
        // Released by the last of its dependencies to complete (complete → release).
        this.state[s] = DEPS;
        return;
      }
      const r = ops.index(s, op);
      if (Number.isNaN(ops.start(r))) ops.setStart(r, now);
      if (this.delay !== null && this.delay[op] > 0 && this.delayedOp[s] !== op) {
        // A disturbance: the stream is away (skewed start, jitter, OS detour) before it starts the op.
        this.delayedOp[s] = op;
        this.delaying[s] = 1;
        this.state[s] = BUSY;
        this.host.wakeAt(now + this.delay[op], s);
        return;
      }
      const kind = ops.kind(r);
      switch (kind) {
        case OpKind.Send: {
          // A collective library's message pays its own α (its latency up front replaces the default).
          let alpha = p.opLibrary !== null && p.opLibrary[op] === 1 ? this.libraryAlpha : this.alpha;
          if (this.overheads) alpha += this.sendOverhead(s, op);
          if (alpha > 0 && !this.isLocalSignal(s, op)) {
            this.state[s] = BUSY;
            this.host.wakeAt(now + alpha, s);
            return;
          }
          if (this.isNonBlocking(op)) this.postNonBlocking(s, op, now);
          else if (!this.postOrWait(s, op, now)) return;
          break;
        }
        case OpKind.Recv: {
          const key = this.matchKey(ops.peer(r), p.streamRank[s], ops.tag(r));
          const preposted = this.prepostedRecv[s] === op;
          if (preposted) this.prepostedRecv[s] = -1;
          else this.releaseRendezvous(key, now);
          if (this.isNonBlocking(op)) {
            // Posted; the stream goes on, and the message completes it whenever it arrives.
            this.nbPending[s]++;
            this.pc[s]++;
            if (this.matches.takeArrival(key)) this.nonBlockingDone(s, op, now, this.matches.op);
            else this.matches.addWaiting(key, s, op);
            break;
          }
          if (this.matches.takeArrival(key)) {
            // A sendrecv's receive, posted with its send, sleeps from its message's arrival (SMPI's waitall).
            const from = preposted ? this.matches.time : now;
            if (!this.finishRecv(s, op, now, this.matches.time >= ops.start(r) ? this.matches.op : this.lastOp[s], from)) return;
            break;
          }
          if (this.blockedKey !== null) this.blockedKey[s] = key;
          else this.matches.addWaiting(key, s);
          this.state[s] = RECV;
          return;
        }
        case OpKind.Reduce:
        case OpKind.Copy:
        case OpKind.Compute: {
          // Local work keeps the stream busy: γ per byte for a reduction or copy, a compute op's own seconds.
          const bytes = ops.bytes(r);
          const cost = this.duration(kind === OpKind.Compute ? bytes : bytes * (kind === OpKind.Reduce ? this.model.gammaReduce : this.model.gammaCopy));
          if (cost > 0) {
            this.state[s] = BUSY;
            this.resumePred[s] = this.lastOp[s];
            this.host.wakeAt(now + cost, s);
            return;
          }
          this.complete(s, op, now, this.lastOp[s]);
          break;
        }
        case OpKind.Pace:
          this.gap[s] = ops.bytes(r);
          this.complete(s, op, now, this.lastOp[s]);
          break;
        case OpKind.Barrier:
        case OpKind.HwCollective:
          // A stream first waits for its own sends to leave (local completion), then arrives.
          if (!this.host.sendsLeft(s)) {
            this.fence(s);
            return;
          }
          this.arrive(s, op, now);
          return;
        case OpKind.Wait: {
          const target = ops.peer(r);
          if (target >= 0) {
            // MPI_Wait: one request.
            if (Number.isNaN(ops.end(ops.index(s, target)))) {
              this.state[s] = WAIT;
              return;
            }
            if (this.overheads && this.sleepAfterWait(s, op, r, now, target)) return;
            this.complete(s, op, now, target);
            break;
          }
          if (this.nbPending[s] > 0) {
            this.state[s] = WAIT;
            return;
          }
          if (this.nbDrain[s] && !this.host.sendsLeft(s)) {
            this.fence(s);
            return;
          }
          this.nbDrain[s] = 0;
          const pred = this.nbLast[s] >= 0 ? this.nbLast[s] : this.lastOp[s];
          this.nbLast[s] = -1;
          if (this.overheads && this.sleepAfterWait(s, op, r, now, pred)) return;
          this.complete(s, op, now, pred);
          break;
        }
        default:
          throw new Error(`unknown operation kind ${kind}`);
      }
    }
  }

  /**
   * A send of stream s may post after α: at once (eager, or below the threshold under `mpi`), or
   * under rendezvous when its matching receive is posted (the k-th send on a (source, destination,
   * tag) key matches the k-th receive, as MPI's non-overtaking rule). A rendezvous send then blocks
   * its stream until its data has left. Returns whether the send completed now.
   */
  private postOrWait(s: number, op: number, now: number): boolean {
    const p = this.program;
    let rendezvous = false;
    if (this.model.protocol !== 'eager') {
      const ops = this.ops;
      const r = ops.index(s, op);
      const count = ops.count(r);
      for (let i = 0; i < count; i++) {
        const key = this.matchKey(p.streamRank[s], p.dsts[ops.peer(r) + i], ops.tag(r));
        const seq = this.rdvSeq[s] >= 0 ? this.rdvSeq[s] : (this.sendSeq.get(key) ?? 0);
        if (this.rdvSeq[s] < 0) this.sendSeq.set(key, seq + 1);
        if (count === 1 && isRendezvous(ops.bytes(r), this.model)) {
          rendezvous = true;
          if ((this.recvSeq.get(key) ?? 0) <= seq) {
            if (this.deliveryWaiter !== null && this.isDetached(op)) {
              // SMPI: the stream goes on; the data moves once the receive is posted (releaseRendezvous).
              const pending = this.detachedWait.get(key);
              if (pending) pending.push(s, op, seq);
              else this.detachedWait.set(key, [s, op, seq]);
              this.complete(s, op, now, this.lastOp[s]);
              return true;
            }
            // Wait for the receive: releaseRendezvous wakes us when it is posted.
            this.state[s] = BUSY;
            this.rdvSeq[s] = seq;
            const list = this.rdvWait.get(key);
            if (list) list.push(s);
            else this.rdvWait.set(key, [s]);
            this.prepostFollowingRecv(s, op, now);
            return false;
          }
        }
      }
      this.rdvSeq[s] = -1;
    }
    this.host.postSend(s, op, now);
    if (this.deliveryWaiter !== null && p.opCount[op] === 1 && !this.isDetached(op)) {
      // SMPI: the send (and a sendrecv's receive after it) waits for its message to be delivered,
      // an eager one (below smpi/async-small-thresh) too.
      this.state[s] = BUSY;
      this.deliveryWaiter[op] = s;
      this.resumePred[s] = this.lastOp[s];
      this.prepostFollowingRecv(s, op, now);
      return false;
    }
    if (rendezvous && this.deliveryWaiter === null && !this.host.sendsLeft(s)) {
      this.state[s] = BUSY;
      this.draining[s] = 1;
      this.resumePred[s] = this.lastOp[s];
      if (!this.host.signalsSendsLeft) this.fenced.push(s);
      this.prepostFollowingRecv(s, op, now);
      return false;
    }
    this.complete(s, op, now, this.lastOp[s]);
    return true;
  }

  private isNonBlocking(op: number): boolean {
    return this.program.opNonBlocking !== null && this.program.opNonBlocking[op] === 1;
  }

  /**
   * An isend after α: the stream goes on at once. Under rendezvous its data waits for the matching
   * receive (the same sequence rule as a blocking send; releaseRendezvous posts it), then it
   * completes as a blocking send would: protocol smpi at delivery unless detached (below the
   * threshold), protocol mpi once posted with the waitall waiting for the data to leave, eager at once.
   */
  private postNonBlocking(s: number, op: number, now: number): void {
    const p = this.program;
    this.nbPending[s]++;
    this.pc[s]++;
    if (this.model.protocol !== 'eager') {
      const key = this.matchKey(p.streamRank[s], p.dsts[p.opPeer[op]], p.opTag[op]);
      const seq = this.sendSeq.get(key) ?? 0;
      this.sendSeq.set(key, seq + 1);
      if (isRendezvous(p.opBytes[op], this.model)) {
        if (this.model.protocol === 'mpi') this.nbDrain[s] = 1;
        if ((this.recvSeq.get(key) ?? 0) <= seq) {
          const pending = this.detachedWait.get(key);
          if (pending) pending.push(s, op, seq);
          else this.detachedWait.set(key, [s, op, seq]);
          if (this.deliveryWaiter !== null && p.opBytes[op] < this.model.eagerThreshold) this.nonBlockingDone(s, op, now, this.lastOp[s]);
          return;
        }
      }
    }
    this.host.postSend(s, op, now);
    this.nonBlockingPosted(s, op, now);
  }

  /** An isend's data started moving: it completes now, or on delivery (protocol smpi, not detached). */
  private nonBlockingPosted(s: number, op: number, now: number): void {
    if (this.deliveryWaiter !== null && this.program.opBytes[op] >= this.model.eagerThreshold) this.deliveryWaiter[op] = NB_SENDER - s;
    // (A detached isend held for its receive completed when it was issued.)
    else if (Number.isNaN(this.ops.end(this.ops.index(s, op)))) this.nonBlockingDone(s, op, now, this.lastOp[s]);
  }

  /** Non-blocking op `op` of stream `s` completed at `now`; a stream at its waitall may go on. */
  private nonBlockingDone(s: number, op: number, now: number, pred: number): void {
    this.ops.setEnd(this.ops.index(s, op), now, pred);
    this.nbLast[s] = op;
    // A stream at a wait re-checks it (a waitall needs all of them, a wait its one request).
    this.nbPending[s]--;
    if (this.state[s] === WAIT) {
      this.state[s] = READY;
      this.run(s, now);
    }
  }

  /**
   * Protocol smpi: every send below the threshold is detached, a sendrecv's included (SMPI 3.32's
   * smpi/send-is-detached-thresh: Request::start detaches any non-synchronous send below it, and
   * waitall/waitany return a detached send at once, so MPI_Sendrecv ends with its receive; measured
   * under smpirun, test/sim/program/semantics.test.ts).
   */
  private isDetached(op: number): boolean {
    return this.program.opBytes[op] < this.model.eagerThreshold;
  }

  /**
   * A send directly followed by a receive in one stream is a sendrecv (MPI_Sendrecv posts both):
   * while the send blocks under rendezvous, the receive counts as posted, so two ranks exchanging
   * large messages do not wait on each other forever. Its arrival still completes it in program order.
   */
  private prepostFollowingRecv(s: number, op: number, now: number): void {
    const p = this.program;
    const next = op + 1;
    if (!p.followedByBlockingRecv(s, op) || this.prepostedRecv[s] === next) return;
    this.prepostedRecv[s] = next;
    this.releaseRendezvous(this.matchKey(p.opPeer[next], p.streamRank[s], p.opTag[next]), now);
  }

  /**
   * SMPI's sleep before send `op` (program/software-overheads.ts), in the engine's unit: `ois` before
   * an isend or a sendrecv's send (isend_init), `os` before a detached blocking send, none before a
   * blocking send at or above the threshold.
   */
  private sendOverhead(s: number, op: number): number {
    const bytes = this.program.opBytes[op];
    const m = this.model;
    if (this.isNonBlocking(op) || this.program.isSendrecvSend(s, op)) return this.duration(overheadSeconds(m.isendOverhead, bytes));
    return this.isDetached(op) ? this.duration(overheadSeconds(m.sendOverhead, bytes)) : 0;
  }

  /** SMPI's sleep after receive `op` completes (`or`, only for a message a detached send sent), in the engine's unit. */
  private recvOverhead(op: number): number {
    return this.isDetached(op) ? this.duration(overheadSeconds(this.model.recvOverhead, this.program.opBytes[op])) : 0;
  }

  /**
   * Blocking receive `op` of stream `s` has its message at `now`: it completes, or (SMPI's `or`)
   * its stream sleeps until `from` + the overhead and completes it on waking. `from` is the
   * message's arrival for a sendrecv's receive, whose sleep in SMPI's waitall overlaps the wait for
   * its send's delivery. Returns whether it completed now.
   */
  private finishRecv(s: number, op: number, now: number, pred: number, from = now): boolean {
    const sleep = this.overheads ? this.recvOverhead(op) : 0;
    if (!(from + sleep > now)) {
      this.complete(s, op, now, pred);
      return true;
    }
    this.state[s] = BUSY;
    this.resumePred[s] = pred;
    this.host.wakeAt(from + sleep, s);
    return false;
  }

  /**
   * A wait (op `op`, row `r`) whose requests have all completed: under SMPI's `or` each received
   * message from a detached send costs its sleep, one after another in completion order from the
   * time the stream reached the wait (waitall is waitany repeated; MPI_Wait its one request). If
   * that ends after `now`, the stream sleeps until then (completing the wait on waking) and this
   * returns true.
   */
  private sleepAfterWait(s: number, op: number, r: number, now: number, pred: number): boolean {
    const p = this.program;
    const ops = this.ops;
    const target = ops.peer(r);
    const received: number[] = [];
    if (target >= 0) {
      if (p.opKind[target] === OpKind.Recv) received.push(target);
    } else {
      // The requests since the previous waitall, less those an MPI_Wait took on the way.
      const waited = new Set<number>();
      for (let o = op - 1; o >= p.opStart[s] && !(p.opKind[o] === OpKind.Wait && p.opPeer[o] < 0); o--) {
        if (p.opKind[o] === OpKind.Wait) waited.add(p.opPeer[o]);
        else if (p.opKind[o] === OpKind.Recv && this.isNonBlocking(o) && !waited.has(o)) received.push(o);
      }
    }
    const endOf = (o: number): number => ops.end(ops.index(s, o));
    received.sort((a, b) => endOf(a) - endOf(b) || a - b);
    let until = ops.start(r);
    for (const o of received) {
      const sleep = this.recvOverhead(o);
      if (sleep > 0) until = Math.max(until, endOf(o)) + sleep;
    }
    if (!(until > now)) return false;
    this.state[s] = BUSY;
    this.resumePred[s] = pred;
    this.host.wakeAt(until, s);
    return true;
  }

  /** A receive on `key` is posted (protocol mpi): the rendezvous send it matches may start. */
  private releaseRendezvous(key: number, now: number): void {
    if (this.model.protocol === 'eager') return;
    const posted = (this.recvSeq.get(key) ?? 0) + 1;
    this.recvSeq.set(key, posted);
    const pending = this.detachedWait.get(key);
    if (pending && pending[2] < posted) {
      // Sends on one key are matched in order, so the oldest detached send is the one this receive takes.
      const [s, op] = pending.splice(0, 3);
      if (pending.length === 0) this.detachedWait.delete(key);
      this.host.postSend(s, op, now);
      if (this.isNonBlocking(op)) this.nonBlockingPosted(s, op, now);
      return;
    }
    const list = this.rdvWait.get(key);
    if (!list) return;
    for (let i = 0; i < list.length; i++) {
      const s = list[i];
      if (this.rdvSeq[s] < posted) {
        list.splice(i, 1);
        if (list.length === 0) this.rdvWait.delete(key);
        this.host.wakeAt(now, s);
        return;
      }
    }
  }

  private fence(s: number): void {
    this.state[s] = FENCE;
    if (!this.host.signalsSendsLeft) this.fenced.push(s);
  }

  private arrive(s: number, op: number, now: number): void {
    const p = this.program;
    const k = p.opPeer[op];
    this.keyArrived[k]++;
    this.state[s] = BARRIER;
    const waiting = this.keyWaiting[k];
    waiting.push(s);
    this.arrivedAt[s] = now;
    if (this.keyArrived[k] < this.keyStreams[k]) return;
    if (p.opKind[op] === OpKind.Barrier && this.model.barrier === 'linear') {
      this.releaseLinear(s, k, waiting);
      return;
    }
    // The combining tree moves the largest contribution (non-participants send identities of that length).
    let bytes = 0;
    for (const w of waiting) bytes = Math.max(bytes, p.opBytes[this.pc[w]]);
    const library = p.opLibrary !== null && p.opLibrary[op] === 1;
    const release = now + this.duration(groupCostSeconds(p.opKind[op], this.keyRanks[k], bytes, this.model, library));
    for (const w of waiting) {
      // The last arrival chains to its own previous op; everyone else waited for it.
      this.resumePred[w] = w === s ? this.lastOp[s] : op;
      this.state[w] = BUSY;
      this.host.wakeAt(release, w);
    }
    this.keyWaiting[k] = [];
    this.keyArrived[k] = 0;
  }

  /**
   * Barrier 'linear' where the engines could not run it as messages (program/barriers.ts
   * `lowerLinearBarriers`: a key used by several streams of one rank; every other linear barrier
   * reaches the engines as messages). Open MPI basic linear: each rank's zero-byte message leaves
   * once both it and the root have arrived (SimGrid starts a transfer when both sides are posted)
   * and reaches the root after the route latency; at the last one the root answers every rank at
   * once, and waits for all its answers to arrive (a send completes on delivery).
   */
  private releaseLinear(last: number, k: number, waiting: number[]): void {
    const p = this.program;
    const host = this.host;
    let root = p.numRanks;
    let rootArrived = 0;
    for (const w of waiting) root = Math.min(root, p.streamRank[w]);
    for (const w of waiting) if (p.streamRank[w] === root) rootArrived = Math.max(rootArrived, this.arrivedAt[w]);
    let answer = rootArrived;
    let farthest = 0;
    for (const w of waiting) {
      const r = p.streamRank[w];
      if (r === root) continue;
      answer = Math.max(answer, Math.max(this.arrivedAt[w], rootArrived) + this.duration(host.routeLatency(r, root)));
      farthest = Math.max(farthest, this.duration(host.routeLatency(root, r)));
    }
    const keyOp = this.pc[last];
    for (const w of waiting) {
      const r = p.streamRank[w];
      this.resumePred[w] = w === last ? this.lastOp[last] : keyOp;
      this.state[w] = BUSY;
      this.host.wakeAt(answer + (r === root ? farthest : this.duration(host.routeLatency(root, r))), w);
    }
    this.keyWaiting[k] = [];
    this.keyArrived[k] = 0;
  }

  private complete(s: number, op: number, time: number, pred: number): void {
    const ops = this.ops;
    const r = ops.index(s, op);
    if (Number.isNaN(ops.start(r))) ops.setStart(r, time);
    ops.setEnd(r, time, pred);
    this.lastOp[s] = op;
    this.pc[s]++;
    if (this.dependents !== null) this.release(op, time);
  }

  /**
   * Op `op` completed: the ops waiting on it lose a dependency, and a stream stopped at one whose
   * last dependency this was goes on, through the engine's queue at the same time (not by recursion,
   * so long chains of zero-cost ops cannot grow the stack). Its next op's predecessor on the
   * critical path is `op`.
   */
  private release(op: number, time: number): void {
    const start = this.dependentStart!;
    for (let i = start[op]; i < start[op + 1]; i++) {
      const d = this.dependents![i];
      if (--this.depsLeft![d] > 0) continue;
      const st = this.opStream![d];
      if (this.state[st] === DEPS && this.pc[st] === d) {
        this.state[st] = BUSY;
        this.released[st] = 1;
        this.lastOp[st] = op;
        this.host.wakeAt(time, st);
      }
    }
  }

  private matchKey(src: number, dst: number, tag: number): number {
    if (tag !== this.lastTag) {
      this.lastTag = tag;
      this.lastTagIndex = this.tagIndex.get(tag)!;
    }
    return (src * this.program.numRanks + dst) * this.nTags + this.lastTagIndex;
  }
}
