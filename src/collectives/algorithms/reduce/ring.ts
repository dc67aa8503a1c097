/** reduce `ring`: ring reduce-scatter over n segments, then every rank sends its reduced segment to the root. */
import { registerAlgorithm } from '../../registry.js';
import { SEND } from '../../schedule.js';
import { rootRelative, segmentBounds, unitOf, UNRESTRICTED } from '../common.js';
import { largestSegment, ringReduceScatter, segmentsToRoot } from '../reduction.js';

registerAlgorithm({
  name: 'ring',
  collective: 'reduce',
  description: 'ring reduce-scatter (n-1 steps of size/n), then each segment goes to the root',
  source: 'classic',
  ...UNRESTRICTED,
  // A ring reduce-scatter (3n(n-1) + 2n ops), then the n-1 segments gathered at the root.
  estimate: (ctx) => ({ ops: 3 * ctx.ranks * (ctx.ranks - 1) + 3 * ctx.ranks - 1, messages: (ctx.ranks + 1) * (ctx.ranks - 1) }),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const bounds = segmentBounds(ctx.size, n, unitOf(ctx));
    const acc = b.tmpBuffer('acc', ctx.size);
    const tmp = b.tmpBuffer('tmp', largestSegment(bounds));
    const real = rootRelative(ctx.root, n);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.region(acc, 0, ctx.size));
    const w = { b, n, real, acc, tmp, bounds };
    ringReduceScatter(w);
    segmentsToRoot(w, ctx.root, n, (v) => v);
    return b.finish();
  },
});
