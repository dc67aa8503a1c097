/**
 * gather `binomial`: the mirror of binomial scatter; the root un-rotates the staged blocks into recv.
 * smp=true: init_smp's messages first (SimGrid SMPI's impi gather selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { rotatedBlocks, UNRESTRICTED } from '../common.js';
import { binomialTree } from '../binomial-tree.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'binomial',
  collective: 'gather',
  description: 'binomial tree, ceil(log2 n) rounds; inner ranks merge their subtree before forwarding',
  source: 'classic',
  ...UNRESTRICTED,
  params: [smpParam('impi gather selector (ompi_binomial)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const T = b.tmpBuffer('stage', n * B);
    for (const { rank: r, parent, span, children } of binomialTree(n, ctx.root)) {
      b.copy(r, b.region(SEND, 0, B), b.region(T, 0, B));
      for (const c of children) b.recv(r, c.rank, b.region(T, c.offset * B, c.span * B));
      if (parent < 0) b.copy(r, b.region(T, 0, n * B), b.extents(rotatedBlocks(RECV, ctx.root, n, B)));
      else b.send(r, parent, b.region(T, 0, span * B));
    }
    return b.finish();
  },
});
