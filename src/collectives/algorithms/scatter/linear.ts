/**
 * scatter `linear`: the root sends block i to rank i, one message each. sends=blocking: one send
 * after the other (SMPI ompi_basic_linear); nonblocking: every send isent at once, then a waitall
 * (SMPI ompi_linear_nb, and the default scatter, its iscatter, smpi_nbc_impl.cpp).
 * smp=true: init_smp's messages first (SimGrid SMPI's mvapich2 scatter selector (ompi_basic_linear), which builds the SMP communicators).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'linear',
  collective: 'scatter',
  description: 'the root sends each rank its block directly',
  source: 'classic',
  supportsText: UNRESTRICTED.supportsText,
  supports: UNRESTRICTED.supports,
  params: [{ key: 'sends', kind: 'choice', choices: ['blocking', 'nonblocking'], default: 'blocking', description: 'blocking: the root sends one block after the other (SMPI ompi_basic_linear); nonblocking: all sends isent at once (SMPI ompi_linear_nb, default)' }, smpParam('mvapich2 scatter selector (ompi_basic_linear)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, ctx.ranks);
    const mine = b.region(RECV, 0, ctx.size);
    const nonblocking = ctx.params.sends === 'nonblocking';
    for (let i = 0; i < n; i++) {
      if (i === ctx.root) b.copy(i, b.block(SEND, i), mine);
      else {
        if (nonblocking) b.isend(ctx.root, i, b.block(SEND, i));
        else b.send(ctx.root, i, b.block(SEND, i));
        b.recv(i, ctx.root, mine);
      }
    }
    if (nonblocking && n > 1) b.waitall(ctx.root);
    return b.finish();
  },
});
