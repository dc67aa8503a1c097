/** reduce `recursive-doubling` (binomial tree): in round k, relative ranks with bit k set send their partial result to v - 2^k. */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod } from '../common.js';

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'reduce',
  description: 'binomial-tree reduction to the root, ceil(log2 n) rounds of the whole buffer',
  supportsText: 'any rank count and topology',
  source: 'classic',
  params: [],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const acc = b.tmpBuffer('acc', ctx.size);
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const whole = b.region(acc, 0, ctx.size);
    const tw = b.region(tmp, 0, ctx.size);
    const real = (v: number): number => mod(v + ctx.root, n);
    for (let v = 0; v < n; v++) {
      const r = real(v);
      b.copy(r, b.region(SEND, 0, ctx.size), whole);
      for (let mask = 1; mask < n; mask <<= 1) {
        if (v & mask) {
          b.send(r, real(v - mask), whole);
          break;
        }
        if (v + mask < n) {
          b.recv(r, real(v + mask), tw);
          b.reduce(r, tw, whole);
        }
      }
      if (v === 0) b.copy(r, whole, b.region(RECV, 0, ctx.size));
    }
    return b.finish();
  },
});
