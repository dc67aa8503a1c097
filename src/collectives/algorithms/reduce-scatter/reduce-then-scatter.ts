/**
 * reduce-scatter `reduce-then-scatter`: the reduce `linear` to rank 0 (every rank sends its whole
 * buffer to rank 0, which has every receive posted at once), then rank 0 isends block i to rank i,
 * all at once: SimGrid SMPI's default reduce_scatter (smpi_default_selector.cpp: reduce default,
 * i.e. ireduce, then scatterv, i.e. iscatterv, smpi_nbc_impl.cpp).
 * smp=true: init_smp's messages first (SimGrid SMPI's impi reduce-scatter selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';
import { linearReduce } from '../reduction.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'reduce-then-scatter',
  collective: 'reduce-scatter',
  description: 'every rank sends its buffer to rank 0, which reduces them and isends each rank its block at once (SMPI default)',
  source: 'SimGrid SMPI default reduce_scatter (ireduce, then iscatterv)',
  ...UNRESTRICTED,
  params: [smpParam('impi reduce_scatter selector (reduce + scatterv)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size / n;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const acc = b.tmpBuffer('acc', ctx.size);
    const slots = b.tmpBuffer('slots', n * ctx.size);
    linearReduce(b, n, 0, ctx.size, slots, b.region(acc, 0, ctx.size));
    const mine = b.region(RECV, 0, B);
    b.copy(0, b.region(acc, 0, B), mine);
    for (let r = 1; r < n; r++) {
      b.isend(0, r, b.region(acc, r * B, B));
      b.recv(r, 0, mine);
    }
    if (n > 1) b.waitall(0);
    return b.finish();
  },
});
