/**
 * gather `linear`: every rank sends its block to the root, which receives block i from rank i.
 * recvs=blocking: one receive after the other (SMPI ompi_basic_linear); preposted: every receive
 * posted at once, then a waitall (SMPI's default gather, its igather, smpi_nbc_impl.cpp).
 * smp=true: init_smp's messages first (SimGrid SMPI's impi gather selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'linear',
  collective: 'gather',
  description: 'every rank sends its block directly to the root',
  source: 'classic',
  supportsText: UNRESTRICTED.supportsText,
  supports: UNRESTRICTED.supports,
  params: [{ key: 'recvs', kind: 'choice', choices: ['blocking', 'preposted'], default: 'blocking', description: 'blocking: the root receives one block after the other (SMPI ompi_basic_linear); preposted: all receives posted at once (SMPI default, igather)' }, smpParam('impi gather selector (ompi_basic_linear)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
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
