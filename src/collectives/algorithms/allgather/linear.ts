/**
 * allgather `linear`: every rank sends its block to every other rank and receives theirs, all at
 * once: per other rank in rank order an isend of its block and an irecv of theirs, then a waitall.
 * SimGrid SMPI's default allgather (its iallgather, smpi_nbc_impl.cpp).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'linear',
  collective: 'allgather',
  description: 'every rank isends its block to every other rank and irecvs theirs at once (SMPI default: iallgather)',
  source: 'classic; SimGrid SMPI default allgather (iallgather)',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const mine = b.region(SEND, 0, ctx.size);
    for (let r = 0; r < n; r++) {
      b.copy(r, mine, b.block(RECV, r));
      for (let other = 0; other < n; other++) {
        if (other === r) continue;
        b.isend(r, other, mine);
        b.irecv(r, other, b.block(RECV, other));
      }
      if (n > 1) b.waitall(r);
    }
    return b.finish();
  },
});
