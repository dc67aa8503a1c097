/** reduce `rabenseifner`: recursive-halving reduce-scatter (fold step for non-powers of two), then each active rank sends its segment to the root. */
import { registerAlgorithm } from '../../registry.js';
import { floorPow2, rootRelative, segmentBounds, unitOf, UNRESTRICTED } from '../common.js';
import { foldIn, recursiveHalving, seedAccumulators, segmentsToRoot } from '../reduction.js';

registerAlgorithm({
  name: 'rabenseifner',
  collective: 'reduce',
  description: 'recursive-halving reduce-scatter, then a direct gather of the segments to the root',
  source: 'classic (Rabenseifner)',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const acc = b.tmpBuffer('acc', ctx.size);
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const real = rootRelative(ctx.root, n);
    const whole = seedAccumulators(b, n, ctx.size, acc);
    const w = { b, n, real, acc, tmp, bounds: segmentBounds(ctx.size, floorPow2(n), unitOf(ctx)) };
    const { p2, vOf } = foldIn(w, whole);
    recursiveHalving(w, p2, vOf);
    segmentsToRoot(w, ctx.root, p2, vOf);
    return b.finish();
  },
});
