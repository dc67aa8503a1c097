/** gather `linear`: every rank sends its block to the root, which receives block i from rank i. */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'linear',
  collective: 'gather',
  description: 'every rank sends its block directly to the root',
  source: 'classic',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const mine = b.region(SEND, 0, ctx.size);
    for (let i = 0; i < n; i++) {
      if (i === ctx.root) b.copy(i, mine, b.block(RECV, i));
      else {
        b.send(i, ctx.root, mine);
        b.recv(ctx.root, i, b.block(RECV, i));
      }
    }
    return b.finish();
  },
});
