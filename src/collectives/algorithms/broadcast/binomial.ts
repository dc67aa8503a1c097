/** broadcast `binomial`: ceil(log2 n) rounds; relative rank v receives from v - lowbit(v), then sends to v + mask for each smaller mask (classic, MPICH). */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { ceilPow2, lowBit, mod } from '../common.js';

registerAlgorithm({
  name: 'binomial',
  collective: 'broadcast',
  description: 'binomial tree from the root, ceil(log2 n) rounds (in place: the root holds the data in recv)',
  supportsText: 'any rank count and topology',
  source: 'classic',
  params: [],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ inPlace: true });
    const all = b.region(RECV, 0, ctx.size);
    const real = (v: number): number => mod(v + ctx.root, n);
    for (let v = 0; v < n; v++) {
      const r = real(v);
      const top = v === 0 ? ceilPow2(n) : lowBit(v);
      if (v !== 0) b.recv(r, real(v - top), all);
      for (let mask = top >> 1; mask >= 1; mask >>= 1) if (v + mask < n) b.send(r, real(v + mask), all);
    }
    return b.finish();
  },
});
