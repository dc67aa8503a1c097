/** reduce-scatter `pairwise`: n-1 steps; in step k rank r sends block r+k to r+k and reduces block r from r-k. * smp=true: init_smp's messages first (SimGrid SMPI's impi reduce-scatter selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'pairwise',
  collective: 'reduce-scatter',
  description: 'n-1 direct exchange steps (shift), each reducing one incoming block',
  supportsText: 'any rank count and topology (size divisible by ranks x element size)',
  source: 'classic',
  params: [smpParam('impi reduce_scatter selector (mpich_pair)')],
  supports: () => undefined,
  // Issue 29: rank-rotation-equivariant (equal blocks, which the size check guarantees): the copy
  // of its own block, per step k a send to r+k, the receive from r−k and a reduce, one block each.
  rotation(ctx) {
    if (ctx.params.smp === true) return undefined;
    const n = ctx.ranks;
    const B = ctx.size / n;
    return {
      opsPerRank: 1 + 3 * (n - 1),
      forEachOp(r, visit) {
        visit('copy', r, B, 0);
        for (let k = 1; k < n; k++) {
          visit('send', mod(r + k, n), B, 0);
          visit('recv', mod(r - k, n), B, 0);
          visit('reduce', r, B, 0);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size / n;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const tmp = b.tmpBuffer('tmp', B);
    const mine = b.region(RECV, 0, B);
    const t = b.region(tmp, 0, B);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, r * B, B), mine);
    for (let k = 1; k < n; k++) {
      for (let r = 0; r < n; r++) {
        b.sendrecv(r, mod(r + k, n), b.region(SEND, mod(r + k, n) * B, B), mod(r - k, n), t);
        b.reduce(r, t, mine);
      }
    }
    return b.finish();
  },
});
