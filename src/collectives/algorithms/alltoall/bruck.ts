/**
 * alltoall `bruck`: ceil(log2 n) steps of merged messages (Bruck et al. 1997). Local rotation into
 * a work buffer W (W[i] = block for rank r+i), then for each bit k the blocks whose index has bit k
 * go to rank r+k and the same slots are refilled from rank r-k; finally W[i] (from rank r-i) lands in recv[r-i].
 * smp=true: init_smp's messages first (SimGrid SMPI's impi alltoall selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { bruckSteps, mod, rotatedBlocks, UNRESTRICTED } from '../common.js';
import { initSmpEstimate, smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'bruck',
  collective: 'alltoall',
  description: 'log2(n) steps, each one merged message of the blocks whose index has bit k set (non-contiguous region)',
  source: 'classic (Bruck et al.)',
  ...UNRESTRICTED,
  params: [smpParam('impi alltoall selector (bruck)')],
  // n copies of a block, a send and a receive per step, the rotation into W: per rank n + 2·steps + 1 ops.
  estimate: (ctx) => {
    const smp = ctx.params.smp === true ? initSmpEstimate(ctx.ranks) : { ops: 0, messages: 0 };
    return { ops: ctx.ranks * (ctx.ranks + 2 * bruckSteps(ctx.ranks) + 1) + smp.ops, messages: ctx.ranks * bruckSteps(ctx.ranks) + smp.messages };
  },
  // Issue 29: rank-rotation-equivariant for any n (step k's blocks, those whose index has bit k,
  // number alike on every rank): the rotation into W, per step k a send to r+k and a receive from
  // r−k (tag k) of those blocks, then n copies of a block into recv.
  rotation(ctx) {
    if (ctx.params.smp === true) return undefined;
    const n = ctx.ranks;
    const B = ctx.size;
    return {
      opsPerRank: n + 2 * bruckSteps(n) + 1,
      forEachOp(r, visit) {
        visit('copy', r, n * B, 0);
        for (let k = 1; k < n; k <<= 1) {
          const bytes = blocksWithBit(n, k) * B;
          visit('send', mod(r + k, n), bytes, k);
          visit('recv', mod(r - k, n), bytes, k);
        }
        for (let i = 0; i < n; i++) visit('copy', r, B, 0);
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
      // W[i] = send[(r + i) mod n]: at most two contiguous pieces.
      b.copy(r, b.extents(rotatedBlocks(SEND, r, n, B)), b.region(W, 0, n * B));
      for (let k = 1; k < n; k <<= 1) {
        const idx: number[] = [];
        for (let i = 0; i < n; i++) if (i & k) idx.push(i);
        const reg = b.blocks(W, idx, B);
        b.sendrecv(r, mod(r + k, n), reg, mod(r - k, n), reg, k);
      }
      // recv[(r - i) mod n] = W[i].
      for (let i = 0; i < n; i++) b.copy(r, b.region(W, i * B, B), b.block(RECV, mod(r - i, n)));
    }
    return b.finish();
  },
});

/** Block indices i in [0, n) with bit k set: floor(n / 2k)·k full runs, plus the partial last one. */
function blocksWithBit(n: number, k: number): number {
  return Math.floor(n / (2 * k)) * k + Math.max(0, (n % (2 * k)) - k);
}
