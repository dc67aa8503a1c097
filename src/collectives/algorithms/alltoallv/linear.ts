/**
 * alltoallv `linear` (Open MPI's and SimGrid SMPI's alltoallv ompi_basic_linear,
 * alltoallv-ompi-basic-linear.cpp): copy the own block, irecv from every other rank in rank order,
 * isend to every other rank in rank order (zero-byte blocks included, as SMPI posts them), waitall.
 * smp=true: init_smp's messages first (SimGrid SMPI's impi alltoallv selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND, alltoallvLayout } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'linear',
  collective: 'alltoallv',
  description: 'every receive then every send posted at once (irecv, isend), one waitall (MPI basic linear)',
  source: 'classic (Open MPI / SMPI ompi_basic_linear)',
  ...UNRESTRICTED,
  params: [smpParam('impi alltoallv selector (ompi_basic_linear)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ expectedOps: 2 * n * n + 2 * n });
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const part = b.parts[0];
    const { sdispl, rdispl } = alltoallvLayout(part);
    const sizes = part.sizes!;
    const sendBlock = (i: number, j: number): number => b.region(SEND, sdispl[i * n + j], sizes[i * n + j]);
    const recvBlock = (i: number, j: number): number => b.region(RECV, rdispl[i * n + j], sizes[i * n + j]);
    for (let r = 0; r < n; r++) {
      b.copy(r, sendBlock(r, r), recvBlock(r, r));
      if (n === 1) continue;
      for (let i = 0; i < n; i++) if (i !== r) b.irecv(r, i, recvBlock(i, r));
      for (let j = 0; j < n; j++) if (j !== r) b.isend(r, j, sendBlock(r, j));
      b.waitall(r);
    }
    return b.finish();
  },
});
