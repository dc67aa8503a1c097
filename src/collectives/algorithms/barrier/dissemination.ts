/**
 * barrier `dissemination` (Hensgen, Finkel, Manber): ceil(log2 n) rounds; round k sends to r+2^k, receives from r-2^k.
 * smp=true: init_smp's messages first (SimGrid SMPI's `mpich_smp` barrier on one rank per host: ompi_bruck over the leaders).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { bruckSteps, mod, UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'dissemination',
  collective: 'barrier',
  description: 'ceil(log2 n) rounds of zero-byte messages to rank+2^k',
  source: 'classic',
  ...UNRESTRICTED,
  params: [smpParam('mpich_smp barrier')],
  // Issue 29: rank-rotation-equivariant: per round k a zero-byte send to r+k and its receive from r−k (tag k).
  rotation(ctx) {
    if (ctx.params.smp === true) return undefined;
    const n = ctx.ranks;
    return {
      opsPerRank: 2 * bruckSteps(n),
      forEachOp(r, visit) {
        for (let k = 1; k < n; k <<= 1) {
          visit('send', mod(r + k, n), 0, k);
          visit('recv', mod(r - k, n), 0, k);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const none = b.region(RECV, 0, 0);
    for (let r = 0; r < n; r++) for (let k = 1; k < n; k <<= 1) b.sendrecv(r, mod(r + k, n), none, mod(r - k, n), none, k);
    return b.finish();
  },
});
