/**
 * allgather `gather-broadcast`: SimGrid SMPI's `GB` (allgather-GB.cpp): MPI_Gather of every block to
 * rank 0, then MPI_Bcast of the whole gathered buffer from rank 0, with the gather and bcast SMPI has
 * selected: its defaults, the default gather (igather: every rank sends its block to rank 0, which has
 * every receive posted at once, Meshwork gather `linear:recvs=preposted`) and binomial_tree (broadcast
 * `binomial` from rank 0). smp=true: init_smp's messages first (SMPI's impi allgather selector, which
 * builds the SMP communicators before it runs GB).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { binomialTree } from '../binomial-tree.js';
import { UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

/** The broadcast's tag, apart from the gather's. */
const TAG_BCAST = 1;

registerAlgorithm({
  name: 'gather-broadcast',
  collective: 'allgather',
  description: 'every rank sends its block to rank 0, which broadcasts all n blocks down a binomial tree (SMPI GB)',
  source: 'SimGrid SMPI GB (with its default gather, igather, and bcast, binomial_tree)',
  supportsText: UNRESTRICTED.supportsText,
  supports: UNRESTRICTED.supports,
  params: [smpParam('impi allgather selector (GB)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const mine = b.region(SEND, 0, ctx.size);
    b.copy(0, mine, b.block(RECV, 0));
    for (let r = 1; r < n; r++) {
      b.send(r, 0, mine);
      b.irecv(0, r, b.block(RECV, r));
    }
    if (n > 1) b.waitall(0);
    const all = b.block(RECV, 0, n);
    // As broadcast `binomial` (SMPI's binomial_tree) sends it: children from the farthest subtree down.
    for (const { rank: r, parent, children } of binomialTree(n, 0)) {
      if (parent >= 0) b.recv(r, parent, all, TAG_BCAST);
      for (const c of [...children].reverse()) b.send(r, c.rank, all, TAG_BCAST);
    }
    return b.finish();
  },
});
