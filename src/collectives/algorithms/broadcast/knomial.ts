/**
 * broadcast `knomial`: a k-nomial tree from the root (radix k, default 4). Relative rank v receives from
 * v rounded down to a multiple of k·m, m the smallest power of k with k·m not dividing v; then for each
 * smaller power m of k, largest first, it isends to v + j·m (j = 1 .. k − 1, within the ranks) and waits
 * for them all. MVAPICH2's k-nomial broadcast: SimGrid SMPI's `mvapich2_knomial_intra_node`
 * (bcast-mvapich-smp.cpp) called on the whole communicator, as SMPI's `ompi` selector does, is this with
 * smp=true (SMPI runs init_smp first) and radix 4 (mv2_intra_node_knomial_factor when no mvapich2 table
 * set it).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { mod } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'knomial',
  collective: 'broadcast',
  description: 'k-nomial tree from the root, each level of children isent at once (MVAPICH2 k-nomial, SMPI mvapich2_knomial_intra_node)',
  source: 'MVAPICH2 k-nomial broadcast; SimGrid SMPI mvapich2_knomial_intra_node',
  supportsText: 'any rank count and topology',
  supports: () => undefined,
  params: [
    { key: 'radix', kind: 'int', default: 4, min: 2, max: 1024, description: 'k: children per level of the tree' },
    smpParam('mvapich2_knomial_intra_node broadcast'),
  ],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const k = ctx.params.radix as number;
    const b = newBuilder({ inPlace: true });
    const all = b.region(RECV, 0, ctx.size);
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const real = (v: number) => mod(v + ctx.root, n);
    for (let v = 0; v < n; v++) {
      let mask = 1;
      while (mask < n) {
        if (v % (k * mask) !== 0) {
          b.recv(real(v), real(Math.floor(v / (k * mask)) * k * mask), all);
          break;
        }
        mask *= k;
      }
      for (mask = Math.floor(mask / k); mask > 0; mask = Math.floor(mask / k)) {
        let sent = 0;
        for (let j = 1; j < k; j++) {
          if (v + j * mask < n) {
            b.isend(real(v), real(v + j * mask), all);
            sent++;
          }
        }
        if (sent > 0) b.waitall(real(v));
      }
    }
    return b.finish();
  },
});
