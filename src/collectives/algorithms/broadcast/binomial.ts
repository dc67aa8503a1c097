/**
 * broadcast `binomial`: ceil(log2 n) rounds; relative rank v receives from v - lowbit(v), then sends to
 * v + mask for each smaller mask (classic, MPICH). smp=true: init_smp's messages first; with tree=rank0 a
 * root other than rank 0 first sends the buffer to rank 0, which roots the tree: together SimGrid SMPI's
 * `SMP_binomial` (bcast-SMP-binomial.cpp) on one rank per host, the tree of its node leaders.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { binomialTree } from '../binomial-tree.js';
import { UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'binomial',
  collective: 'broadcast',
  description: 'binomial tree from the root, ceil(log2 n) rounds (in place: the root holds the data in recv)',
  source: 'classic',
  ...UNRESTRICTED,
  params: [
    smpParam('SMP_binomial broadcast (with tree=rank0) and the mvapich2 bcast selector'),
    { key: 'tree', kind: 'choice', choices: ['root', 'rank0'], default: 'root', description: 'root: the tree is rooted at the root; rank0: a root other than 0 sends to rank 0 first, which roots it (SMPI SMP_binomial)' },
  ],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ inPlace: true });
    const all = b.region(RECV, 0, ctx.size);
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const treeRoot = ctx.params.tree === 'rank0' ? 0 : ctx.root;
    if (treeRoot !== ctx.root) {
      b.send(ctx.root, 0, all);
      b.recv(0, ctx.root, all);
    }
    for (const { rank: r, parent, children } of binomialTree(n, treeRoot)) {
      if (parent >= 0) b.recv(r, parent, all);
      for (const c of [...children].reverse()) b.send(r, c.rank, all);
    }
    return b.finish();
  },
});
