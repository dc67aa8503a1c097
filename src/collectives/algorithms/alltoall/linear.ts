/** alltoall `linear`: every rank posts all its sends at once, then all its receives (classic). */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'linear',
  collective: 'alltoall',
  description: 'all sends posted at once (rank r sends to r+1, r+2, ... to spread the load), then all receives',
  source: 'classic',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ expectedOps: 2 * n * n });
    for (let r = 0; r < n; r++) {
      b.copy(r, b.block(SEND, r), b.block(RECV, r));
      for (let i = 1; i < n; i++) b.send(r, (r + i) % n, b.block(SEND, (r + i) % n));
      for (let i = 1; i < n; i++) b.recv(r, (r - i + n) % n, b.block(RECV, (r - i + n) % n));
    }
    return b.finish();
  },
});
