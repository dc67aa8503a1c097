/**
 * reduce `linear`: every rank sends its buffer straight to the root, which has every receive posted
 * at once and reduces them in rank order: SimGrid SMPI's default reduce (its ireduce, smpi_nbc_impl.cpp).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';
import { linearReduce } from '../reduction.js';

registerAlgorithm({
  name: 'linear',
  collective: 'reduce',
  description: 'every rank sends its whole buffer to the root at once; the root reduces them (SMPI default: ireduce)',
  source: 'classic; SimGrid SMPI default reduce (ireduce)',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const b = newBuilder();
    // One receive slot per sender: all n − 1 receives are posted before any is reduced.
    const slots = b.tmpBuffer('slots', ctx.ranks * ctx.size);
    linearReduce(b, ctx.ranks, ctx.root, ctx.size, slots, b.region(RECV, 0, ctx.size));
    return b.finish();
  },
});
