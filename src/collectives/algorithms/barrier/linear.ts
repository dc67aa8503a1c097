/**
 * barrier `linear` (Open MPI's basic linear, SimGrid SMPI 3.32's default barrier, barrier-ompi.cpp):
 * every other rank sends a zero-byte message to rank 0 and waits for its answer; rank 0 posts all
 * receives, waits for them, then answers everyone at once (isend) and waits for those sends.
 * smp=true: init_smp's messages first (SimGrid SMPI's impi barrier selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'linear',
  collective: 'barrier',
  description: 'zero-byte messages to rank 0, which answers everyone at once (Open MPI basic linear, SMPI default)',
  source: 'classic (Open MPI / SMPI ompi_basic_linear)',
  ...UNRESTRICTED,
  params: [smpParam('impi barrier selector (ompi_basic_linear)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ expectedOps: 4 * n });
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const none = b.region(RECV, 0, 0);
    if (n === 1) return b.finish();
    // MPI_Send, then MPI_Recv (barrier__ompi_basic_linear): not a sendrecv (SMPI charges smpi/os).
    for (let r = 1; r < n; r++) {
      b.separateSend(r, 0, none);
      b.recv(r, 0, none);
    }
    for (let r = 1; r < n; r++) b.irecv(0, r, none);
    b.waitall(0);
    for (let r = 1; r < n; r++) b.isend(0, r, none);
    b.waitall(0);
    return b.finish();
  },
});
