/** one-to-one `direct`: the source sends the whole message to the destination. */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'direct',
  collective: 'one-to-one',
  description: 'one message from the source (--root) to the destination (--peer)',
  source: 'classic',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const b = newBuilder();
    b.send(ctx.root, ctx.peer, b.region(SEND, 0, ctx.size));
    b.recv(ctx.peer, ctx.root, b.region(RECV, 0, ctx.size));
    return b.finish();
  },
});
