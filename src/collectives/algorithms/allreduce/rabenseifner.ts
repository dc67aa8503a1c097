/** allreduce `rabenseifner`: recursive-halving reduce-scatter then recursive-doubling allgather (fold step for non-powers of two). */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { floorPow2, segmentBounds, unitOf, UNRESTRICTED } from '../common.js';
import { equalRingSegment, foldIn, foldOut, HALVING_ORDERS, recursiveDoublingGather, recursiveHalving, seedAccumulators, type HalvingOrder } from '../reduction.js';

registerAlgorithm({
  name: 'rabenseifner',
  collective: 'allreduce',
  description: 'recursive-halving reduce-scatter + recursive-doubling allgather, 2 log2(n) steps',
  source: 'classic (Rabenseifner)',
  ...UNRESTRICTED,
  params: [
    {
      key: 'order',
      kind: 'choice',
      choices: [...HALVING_ORDERS],
      default: 'far-first',
      description: 'halving partners: far-first (MPICH: rank XOR p/2 first) or near-first (SimGrid SMPI rab_rdb: rank XOR 1 first)',
    },
    {
      key: 'fold',
      kind: 'choice',
      choices: ['odd-out', 'even-out'],
      default: 'odd-out',
      description: 'non-powers of two: which of the first 2·(n − p2) ranks sit out, odd or even (MPICH\'s allreduce and SimGrid SMPI rab_rdb: even ranks send to rank + 1)',
    },
  ],
  // Issue 29: on a power of two (no fold) with n equal segments, rank r's ops are rank 0's with
  // peers XORed with r (the segments it keeps differ, their sizes do not): the copy of the whole
  // buffer; per halving step a send of the half it gives, the receive of the half it keeps and its
  // reduce (tag 6); per gather step, in reverse, a send and a receive of what each side holds (tag 7).
  rotation(ctx) {
    const n = ctx.ranks;
    const seg = equalRingSegment(ctx);
    if (n < 2 || !isPowerOfTwo(n) || seg === undefined) return undefined;
    const steps = Math.log2(n);
    const masks = Array.from({ length: steps }, (_, i) => (ctx.params.order === 'near-first' ? 1 << i : n >> (i + 1)));
    return {
      action: 'xor',
      opsPerRank: 1 + 5 * steps,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        masks.forEach((mask, i) => {
          const bytes = (n >> (i + 1)) * seg;
          visit('send', r ^ mask, bytes, 6);
          visit('recv', r ^ mask, bytes, 6);
          visit('reduce', r, bytes, 0);
        });
        for (let i = steps - 1; i >= 0; i--) {
          const bytes = (n >> (i + 1)) * seg;
          visit('send', r ^ masks[i], bytes, 7);
          visit('recv', r ^ masks[i], bytes, 7);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const whole = seedAccumulators(b, n, ctx.size, RECV);
    const w = { b, n, real: (v: number) => v, acc: RECV, tmp, bounds: segmentBounds(ctx.size, floorPow2(n), unitOf(ctx)) };
    const evenOut = ctx.params.fold === 'even-out';
    const { p2, rem, vOf } = foldIn(w, whole, evenOut);
    const halving = recursiveHalving(w, p2, vOf, ctx.params.order as HalvingOrder);
    recursiveDoublingGather(w, p2, vOf, halving);
    foldOut(w, rem, whole, evenOut);
    return b.finish();
  },
});
