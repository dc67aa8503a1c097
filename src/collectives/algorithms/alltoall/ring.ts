/**
 * alltoall `ring` (shift): n-1 steps; in step k rank r sends to r+k and receives from r-k (classic;
 * SimGrid SMPI's ring). `sync` (step-sync.ts): SMPI's ring_light_barrier, ring_mpi_barrier and ring_one_barrier.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod } from '../common.js';
import { SYNC_PARAM, syncedSteps, type StepSync } from './step-sync.js';

registerAlgorithm({
  name: 'ring',
  collective: 'alltoall',
  description: 'shift schedule: step k sends to rank+k and receives from rank-k, for every rank count',
  source: 'classic',
  supportsText: 'any rank count and topology',
  params: [SYNC_PARAM],
  supports: () => undefined,
  // Issue 29: rank-rotation-equivariant: the copy of its own block, per step k a send to r+k and
  // the receive from r−k (tag 0), one block each.
  rotation(ctx) {
    if (ctx.params.sync !== 'none') return undefined;
    const n = ctx.ranks;
    return {
      opsPerRank: 2 * (n - 1) + 1,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        for (let k = 1; k < n; k++) {
          visit('send', mod(r + k, n), ctx.size, 0);
          visit('recv', mod(r - k, n), ctx.size, 0);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ expectedOps: 2 * n * n });
    syncedSteps(
      b,
      n,
      ctx.params.sync as StepSync,
      (r, k) => ({ to: mod(r + k, n), from: mod(r - k, n) }),
      (r) => b.copy(r, b.block(SEND, r), b.block(RECV, r)),
      (r, to, from) => b.sendrecv(r, to, b.block(SEND, to), from, b.block(RECV, from)),
    );
    return b.finish();
  },
});
