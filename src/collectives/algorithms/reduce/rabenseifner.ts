/** reduce `rabenseifner`: recursive-halving reduce-scatter (fold step for non-powers of two), then each active rank sends its segment to the root. */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { floorPow2, rootRelative, segmentBounds, unitOf } from '../common.js';
import { foldIn, recursiveHalving, segs } from '../reduction.js';

registerAlgorithm({
  name: 'rabenseifner',
  collective: 'reduce',
  description: 'recursive-halving reduce-scatter, then a direct gather of the segments to the root',
  supportsText: 'any rank count and topology',
  source: 'classic (Rabenseifner)',
  params: [],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const acc = b.tmpBuffer('acc', ctx.size);
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const real = rootRelative(ctx.root, n);
    const whole = b.region(acc, 0, ctx.size);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), whole);
    const w = { b, n, real, acc, tmp, bounds: segmentBounds(ctx.size, floorPow2(n), unitOf(ctx)) };
    const { p2, vOf } = foldIn(w, whole);
    recursiveHalving(w, p2, vOf);
    b.copy(ctx.root, segs(w, acc, 0, 1), segs(w, RECV, 0, 1));
    for (let nr = 1; nr < p2; nr++) {
      b.send(real(vOf(nr)), ctx.root, segs(w, acc, nr, nr + 1), 8);
      b.recv(ctx.root, real(vOf(nr)), segs(w, RECV, nr, nr + 1), 8);
    }
    return b.finish();
  },
});
