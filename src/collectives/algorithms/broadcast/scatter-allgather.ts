/**
 * broadcast `scatter-allgather` (van de Geijn): binomial scatter of n segments from the root, then a
 * ring allgather of the segments. Segment v (relative rank v) is bytes [bound[v], bound[v+1]).
 * smp=true: init_smp's messages first (SimGrid SMPI's mvapich2 bcast selector (scatter_LR_allgather over the leaders)).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { mod, rootRelative, segmentBounds, UNRESTRICTED } from '../common.js';
import { binomialTree } from '../binomial-tree.js';

registerAlgorithm({
  name: 'scatter-allgather',
  collective: 'broadcast',
  description: 'binomial scatter of n segments, then ring allgather (large messages)',
  source: 'classic (van de Geijn)',
  ...UNRESTRICTED,
  params: [smpParam('mvapich2 bcast selector (scatter_LR_allgather over the leaders)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ inPlace: true });
    if (ctx.params.smp === true) smpiInitSmp(b, ctx.ranks);
    const bound = segmentBounds(ctx.size, n);
    const real = rootRelative(ctx.root, n);
    /** Segments of relative ranks [from, to) as one region. */
    const segs = (from: number, to: number): number => b.region(RECV, bound[from], bound[to] - bound[from]);
    for (const { v, rank: r, parent, span, children } of binomialTree(n, ctx.root)) {
      if (parent >= 0) b.recv(r, parent, segs(v, v + span));
      for (const c of [...children].reverse()) b.send(r, c.rank, segs(v + c.offset, v + c.offset + c.span));
    }
    for (let k = 0; k < n - 1; k++) {
      for (let v = 0; v < n; v++) {
        const s = mod(v - k, n);
        const t = mod(v - k - 1, n);
        b.sendrecv(real(v), real(v + 1), segs(s, s + 1), real(v - 1), segs(t, t + 1), 1);
      }
    }
    return b.finish();
  },
});
