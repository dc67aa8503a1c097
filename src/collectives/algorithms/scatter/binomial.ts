/**
 * scatter `binomial`: relative rank v receives its subtree's blocks [v, v + lowbit(v)) from its
 * parent into a staging buffer, then hands each child its sub-range. The root first rotates its
 * blocks into relative order (one copy of a two-extent region).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { ceilPow2, lowBit, mod } from '../common.js';
import { pieces } from '../alltoall/bruck.js';

registerAlgorithm({
  name: 'binomial',
  collective: 'scatter',
  description: 'binomial tree, ceil(log2 n) rounds; inner ranks forward sub-ranges of blocks',
  supportsText: 'any rank count and topology',
  source: 'classic',
  params: [],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size;
    const b = newBuilder();
    const T = b.tmpBuffer('stage', n * B);
    const real = (v: number): number => mod(v + ctx.root, n);
    for (let v = 0; v < n; v++) {
      const r = real(v);
      const top = v === 0 ? ceilPow2(n) : lowBit(v);
      const span = Math.min(top, n - v);
      if (v === 0) b.copy(r, b.extents(pieces(SEND, ctx.root, n, B)), b.region(T, 0, n * B));
      else b.recv(r, real(v - top), b.region(T, 0, span * B));
      for (let mask = top >> 1; mask >= 1; mask >>= 1) {
        const c = v + mask;
        if (c < n) b.send(r, real(c), b.region(T, mask * B, Math.min(mask, n - c) * B));
      }
      b.copy(r, b.region(T, 0, B), b.region(RECV, 0, B));
    }
    return b.finish();
  },
});
