/**
 * alltoall `bruck`: ceil(log2 n) steps of merged messages (Bruck et al. 1997). Local rotation into
 * a work buffer W (W[i] = block for rank r+i), then for each bit k the blocks whose index has bit k
 * go to rank r+k and the same slots are refilled from rank r-k; finally W[i] (from rank r-i) lands in recv[r-i].
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod, rotatedBlocks, UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'bruck',
  collective: 'alltoall',
  description: 'log2(n) steps, each one merged message of the blocks whose index has bit k set (non-contiguous region)',
  source: 'classic (Bruck et al.)',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size;
    const b = newBuilder();
    const W = b.tmpBuffer('work', n * B);
    for (let r = 0; r < n; r++) {
      // W[i] = send[(r + i) mod n]: at most two contiguous pieces.
      b.copy(r, b.extents(rotatedBlocks(SEND, r, n, B)), b.region(W, 0, n * B));
      for (let k = 1; k < n; k <<= 1) {
        const idx: number[] = [];
        for (let i = 0; i < n; i++) if (i & k) idx.push(i);
        const reg = b.blocks(W, idx, B);
        b.sendrecv(r, mod(r + k, n), reg, mod(r - k, n), reg, k);
      }
      // recv[(r - i) mod n] = W[i].
      for (let i = 0; i < n; i++) b.copy(r, b.region(W, i * B, B), b.block(RECV, mod(r - i, n)));
    }
    return b.finish();
  },
});
