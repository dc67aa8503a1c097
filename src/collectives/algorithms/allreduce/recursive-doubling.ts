/** allreduce `recursive-doubling`: log2 p2 whole-buffer exchanges with rank XOR 2^k; non-powers of two fold the extra ranks in first and out last. */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { foldIn, foldOut, recursiveDoubling, seedAccumulators } from '../reduction.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'allreduce',
  description: 'log2(n) whole-buffer exchanges (plus a fold step when n is not a power of two)',
  source: 'classic',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const whole = seedAccumulators(b, n, ctx.size, RECV);
    const w = { b, n, real: (v: number) => v, acc: RECV, tmp, bounds: [0, ctx.size] };
    const { p2, rem, vOf } = foldIn(w, whole);
    recursiveDoubling(w, p2, vOf, whole);
    foldOut(w, rem, whole);
    return b.finish();
  },
});
