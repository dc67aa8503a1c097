/** allreduce `rabenseifner`: recursive-halving reduce-scatter then recursive-doubling allgather (fold step for non-powers of two). */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { floorPow2, segmentBounds, unitOf, UNRESTRICTED } from '../common.js';
import { foldIn, foldOut, HALVING_ORDERS, recursiveDoublingGather, recursiveHalving, seedAccumulators, type HalvingOrder } from '../reduction.js';

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
      description: 'non-powers of two: which of the first 2·(n − p2) ranks sit out, odd (MPICH) or even (SimGrid SMPI rab_rdb)',
    },
  ],
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
