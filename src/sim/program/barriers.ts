/**
 * `--barriers`: a program bracketed by SMPI's barrier as MPI benchmarks time a collective
 * (MPI_Barrier; t0 = MPI_Wtime(); the collective; MPI_Barrier; t1 = MPI_Wtime()). The barrier is
 * SimGrid SMPI 3.32's default, Open MPI's basic linear (barrier-ompi.cpp): every rank but 0 sends a
 * zero-byte message to rank 0 and waits for its answer; rank 0 posts every receive, then answers
 * everyone at once. The makespan is then measured from the earliest t0 to the latest t1
 * (`timeOrigin`), so the first barrier's skew enters as it does in a benchmark: ranks leave it at
 * different times.
 */
import { InputError } from '../../util/errors.js';
import { OpKind } from '../../collectives/types.js';
import { FlowProgramBuilder, type FlowProgram } from './program.js';

/** Tag of the bracketing barriers' messages (collectives use small non-negative tags). */
const BARRIER_TAG = -0x5b4;

export interface BracketedProgram {
  readonly program: FlowProgram;
  /** Per rank, the op that ends its first barrier (each rank's t0 is that op's end). */
  readonly timeOrigin: Int32Array;
}

/** What the result records about the bracketing. */
export const BARRIERS_RECORD =
  "SMPI's barrier (Open MPI basic linear, SimGrid 3.32's default) before and after the collective; makespan = latest end of the second barrier − earliest end of the first, as MPI benchmarks time it (MPI_Wtime after each barrier)";

/** The program between two linear barriers; refuses a program with several streams per rank (MPI ranks have one). */
export function bracketWithBarriers(p: FlowProgram): BracketedProgram {
  const n = p.numRanks;
  if (p.deps !== null) throw new InputError('barriers', 'a program with dependencies between streams', 'a collective schedule (a workload\'s dependency graph is not bracketed)');
  const streamOf = new Int32Array(n).fill(-1);
  for (let s = 0; s < p.numStreams; s++) {
    const r = p.streamRank[s];
    if (streamOf[r] >= 0) throw new InputError('barriers', `rank ${r} has several streams`, 'a schedule with one stream per rank (an MPI rank), as --barriers brackets each rank with MPI_Barrier');
    streamOf[r] = s;
  }
  const b = new FlowProgramBuilder(n, p.numOps + 6 * n);
  for (const h of p.hints) b.addHint(h);
  const timeOrigin = new Int32Array(n);
  // Where each copied op landed, to carry its per-op columns (a library's latency and α: sim/library.ts).
  const moved = new Int32Array(p.numOps).fill(-1);
  const everyRank = Int32Array.from({ length: n }, (_, r) => r);
  for (let r = 0; r < n; r++) {
    b.beginStream(r, 0);
    linearBarrier(b, r, everyRank, BARRIER_TAG);
    timeOrigin[r] = b.lastOp;
    const s = streamOf[r];
    if (s >= 0) {
      const first = b.lastOp + 1;
      copyOps(p, s, b, first);
      for (let o = p.opStart[s]; o < p.opStart[s + 1]; o++) moved[o] = first + o - p.opStart[s];
    }
    linearBarrier(b, r, everyRank, BARRIER_TAG);
  }
  const program = b.build();
  const opDelay = p.opDelay && carried(p.opDelay, moved, new Float64Array(program.numOps));
  const opLibrary = p.opLibrary && carried(p.opLibrary, moved, new Uint8Array(program.numOps));
  return { program: program.with({ opDelay, opLibrary }), timeOrigin };
}

/** A per-op column of the original program, written at the ops' new places (`moved`) in `out`. */
function carried<T extends Float64Array | Uint8Array>(col: T, moved: Int32Array, out: T): T {
  for (let o = 0; o < moved.length; o++) if (moved[o] >= 0) out[moved[o]] = col[o];
  return out;
}

/**
 * Rank r's part of the linear barrier among `ranks` (ascending; the first is the root). The root
 * waits for each of its requests by id (MPI_Wait), not with a waitall, so a barrier lowered inside a
 * program does not also wait for the stream's own earlier isends and irecvs.
 */
function linearBarrier(b: FlowProgramBuilder, r: number, ranks: ArrayLike<number>, tag: number): void {
  const root = ranks[0];
  if (ranks.length === 1) {
    b.copy(0); // a no-op that marks the barrier
    return;
  }
  if (r !== root) {
    // SMPI's MPI_Send, then MPI_Recv (barrier__ompi_basic_linear): not a sendrecv.
    b.send(root, 0, tag).markSeparateSend().recv(root, 0, tag);
    return;
  }
  const first = b.lastOp + 1;
  for (let i = 1; i < ranks.length; i++) b.irecv(ranks[i], 0, tag);
  for (let i = 1; i < ranks.length; i++) b.wait(first + i - 1);
  const sends = b.lastOp + 1;
  for (let i = 1; i < ranks.length; i++) b.isend(ranks[i], 0, tag);
  for (let i = 1; i < ranks.length; i++) b.wait(sends + i - 1);
}

/** Appends stream s's ops to the builder's current stream, whose first copied op gets id `first`. */
function copyOps(p: FlowProgram, s: number, b: FlowProgramBuilder, first: number): void {
  const shift = first - p.opStart[s];
  for (let o = p.opStart[s]; o < p.opStart[s + 1]; o++) copyOp(p, o, b, p.opPeer[o] + shift);
}

