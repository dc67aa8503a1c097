/**
 * barrier `tree`: Open MPI's tree barrier, SimGrid SMPI's `ompi_tree` (barrier-ompi.cpp): up a binomial
 * tree and back down it. With depth the power of two at or above n: for jump = 1, 2, 4, ... below depth,
 * rank r receives a zero-byte message from r XOR jump when that is above r, and sends one to it when it
 * is below (a partner counts when it is a rank and a multiple of jump); then for jump = depth / 2 down to
 * 1 the same pairs in the other direction: the lower rank sends, the higher receives.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { ceilPow2, UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'tree',
  collective: 'barrier',
  description: 'zero-byte messages up a binomial tree to rank 0 and back down it (Open MPI tree, SMPI ompi_tree)',
  source: 'Open MPI tuned barrier tree; SimGrid SMPI ompi_tree',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const none = b.region(RECV, 0, 0);
    const depth = ceilPow2(n);
    /** The partner of r at `jump`, or -1 where Open MPI skips it. */
    const partnerOf = (r: number, jump: number): number => {
      const p = r ^ jump;
      return (p & (jump - 1)) === 0 && p < n ? p : -1;
    };
    for (let r = 0; r < n; r++) {
      for (let jump = 1; jump < depth; jump <<= 1) {
        const p = partnerOf(r, jump);
        if (p > r) b.recv(r, p, none, 1);
        else if (p >= 0 && p < r) b.send(r, p, none, 1);
      }
      for (let jump = depth >> 1; jump > 0; jump >>= 1) {
        const p = partnerOf(r, jump);
        if (p > r) b.send(r, p, none, 2);
        else if (p >= 0 && p < r) b.recv(r, p, none, 2);
      }
    }
    return b.finish();
  },
});
