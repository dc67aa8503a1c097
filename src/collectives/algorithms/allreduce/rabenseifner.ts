/** allreduce `rabenseifner`: recursive-halving reduce-scatter then recursive-doubling allgather (fold step for non-powers of two). */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { floorPow2, segmentBounds, unitOf, UNRESTRICTED } from '../common.js';
import { foldIn, foldOut, recursiveDoublingGather, recursiveHalving, seedAccumulators } from '../reduction.js';

registerAlgorithm({
  name: 'rabenseifner',
  collective: 'allreduce',
  description: 'recursive-halving reduce-scatter + recursive-doubling allgather, 2 log2(n) steps',
  source: 'classic (Rabenseifner)',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const whole = seedAccumulators(b, n, ctx.size, RECV);
    const w = { b, n, real: (v: number) => v, acc: RECV, tmp, bounds: segmentBounds(ctx.size, floorPow2(n), unitOf(ctx)) };
    const { p2, rem, vOf } = foldIn(w, whole);
    recursiveHalving(w, p2, vOf);
    recursiveDoublingGather(w, p2, vOf);
    foldOut(w, rem, whole);
    return b.finish();
  },
});
