/**
 * gather `linear`: every rank sends its block to the root, which receives block i from rank i.
 * recvs=blocking: one receive after the other (SMPI ompi_basic_linear); preposted: every receive
 * posted at once, then a waitall (SMPI's default gather, its igather, smpi_nbc_impl.cpp).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'linear',
  collective: 'gather',
  description: 'every rank sends its block directly to the root',
  source: 'classic',
  supportsText: UNRESTRICTED.supportsText,
  supports: UNRESTRICTED.supports,
  params: [{ key: 'recvs', kind: 'choice', choices: ['blocking', 'preposted'], default: 'blocking', description: 'blocking: the root receives one block after the other (SMPI ompi_basic_linear); preposted: all receives posted at once (SMPI default, igather)' }],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const mine = b.region(SEND, 0, ctx.size);
    const preposted = ctx.params.recvs === 'preposted';
    for (let i = 0; i < n; i++) {
      if (i === ctx.root) b.copy(i, mine, b.block(RECV, i));
      else {
        b.send(i, ctx.root, mine);
        if (preposted) b.irecv(ctx.root, i, b.block(RECV, i));
        else b.recv(ctx.root, i, b.block(RECV, i));
      }
    }
    if (preposted && n > 1) b.waitall(ctx.root);
    return b.finish();
  },
});
