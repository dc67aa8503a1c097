// The worked example of docs/collectives.md ("Writing your own algorithm"), kept verbatim here so
// the test proves it works. If you change one, change the other.
import { registerAlgorithm, RECV, SEND } from '../../src/index.js';

registerAlgorithm({
  name: 'star',
  collective: 'allreduce',
  description: 'everyone sends to rank 0, which reduces and sends the result back',
  supportsText: 'any rank count',
  source: 'user',
  params: [],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const b = newBuilder();
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const all = b.region(RECV, 0, ctx.size);
    const incoming = b.region(tmp, 0, ctx.size);
    b.copy(0, b.region(SEND, 0, ctx.size), all);
    for (let r = 1; r < ctx.ranks; r++) {
      b.on(r).send(0, b.region(SEND, 0, ctx.size)).recv(0, all);
      b.on(0).recv(r, incoming).reduce(incoming, all);
    }
    for (let r = 1; r < ctx.ranks; r++) b.send(0, r, all);
    return b.finish();
  },
});
