/**
 * allreduce `reduce-broadcast`: the reduce `linear` to rank 0 (every rank sends its buffer to rank 0,
 * which has every receive posted at once), then the broadcast `binomial` from rank 0: SimGrid SMPI's
 * default allreduce (smpi_default_selector.cpp: reduce default, i.e. ireduce, then bcast binomial_tree).
 * smp=true: init_smp's messages first (SMPI's impi allreduce selector, which builds the SMP communicators
 * before it runs redbcast).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { binomialTree } from '../binomial-tree.js';
import { UNRESTRICTED } from '../common.js';
import { linearReduce } from '../reduction.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'reduce-broadcast',
  collective: 'allreduce',
  description: 'every rank sends its buffer to rank 0, which reduces them and broadcasts the result down a binomial tree (SMPI default)',
  source: 'SimGrid SMPI default allreduce (ireduce, then binomial_tree)',
  ...UNRESTRICTED,
  params: [smpParam('impi allreduce selector (redbcast)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const all = b.region(RECV, 0, ctx.size);
    const slots = b.tmpBuffer('slots', n * ctx.size);
    linearReduce(b, n, 0, ctx.size, slots, all);
    // The broadcast as broadcast `binomial` sends it: children from the farthest subtree down.
    for (const { rank: r, parent, children } of binomialTree(n, 0)) {
      if (parent >= 0) b.recv(r, parent, all);
      for (const c of [...children].reverse()) b.send(r, c.rank, all);
    }
    return b.finish();
  },
});
