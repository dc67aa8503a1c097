/**
 * reduce `recursive-doubling` (binomial tree): in round k, relative ranks with bit k set send their partial
 * result to v - 2^k. smp=true: init_smp's messages first (SimGrid SMPI's `mvapich2_two_level` reduce on one
 * rank per host below 2 KiB, whose inter-leader reduce__mpich runs binomial there).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { binomialTree } from '../binomial-tree.js';
import { UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'reduce',
  description: 'binomial-tree reduction to the root, ceil(log2 n) rounds of the whole buffer',
  source: 'classic',
  ...UNRESTRICTED,
  params: [smpParam('mvapich2_two_level reduce')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const acc = b.tmpBuffer('acc', ctx.size);
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const whole = b.region(acc, 0, ctx.size);
    const tw = b.region(tmp, 0, ctx.size);
    for (const { rank: r, parent, children } of binomialTree(n, ctx.root)) {
      b.copy(r, b.region(SEND, 0, ctx.size), whole);
      for (const c of children) {
        b.recv(r, c.rank, tw);
        b.reduce(r, tw, whole);
      }
      if (parent < 0) b.copy(r, whole, b.region(RECV, 0, ctx.size));
      else b.send(r, parent, whole);
    }
    return b.finish();
  },
});