/** Appends op `o` of `p` to the builder's current stream; a Wait on one request waits for op `waited` of the new program. */
function copyOp(p: FlowProgram, o: number, b: FlowProgramBuilder, waited: number): void {
  const nb = p.opNonBlocking !== null && p.opNonBlocking[o] === 1;
  const bytes = p.opBytes[o];
  const tag = p.opTag[o];
  switch (p.opKind[o]) {
    case OpKind.Send: {
      const to = p.opCount[o] === 1 ? p.dsts[p.opPeer[o]] : Array.from(p.dsts.subarray(p.opPeer[o], p.opPeer[o] + p.opCount[o]));
      if (nb) b.isend(to as number, bytes, tag, p.opHint[o]);
      else b.send(to, bytes, tag, p.opHint[o]);
      if (p.opSeparateSend !== null && p.opSeparateSend[o] === 1) b.markSeparateSend();
      break;
    }
    case OpKind.Recv:
      if (nb) b.irecv(p.opPeer[o], bytes, tag);
      else b.recv(p.opPeer[o], bytes, tag);
      break;
    case OpKind.Copy:
      b.copy(bytes);
      break;
    case OpKind.Reduce:
      b.reduce(bytes);
      break;
    case OpKind.Barrier:
      b.barrier(p.keyNames[p.opPeer[o]]);
      break;
    case OpKind.Pace:
      b.pace(bytes);
      break;
    case OpKind.HwCollective:
      b.hwCollective(bytes, p.keyNames[p.opPeer[o]]);
      break;
    case OpKind.Wait:
      if (p.opPeer[o] < 0) b.waitall();
      else b.wait(waited);
      break;
    case OpKind.Compute:
      b.compute(bytes);
      break;
    default:
      throw new Error(`unknown operation kind ${p.opKind[o]}`);
  }
}

/** A program whose barrier operations were replaced by the linear barrier's messages. */
export interface LoweredBarriers {
  readonly program: FlowProgram;
  /** Per op of the original program, the last op it became (a barrier's last message op). */
  readonly lastOf: Int32Array;
}

/**
 * Barrier `linear` run as SMPI runs MPI_Barrier: every barrier operation becomes the basic linear
 * barrier's zero-byte messages among the ranks that use its key (rooted at the lowest), so the
 * engine moves them like any message (the envelope, the root's links shared by its 2(P − 1)
 * messages, SimGrid's matching rule). Null when the program has no barrier, or when a key is used
 * by several streams of one rank (a message cannot name a stream): that barrier keeps the
 * route-latency timing of the stream semantics (program/semantics.ts `releaseLinear`).
 */
export function lowerLinearBarriers(p: FlowProgram): LoweredBarriers | null {
  const n = p.numRanks;
  const keyRanks: number[][] = p.keyNames.map(() => []);
  // The last stream counted per (key, rank): a stream meets a key at each of its barriers on it.
  const seenBy = new Map<number, number>();
  let any = false;
  for (let s = 0; s < p.numStreams; s++) {
    for (let o = p.opStart[s]; o < p.opStart[s + 1]; o++) {
      if (p.opKind[o] !== OpKind.Barrier) continue;
      any = true;
      const k = p.opPeer[o];
      const at = k * n + p.streamRank[s];
      const by = seenBy.get(at);
      if (by === s) continue;
      if (by !== undefined) return null;
      seenBy.set(at, s);
      keyRanks[k].push(p.streamRank[s]);
    }
  }
  if (!any) return null;
  const ranksOf = keyRanks.map((r) => Int32Array.from(r).sort());
  let extra = 0;
  for (const r of ranksOf) extra += 4 * r.length;
  const b = new FlowProgramBuilder(n, p.numOps + extra);
  for (const h of p.hints) b.addHint(h);
  const firstOf = new Int32Array(p.numOps);
  const lastOf = new Int32Array(p.numOps);
  for (let s = 0; s < p.numStreams; s++) {
    b.beginStream(p.streamRank[s], p.streamLocal[s]);
    for (let o = p.opStart[s]; o < p.opStart[s + 1]; o++) {
      firstOf[o] = b.lastOp + 1;
      if (p.opKind[o] === OpKind.Barrier) linearBarrier(b, p.streamRank[s], ranksOf[p.opPeer[o]], BARRIER_TAG - 1 - p.opPeer[o]);
      else copyOp(p, o, b, p.opKind[o] === OpKind.Wait && p.opPeer[o] >= 0 ? lastOf[p.opPeer[o]] : -1);
      lastOf[o] = b.lastOp;
    }
  }
  // An op waits for what it waited for before, from its first new op, on the last op each became.
  if (p.deps !== null) {
    for (let o = 0; o < p.numOps; o++) for (let i = p.deps.start[o]; i < p.deps.start[o + 1]; i++) b.dependsOn(firstOf[o], lastOf[p.deps.on[i]]);
  }
  const program = b.build();
  const opDelay = p.opDelay && carried(p.opDelay, firstOf, new Float64Array(program.numOps));
  const opLibrary = p.opLibrary && carried(p.opLibrary, firstOf, new Uint8Array(program.numOps));
  return { program: program.with({ opDelay, opLibrary, noise: p.noise }), lastOf };
}

/**
 * The program an engine runs under barrier model `barrier`: with 'linear', its barriers lowered to
 * messages (`lowerLinearBarriers`) and the `--barriers` time origin moved onto the new op ids.
 */
export function programForBarrierModel(
  program: FlowProgram,
  timeOrigin: Int32Array | undefined,
  barrier: string | undefined,
): { readonly program: FlowProgram; readonly timeOrigin: Int32Array | undefined } {
  const lowered = barrier === 'linear' ? lowerLinearBarriers(program) : null;
  if (lowered === null) return { program, timeOrigin };
  return { program: lowered.program, timeOrigin: timeOrigin?.map((o) => lowered.lastOf[o]) };
}
