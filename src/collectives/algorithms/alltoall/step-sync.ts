/**
 * The `sync` parameter of the exchange-step alltoalls (alltoall `pairwise` and `ring`, alltoallv
 * `pairwise`): what separates their steps, as SimGrid SMPI 3.32's barrier variants of `pair` and `ring`
 * do (src/smpi/colls/alltoall/alltoall-{pair,ring}-{light,mpi,one}-barrier.cpp, and alltoallv's):
 * - `none`: nothing (SMPI's `pair`, `ring`);
 * - `light`: after every step but the last, a 1-byte sendrecv that sends to the rank the next step
 *   receives from and receives from the rank the next step sends to (`*_light_barrier`);
 * - `step`: an MPI_Barrier before every step, the own block's copy included (`*_mpi_barrier`);
 * - `once`: one MPI_Barrier before the first step (`*_one_barrier`).
 * A barrier is a schedule barrier of every rank, which the `simgrid` preset (barrier `linear`) runs as
 * SMPI's default MPI_Barrier, Open MPI's basic linear: what SMPI's `colls::barrier` runs unless
 * `--cfg=smpi/barrier` names another.
 */
import type { ParamDecl } from '../../registry.js';
import type { ScheduleBuilder } from '../../schedule.js';

export type StepSync = 'none' | 'light' | 'step' | 'once';

export const SYNC_PARAM: ParamDecl = {
  key: 'sync',
  kind: 'choice',
  choices: ['none', 'light', 'step', 'once'],
  default: 'none',
  description:
    "between steps: none; light = a 1-byte sendrecv with the next step's partners after each step (SimGrid SMPI *_light_barrier); step = an MPI barrier before every step (*_mpi_barrier); once = one barrier first (*_one_barrier)",
};

/** Rank r's partners at step k (1 ≤ k < n): the rank it sends to and the rank it receives from. */
export type StepPeers = (r: number, k: number) => { readonly to: number; readonly from: number };

/**
 * Emits n − 1 exchange steps of every rank with `sync` between them: per rank the own block (`own`,
 * after the first barrier for `step` and `once`), then per step k the exchange `exchange(r, to, from)`
 * with the partners `peers(r, k)`. Step k is emitted for every rank before step k + 1 (each rank's
 * program order is what counts).
 */
export function syncedSteps(
  b: ScheduleBuilder,
  n: number,
  sync: StepSync,
  peers: StepPeers,
  own: (r: number) => void,
  exchange: (r: number, to: number, from: number) => void,
): void {
  const barrier = sync === 'step' || sync === 'once';
  const all = barrier ? b.group(Array.from({ length: n }, (_, i) => i)) : -1;
  // SMPI's send_sync and recv_sync: one char each, control data apart from the collective's buffers.
  const token = sync === 'light' ? b.tmpBuffer('sync', 2) : -1;
  const sendToken = token >= 0 ? b.region(token, 0, 1) : -1;
  const recvToken = token >= 0 ? b.region(token, 1, 1) : -1;
  for (let r = 0; r < n; r++) {
    if (barrier) b.barrier(r, all);
    own(r);
  }
  for (let k = 1; k < n; k++) {
    for (let r = 0; r < n; r++) {
      if (sync === 'step') b.barrier(r, all);
      const { to, from } = peers(r, k);
      exchange(r, to, from);
      if (sync === 'light' && k + 1 < n) {
        const next = peers(r, k + 1);
        // SMPI's tag is the data's: the sync and data messages between two ranks keep one order on both sides.
        b.sendrecv(r, next.from, sendToken, next.to, recvToken);
      }
    }
  }
}
