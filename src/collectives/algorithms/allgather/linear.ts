/**
 * allgather `linear`: every rank sends its block to every other rank and receives theirs, all at
 * once: per step an isend of its block and an irecv, then one waitall. order=shift: step k sends to
 * r + k and receives from r − k (every step a permutation); order=rank: the other ranks in rank
 * order, sending to and receiving from the same rank, as SimGrid SMPI's default allgather (its
 * iallgather, smpi_nbc_impl.cpp) posts them. Where a NIC serves its messages in posting order
 * (`--injection-order fifo`), rank order makes every rank send to rank 0 first, then to rank 1, ...
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod, UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'linear',
  collective: 'allgather',
  description: 'every rank isends its block to every other rank and irecvs theirs at once (order=rank: SMPI default, iallgather)',
  source: 'classic; order=rank: SimGrid SMPI default allgather (iallgather)',
  supportsText: UNRESTRICTED.supportsText,
  supports: UNRESTRICTED.supports,
  params: [{ key: 'order', kind: 'choice', choices: ['shift', 'rank'], default: 'shift', description: 'shift: step k sends to r+k, receives from r-k; rank: the other ranks in rank order (SMPI iallgather)' }],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const mine = b.region(SEND, 0, ctx.size);
    const rankOrder = ctx.params.order === 'rank';
    for (let r = 0; r < n; r++) {
      b.copy(r, mine, b.block(RECV, r));
      for (let k = 1; k < n; k++) {
        // Rank order skips r itself: the k-th other rank is k − 1 below r, k from r on.
        const to = rankOrder ? (k - 1 < r ? k - 1 : k) : mod(r + k, n);
        const from = rankOrder ? to : mod(r - k, n);
        b.isend(r, to, mine);
        b.irecv(r, from, b.block(RECV, from));
      }
      if (n > 1) b.waitall(r);
    }
    return b.finish();
  },
});
