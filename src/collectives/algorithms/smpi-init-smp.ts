/**
 * SimGrid SMPI's `Comm::init_smp` (smpi_comm.cpp, 3.32): the messages SMPI's SMP-aware algorithms
 * (SMP_binomial, mvapich2_two_level, mvapich2_knomial_intra_node, ...) and its `mpich` selector send the
 * first time a communicator runs one of them, before the algorithm's own. On one rank per host:
 * an allgather `ring` (SMPI's shift ring: step k sends to rank + k, receives from rank − k) of each
 * rank's 4-byte leader id over the communicator, the same over the leaders' communicator (every rank,
 * in rank order), a broadcast over the one-rank intra-node communicator (no message), then SMPI's
 * default allreduce of a 4-byte flag (every rank sends it to rank 0, which has every receive posted,
 * then a binomial broadcast from rank 0). smpirun's timings of these algorithms include them: 48 µs
 * of a 64-rank SMP_binomial broadcast on the 4x4x4 torus of test/reference/simgrid.
 *
 * The values (leader ids, node sizes, the flag) are control data in buffers of their own; their
 * reduction (MPI_LAND) is not computed, it touches none of the collective's buffers.
 */
import type { ParamDecl } from '../registry.js';
import type { ScheduleBuilder } from '../schedule.js';
import { binomialTree } from './binomial-tree.js';
import { mod } from './common.js';

/** MPI_INT, what init_smp exchanges. */
const INT_BYTES = 4;
/** Tags of the prelude's messages, apart from the algorithms' own. */
const TAG_LEADERS = 90;
const TAG_SIZES = 91;
const TAG_FLAG_REDUCE = 92;
const TAG_FLAG_BCAST = 93;

/** The `smp` parameter of the algorithms an SMPI SMP algorithm runs as on one rank per host. */
export function smpParam(what: string): ParamDecl {
  return {
    key: 'smp',
    kind: 'bool',
    default: false,
    description: `SimGrid SMPI's ${what} on one rank per host: first the messages of SMPI's Comm::init_smp (two ring allgathers and an allreduce of 4 B)`,
  };
}

/** Emits init_smp's messages for `n` ranks (one per host). */
export function smpiInitSmp(b: ScheduleBuilder, n: number): void {
  if (n < 2) return;
  for (const [name, tag] of [['smp_leaders', TAG_LEADERS], ['smp_sizes', TAG_SIZES]] as const) {
    const map = b.tmpBuffer(name, n * INT_BYTES);
    const entry = (r: number) => b.region(map, r * INT_BYTES, INT_BYTES);
    for (let k = 1; k < n; k++) {
      for (let r = 0; r < n; r++) b.sendrecv(r, mod(r + k, n), entry(r), mod(r - k, n), entry(mod(r - k, n)), tag);
    }
  }
  const flag = b.region(b.tmpBuffer('smp_flag', INT_BYTES), 0, INT_BYTES);
  const slots = b.tmpBuffer('smp_slots', n * INT_BYTES);
  // SMPI posts it with ireduce's isend_init, so charges it smpi/ois, as a send its receive follows.
  for (let r = 1; r < n; r++) b.send(r, 0, flag, TAG_FLAG_REDUCE);
  for (let r = 1; r < n; r++) b.irecv(0, r, b.region(slots, r * INT_BYTES, INT_BYTES), TAG_FLAG_REDUCE);
  b.waitall(0);
  for (const { rank: r, parent, children } of binomialTree(n, 0)) {
    if (parent >= 0) b.recv(r, parent, flag, TAG_FLAG_BCAST);
    // bcast binomial_tree's MPI_Send: not a sendrecv with the algorithm's first receive after it.
    for (const c of [...children].reverse()) b.separateSend(r, c.rank, flag, TAG_FLAG_BCAST);
  }
}

/** Ops and messages smpiInitSmp emits for `n` ranks (for an algorithm's estimate). */
export function initSmpEstimate(n: number): { ops: number; messages: number } {
  if (n < 2) return { ops: 0, messages: 0 };
  // Two rings of n(n − 1) sendrecvs (a send and a receive each); the flag: n − 1 sends, irecvs, a waitall, then the binomial's n − 1 sends and receives.
  return { ops: 4 * n * (n - 1) + 4 * (n - 1) + 1, messages: 2 * n * (n - 1) + 2 * (n - 1) };
}
