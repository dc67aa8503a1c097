/**
 * barrier `recursive-doubling` (Open MPI's tuned barrier, SimGrid SMPI's `ompi_recursivedoubling`,
 * barrier-ompi.cpp): zero-byte sendrecvs with rank XOR 2^k among the largest power of two p2 <= n.
 * For a rank count that is not a power of two, rank r >= p2 first checks in with r − p2 (a sendrecv
 * whose receive is the release), r − p2 waits for it before its exchanges and releases it after them.
 * smp=true: init_smp's messages first (SimGrid SMPI's impi barrier selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { floorPow2, UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

const CHECK_IN = 1;
const EXCHANGE = 2;

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'barrier',
  description: 'zero-byte exchanges with rank XOR 2^k among the largest power of two p2 <= n; ranks from p2 up check in with rank − p2 first and are released by it last',
  source: 'Open MPI tuned barrier recursive doubling; SimGrid SMPI ompi_recursivedoubling',
  ...UNRESTRICTED,
  params: [smpParam('impi barrier selector (ompi_recursivedoubling)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const p2 = floorPow2(n);
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const none = b.region(RECV, 0, 0);
    for (let r = 0; r < n; r++) {
      // The check-in and the release share one tag, as in Open MPI: the release is the second message.
      if (r >= p2) b.sendrecv(r, r - p2, none, r - p2, none, CHECK_IN);
      else if (r < n - p2) b.recv(r, r + p2, none, CHECK_IN);
      if (r < p2) for (let mask = 1; mask < p2; mask <<= 1) b.sendrecv(r, r ^ mask, none, r ^ mask, none, EXCHANGE);
      if (r < n - p2) b.send(r, r + p2, none, CHECK_IN);
    }
    return b.finish();
  },
});
