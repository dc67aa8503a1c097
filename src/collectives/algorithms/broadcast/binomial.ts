/** broadcast `binomial`: ceil(log2 n) rounds; relative rank v receives from v - lowbit(v), then sends to v + mask for each smaller mask (classic, MPICH). */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { binomialTree } from '../binomial-tree.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'binomial',
  collective: 'broadcast',
  description: 'binomial tree from the root, ceil(log2 n) rounds (in place: the root holds the data in recv)',
  source: 'classic',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ inPlace: true });
    const all = b.region(RECV, 0, ctx.size);
    for (const { rank: r, parent, children } of binomialTree(n, ctx.root)) {
      if (parent >= 0) b.recv(r, parent, all);
      for (const c of [...children].reverse()) b.send(r, c.rank, all);
    }
    return b.finish();
  },
});
