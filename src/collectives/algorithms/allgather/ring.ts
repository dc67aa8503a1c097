/** allgather `ring`: n-1 steps; in step k rank r passes block r-k to r+1 and receives block r-k-1 from r-1. */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod, UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'ring',
  collective: 'allgather',
  description: 'n-1 neighbour steps around the ring',
  source: 'classic',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.block(RECV, r));
    for (let k = 0; k < n - 1; k++) {
      for (let r = 0; r < n; r++) b.sendrecv(r, mod(r + 1, n), b.block(RECV, mod(r - k, n)), mod(r - 1, n), b.block(RECV, mod(r - k - 1, n)));
    }
    return b.finish();
  },
});
