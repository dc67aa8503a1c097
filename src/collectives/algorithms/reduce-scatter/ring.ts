/** reduce-scatter `ring`: n-1 neighbour steps; rank r ends with block r reduced over all ranks. */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { segmentBounds, unitOf } from '../common.js';
import { ringReduceScatter, segs } from '../reduction.js';

registerAlgorithm({
  name: 'ring',
  collective: 'reduce-scatter',
  description: 'n-1 neighbour steps of size/n',
  supportsText: 'any rank count and topology (size divisible by ranks x element size)',
  source: 'classic',
  params: [],
  supports: () => undefined,
  // n-1 steps of a send, a receive and a reduce per rank, two copies per rank.
  estimate: (ctx) => ({ ops: 3 * ctx.ranks * (ctx.ranks - 1) + 2 * ctx.ranks, messages: ctx.ranks * (ctx.ranks - 1) }),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const bounds = segmentBounds(ctx.size, n, unitOf(ctx));
    const acc = b.tmpBuffer('acc', ctx.size);
    const tmp = b.tmpBuffer('tmp', ctx.size / n);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.region(acc, 0, ctx.size));
    const w = { b, n, real: (v: number) => v, acc, tmp, bounds };
    ringReduceScatter(w);
    for (let r = 0; r < n; r++) b.copy(r, segs(w, acc, r, r + 1), b.region(RECV, 0, ctx.size / n));
    return b.finish();
  },
});
