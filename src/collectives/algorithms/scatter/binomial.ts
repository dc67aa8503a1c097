/**
 * scatter `binomial`: relative rank v receives its subtree's blocks [v, v + lowbit(v)) from its
 * parent into a staging buffer, then hands each child its sub-range. The root first rotates its
 * blocks into relative order (one copy of a two-extent region). order=largest-first (default) sends
 * to the child with the largest subtree first, so the deepest branch starts earliest;
 * order=smallest-first is Open MPI's and SimGrid SMPI's `ompi_binomial` (scatter-ompi.cpp, the
 * in-order binomial tree: children rank+1, rank+2, rank+4, ...).
 * smp=true: init_smp's messages first (SimGrid SMPI's mvapich2 scatter selector (ompi_binomial), which builds the SMP communicators).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { rotatedBlocks, UNRESTRICTED } from '../common.js';
import { binomialTree } from '../binomial-tree.js';

registerAlgorithm({
  name: 'binomial',
  collective: 'scatter',
  description: 'binomial tree, ceil(log2 n) rounds; inner ranks forward sub-ranges of blocks',
  source: 'classic',
  ...UNRESTRICTED,
  params: [
    smpParam('mvapich2 scatter selector (ompi_binomial)'),
    {
      key: 'order',
      kind: 'choice',
      choices: ['largest-first', 'smallest-first'],
      default: 'largest-first',
      description: 'which child an inner rank sends to first: the largest subtree, or the smallest (SMPI ompi_binomial)',
    },
  ],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, ctx.ranks);
    const T = b.tmpBuffer('stage', n * B);
    for (const { rank: r, parent, span, children } of binomialTree(n, ctx.root)) {
      if (parent < 0) b.copy(r, b.extents(rotatedBlocks(SEND, ctx.root, n, B)), b.region(T, 0, n * B));
      else b.recv(r, parent, b.region(T, 0, span * B));
      const ordered = ctx.params.order === 'smallest-first' ? children : [...children].reverse();
      for (const c of ordered) b.send(r, c.rank, b.region(T, c.offset * B, c.span * B));
      b.copy(r, b.region(T, 0, B), b.region(RECV, 0, B));
    }
    return b.finish();
  },
});
