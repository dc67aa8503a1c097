/** allreduce `ring`: ring reduce-scatter then ring allgather over n segments, 2(n-1) steps (classic, bandwidth-optimal). */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod, segmentBounds, unitOf, UNRESTRICTED } from '../common.js';
import { equalRingSegment, largestSegment, ringAllgather, ringReduceScatter, visitRingReduceScatter } from '../reduction.js';

registerAlgorithm({
  name: 'ring',
  collective: 'allreduce',
  description: 'ring reduce-scatter then ring allgather, 2(n-1) steps of size/n',
  source: 'classic',
  ...UNRESTRICTED,
  // A copy per rank, then 2(n-1) steps of a send, a receive and a reduce or copy per rank, plus the receive's pair: 5n(n-1) + n ops.
  estimate: (ctx) => ({ ops: 5 * ctx.ranks * (ctx.ranks - 1) + ctx.ranks, messages: 2 * ctx.ranks * (ctx.ranks - 1) }),
  // Rotation-equivariant when every segment has the same size (issue 29: symmetry from the
  // representatives' streams alone). The ops as build() emits them and lowerSchedule counts them:
  // the copy of the whole buffer; per reduce-scatter step send, recv, reduce; per allgather step send, recv.
  rotation(ctx) {
    const n = ctx.ranks;
    const seg = equalRingSegment(ctx);
    if (seg === undefined) return undefined;
    return {
      opsPerRank: 5 * (n - 1) + 1,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        visitRingReduceScatter(r, n, seg, visit);
        for (let k = 0; k < n - 1; k++) {
          visit('send', mod(r + 1, n), seg, 2);
          visit('recv', mod(r - 1, n), seg, 2);
        }
      },
    };
  },
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
