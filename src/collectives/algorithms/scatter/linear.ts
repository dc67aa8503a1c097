/** scatter `linear`: the root sends block i to rank i, one message each. */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'linear',
  collective: 'scatter',
  description: 'the root sends each rank its block directly',
  source: 'classic',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const mine = b.region(RECV, 0, ctx.size);
    for (let i = 0; i < n; i++) {
      if (i === ctx.root) b.copy(i, b.block(SEND, i), mine);
      else {
        b.send(ctx.root, i, b.block(SEND, i));
        b.recv(i, ctx.root, mine);
      }
    }
    return b.finish();
  },
});
