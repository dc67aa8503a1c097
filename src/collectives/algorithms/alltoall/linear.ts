/**
 * alltoall `linear` (Open MPI's and SMPI's basic_linear): every rank posts all its receives
 * (irecv from r+1, r+2, ...), then all its sends (isend), then waits for all of them (waitall).
 * Non-blocking posting is what makes it safe under rendezvous: with blocking sends before the
 * receives, every rank would wait in its first send for a receive nobody has posted yet.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'linear',
  collective: 'alltoall',
  description: 'all receives then all sends posted at once (irecv, isend), then one waitall (MPI basic linear)',
  source: 'classic (Open MPI / SMPI basic_linear)',
  ...UNRESTRICTED,
  params: [
    {
      key: 'sends',
      kind: 'choice',
      choices: ['forward', 'reverse'],
      default: 'forward',
      description: 'send posting order: forward = r+1, r+2, ... (spreads the load); reverse = r-1, r-2, ... (Open MPI and SMPI basic_linear)',
    },
  ],
  // Issue 29: rank-rotation-equivariant in both send orders: the copy of its own block, the n−1
  // irecvs from r+1, r+2, ..., the n−1 isends to r+i (forward) or r−i (reverse), one waitall.
  rotation(ctx) {
    const n = ctx.ranks;
    const reverse = ctx.params.sends === 'reverse';
    return {
      opsPerRank: 2 * (n - 1) + 1 + (n > 1 ? 1 : 0),
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        for (let i = 1; i < n; i++) visit('irecv', (r + i) % n, ctx.size, 0);
        for (let i = 1; i < n; i++) visit('isend', reverse ? (r - i + n) % n : (r + i) % n, ctx.size, 0);
        if (n > 1) visit('waitall', 0, 0, 0);
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ expectedOps: 2 * n * n + n });
    const reverse = ctx.params.sends === 'reverse';
    for (let r = 0; r < n; r++) {
      b.copy(r, b.block(SEND, r), b.block(RECV, r));
      for (let i = 1; i < n; i++) b.irecv(r, (r + i) % n, b.block(RECV, (r + i) % n));
      for (let i = 1; i < n; i++) {
        const to = reverse ? (r - i + n) % n : (r + i) % n;
        b.isend(r, to, b.block(SEND, to));
      }
      if (n > 1) b.waitall(r);
    }
    return b.finish();
  },
});
