/** allgather `recursive-doubling`: log2 n steps; in step `mask` rank r swaps its aligned range of mask blocks with r XOR mask. */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'allgather',
  description: 'log2(n) exchanges with rank XOR 2^k of doubling block ranges',
  supportsText: 'power-of-two rank counts, any topology',
  source: 'classic',
  params: [],
  supports: (ctx) => (isPowerOfTwo(ctx.ranks) ? undefined : `${ctx.ranks} ranks is not a power of two (use ring or bruck)`),
  // Issue 29: rank r's ops are rank 0's with peers XORed with r (its block and the ranges it swaps
  // have the same sizes on every rank): the copy of its block, per mask a send and a receive of mask blocks.
  rotation(ctx) {
    const n = ctx.ranks;
    return {
      action: 'xor',
      opsPerRank: 1 + 2 * Math.log2(n),
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        for (let mask = 1; mask < n; mask <<= 1) {
          visit('send', r ^ mask, mask * ctx.size, 0);
          visit('recv', r ^ mask, mask * ctx.size, 0);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.block(RECV, r));
    for (let mask = 1; mask < n; mask <<= 1) {
      for (let r = 0; r < n; r++) {
        const p = r ^ mask;
        b.sendrecv(r, p, b.block(RECV, r & ~(mask - 1), mask), p, b.block(RECV, p & ~(mask - 1), mask));
      }
    }
    return b.finish();
  },
});
