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
  for (let r = 0; r < n; r++) {
    b.beginStream(r, 0);
    linearBarrier(b, r, n);
    timeOrigin[r] = b.lastOp;
    const s = streamOf[r];
    if (s >= 0) {
      const first = b.lastOp + 1;
      copyOps(p, s, b, first);
      for (let o = p.opStart[s]; o < p.opStart[s + 1]; o++) moved[o] = first + o - p.opStart[s];
    }
    linearBarrier(b, r, n);
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

/** Rank r's part of the linear barrier (rank 0 is its root). */
function linearBarrier(b: FlowProgramBuilder, r: number, n: number): void {
  if (n === 1) {
    b.copy(0); // a no-op that marks the barrier
    return;
  }
  if (r > 0) {
    b.send(0, 0, BARRIER_TAG).recv(0, 0, BARRIER_TAG);
    return;
  }
  for (let q = 1; q < n; q++) b.irecv(q, 0, BARRIER_TAG);
  b.waitall();
  for (let q = 1; q < n; q++) b.isend(q, 0, BARRIER_TAG);
  b.waitall();
}

/** Appends stream s's ops to the builder's current stream, whose first copied op gets id `first`. */
function copyOps(p: FlowProgram, s: number, b: FlowProgramBuilder, first: number): void {
  const start = p.opStart[s];
  const shift = first - start;
  for (let o = start; o < p.opStart[s + 1]; o++) {
    const nb = p.opNonBlocking !== null && p.opNonBlocking[o] === 1;
    const bytes = p.opBytes[o];
    const tag = p.opTag[o];
    switch (p.opKind[o]) {
      case OpKind.Send: {
        const to = p.opCount[o] === 1 ? p.dsts[p.opPeer[o]] : Array.from(p.dsts.subarray(p.opPeer[o], p.opPeer[o] + p.opCount[o]));
        if (nb) b.isend(to as number, bytes, tag, p.opHint[o]);
        else b.send(to, bytes, tag, p.opHint[o]);
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
        else b.wait(p.opPeer[o] + shift);
        break;
      case OpKind.Compute:
        b.compute(bytes);
        break;
      default:
        throw new Error(`unknown operation kind ${p.opKind[o]}`);
    }
  }
}
