/** allreduce `ring`: ring reduce-scatter then ring allgather over n segments, 2(n-1) steps (classic, bandwidth-optimal). */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { segmentBounds, unitOf, UNRESTRICTED } from '../common.js';
import { largestSegment, ringAllgather, ringReduceScatter } from '../reduction.js';

registerAlgorithm({
  name: 'ring',
  collective: 'allreduce',
  description: 'ring reduce-scatter then ring allgather, 2(n-1) steps of size/n',
  source: 'classic',
  ...UNRESTRICTED,
  // A copy per rank, then 2(n-1) steps of a send, a receive and a reduce or copy per rank, plus the receive's pair: 5n(n-1) + n ops.
  estimate: (ctx) => ({ ops: 5 * ctx.ranks * (ctx.ranks - 1) + ctx.ranks, messages: 2 * ctx.ranks * (ctx.ranks - 1) }),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const bounds = segmentBounds(ctx.size, n, unitOf(ctx));
    const tmp = b.tmpBuffer('tmp', largestSegment(bounds));
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.region(RECV, 0, ctx.size));
    const w = { b, n, real: (v: number) => v, acc: RECV, tmp, bounds };
    ringReduceScatter(w);
    ringAllgather(w);
    return b.finish();
  },
});
