/**
 * reduce-scatter `ring`: n-1 neighbour steps; rank r ends with block r reduced over all ranks.
 * recvs=preposted: the next receive is posted before the current one is waited for (SMPI and Open
 * MPI `ompi_ring`), so under rendezvous a segment never waits for its receive to be posted.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { segmentBounds, unitOf } from '../common.js';
import { equalRingSegment, ringReduceScatter, ringReduceScatterPreposted, segs, visitRingReduceScatter } from '../reduction.js';

registerAlgorithm({
  name: 'ring',
  collective: 'reduce-scatter',
  description: 'n-1 neighbour steps of size/n',
  supportsText: 'any rank count and topology (size divisible by ranks x element size)',
  source: 'classic',
  params: [
    {
      key: 'recvs',
      kind: 'choice',
      choices: ['sendrecv', 'preposted'],
      default: 'sendrecv',
      description: 'sendrecv: each step a send then its receive; preposted: the next receive posted before waiting for the current one (SMPI ompi_ring)',
    },
  ],
  supports: () => undefined,
  // n-1 steps of a send, a receive and a reduce per rank, two copies per rank.
  estimate: (ctx) => ({ ops: 3 * ctx.ranks * (ctx.ranks - 1) + 2 * ctx.ranks, messages: ctx.ranks * (ctx.ranks - 1) }),
  // Rotation-equivariant with sendrecv steps and equal blocks (issue 29, docs/flow.md
  // "Representatives only"): the copy in, per step a send, a receive and a reduce, the copy out.
  rotation(ctx) {
    const n = ctx.ranks;
    const seg = equalRingSegment(ctx);
    if (seg === undefined || ctx.params.recvs !== 'sendrecv') return undefined;
    return {
      opsPerRank: 3 * (n - 1) + 2,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        visitRingReduceScatter(r, n, seg, visit);
        visit('copy', r, seg, 0);
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const bounds = segmentBounds(ctx.size, n, unitOf(ctx));
    const acc = b.tmpBuffer('acc', ctx.size);
    const tmp = b.tmpBuffer('tmp', ctx.size / n);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.region(acc, 0, ctx.size));
    const w = { b, n, real: (v: number) => v, acc, tmp, bounds };
    if (ctx.params.recvs === 'preposted') ringReduceScatterPreposted(w, b.tmpBuffer('tmp2', ctx.size / n));
    else ringReduceScatter(w);
    for (let r = 0; r < n; r++) b.copy(r, segs(w, acc, r, r + 1), b.region(RECV, 0, ctx.size / n));
    return b.finish();
  },
});
