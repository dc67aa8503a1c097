/** alltoall `ring` (shift): n-1 steps; in step k rank r sends to r+k and receives from r-k (classic). */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod, UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'ring',
  collective: 'alltoall',
  description: 'shift schedule: step k sends to rank+k and receives from rank-k, for every rank count',
  source: 'classic',
  ...UNRESTRICTED,
  // Issue 29: rank-rotation-equivariant: the copy of its own block, per step k a send to r+k and
  // the receive from r−k (tag 0), one block each.
  rotation(ctx) {
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
    for (let r = 0; r < n; r++) b.copy(r, b.block(SEND, r), b.block(RECV, r));
    for (let k = 1; k < n; k++) {
      for (let r = 0; r < n; r++) b.sendrecv(r, mod(r + k, n), b.block(SEND, mod(r + k, n)), mod(r - k, n), b.block(RECV, mod(r - k, n)));
    }
    return b.finish();
  },
});
