/** gather `binomial`: the mirror of binomial scatter; the root un-rotates the staged blocks into recv. */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { ceilPow2, lowBit, mod } from '../common.js';
import { pieces } from '../alltoall/bruck.js';

registerAlgorithm({
  name: 'binomial',
  collective: 'gather',
  description: 'binomial tree, ceil(log2 n) rounds; inner ranks merge their subtree before forwarding',
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
      b.copy(r, b.region(SEND, 0, B), b.region(T, 0, B));
      for (let mask = 1; mask < top; mask <<= 1) {
        const c = v + mask;
        if (c < n) b.recv(r, real(c), b.region(T, mask * B, Math.min(mask, n - c) * B));
      }
      if (v === 0) b.copy(r, b.region(T, 0, n * B), b.extents(pieces(RECV, ctx.root, n, B)));
      else b.send(r, real(v - top), b.region(T, 0, Math.min(top, n - v) * B));
    }
    return b.finish();
  },
});
