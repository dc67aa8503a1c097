/**
 * alltoallv `linear` (Open MPI's and SimGrid SMPI's alltoallv ompi_basic_linear,
 * alltoallv-ompi-basic-linear.cpp): copy the own block, irecv from every other rank in rank order,
 * isend to every other rank in rank order (zero-byte blocks included, as SMPI posts them), waitall.
 * `order=shift`: irecvs from r+1, r+2, ..., isends to r−1, r−2, ...; with `batch=N` in rounds of N
 * offsets (offset 0, the own block, counts in the first), a waitall per round: SMPI's alltoallv `bruck`
 * (alltoallv-bruck.cpp, MPICH's throttled exchange: order=shift,batch=4).
 * smp=true: init_smp's messages first (SimGrid SMPI's impi alltoallv selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND, alltoallvLayout } from '../../schedule.js';
import { mod } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { postInRounds } from '../alltoall/linear.js';

registerAlgorithm({
  name: 'linear',
  collective: 'alltoallv',
  description: 'every receive then every send posted at once (irecv, isend), one waitall (MPI basic linear); by offset in rounds with order=shift,batch',
  source: 'classic (Open MPI / SMPI ompi_basic_linear; SMPI alltoallv bruck with order=shift,batch=4)',
  supportsText: 'any rank count and topology',
  params: [
    { key: 'order', kind: 'choice', choices: ['rank', 'shift'], default: 'rank', description: 'rank = irecvs and isends in rank order (ompi_basic_linear); shift = irecvs from r+i, isends to r−i (SMPI alltoallv bruck)' },
    { key: 'batch', kind: 'int', default: 0, min: 0, description: 'order=shift: offsets per round, each round its irecvs, isends and a waitall (0 = one round; SMPI alltoallv bruck: 4)' },
    smpParam('impi alltoallv selector (ompi_basic_linear)'),
  ],
  supports: (ctx) => (ctx.params.batch !== 0 && ctx.params.order !== 'shift' ? `batch=${String(ctx.params.batch)} needs order=shift (rounds of offsets), got order=${String(ctx.params.order)}` : undefined),
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
      if (ctx.params.order === 'shift') {
        postInRounds(b, r, n, {
          batch: ctx.params.batch as number,
          selfMessage: false,
          sendPeer: (i) => mod(r - i, n),
          recvRegion: (from) => recvBlock(from, r),
          sendRegion: (to) => sendBlock(r, to),
        });
        continue;
      }
      b.copy(r, sendBlock(r, r), recvBlock(r, r));
      if (n === 1) continue;
      for (let i = 0; i < n; i++) if (i !== r) b.irecv(r, i, recvBlock(i, r));
      for (let j = 0; j < n; j++) if (j !== r) b.isend(r, j, sendBlock(r, j));
      b.waitall(r);
    }
    return b.finish();
  },
});
