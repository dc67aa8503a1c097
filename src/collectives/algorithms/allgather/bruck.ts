/**
 * allgather `bruck`: ceil(log2 n) steps for any n; W[i] holds rank r+i's block, rotated into recv at
 * the end. smp=true: init_smp's messages first (SimGrid SMPI's mvapich2_smp allgather on one rank per
 * host, where MPICH's choice over the leaders is bruck).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { bruckSteps, mod, rotatedBlocks, UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'bruck',
  collective: 'allgather',
  description: 'ceil(log2 n) steps: receive from rank+k the k blocks it holds (any rank count)',
  source: 'classic (Bruck et al.)',
  supportsText: UNRESTRICTED.supportsText,
  supports: UNRESTRICTED.supports,
  params: [smpParam('mvapich2_smp allgather (bruck over the leaders)')],
  // Issue 29: rank-rotation-equivariant for any n: the copy of its block, per step k a send of
  // min(k, n−k) blocks to r−k and their receive from r+k (tag k), the rotation into recv.
  rotation(ctx) {
    const n = ctx.ranks;
    const B = ctx.size;
    if (ctx.params.smp === true) return undefined;
    return {
      opsPerRank: 2 + 2 * bruckSteps(n),
      forEachOp(r, visit) {
        visit('copy', r, B, 0);
        for (let k = 1; k < n; k <<= 1) {
          const cnt = Math.min(k, n - k);
          visit('send', mod(r - k, n), cnt * B, k);
          visit('recv', mod(r + k, n), cnt * B, k);
        }
        visit('copy', r, n * B, 0);
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const W = b.tmpBuffer('work', n * B);
    for (let r = 0; r < n; r++) {
      b.copy(r, b.region(SEND, 0, B), b.region(W, 0, B));
      for (let k = 1; k < n; k <<= 1) {
        const cnt = Math.min(k, n - k);
        b.sendrecv(r, mod(r - k, n), b.region(W, 0, cnt * B), mod(r + k, n), b.region(W, k * B, cnt * B), k);
      }
      b.copy(r, b.region(W, 0, n * B), b.extents(rotatedBlocks(RECV, r, n, B)));
    }
    return b.finish();
  },
});
