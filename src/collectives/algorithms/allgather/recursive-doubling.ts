/**
 * allgather `recursive-doubling`: ceil(log2 n) steps; in step `mask` rank r swaps the blocks it holds
 * (its aligned range of mask blocks) with r XOR mask. For a rank count that is not a power of two,
 * MPICH's variant (SimGrid SMPI's allgather `rdb`, allgather-rdb.cpp): a partner past n is skipped,
 * and the ranks of a subtree whose partner subtree is cut short pass the blocks they lack down a
 * binomial tree inside the subtree, from those that received them. smp=true: init_smp's messages first
 * (SimGrid SMPI's mvapich2 allgather selector, which builds the SMP communicators, then runs rdb).
 */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mpichRecursiveDoublingAllgather } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'allgather',
  description: 'ceil(log2 n) exchanges with rank XOR 2^k of doubling block ranges (MPICH tree fix-up when n is not a power of two)',
  source: 'classic; non-powers of two as MPICH / SimGrid SMPI allgather rdb',
  supportsText: 'any rank count and topology',
  supports: () => undefined,
  params: [smpParam('mvapich2 allgather selector (rdb)')],
  // Issue 29: rank r's ops are rank 0's with peers XORed with r (its block and the ranges it swaps
  // have the same sizes on every rank): the copy of its block, per mask a send and a receive of mask blocks.
  rotation(ctx) {
    const n = ctx.ranks;
    if (!isPowerOfTwo(n) || ctx.params.smp === true) return undefined;
    return {
      action: 'xor',
      opsPerRank: 1 + 2 * Math.log2(n),
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        for (let mask = 1; mask < n; mask <<= 1) {
          visit('send', r ^ mask, mask * ctx.size, 0);
          visit('recv', r ^ mask, mask * ctx.size, 0);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.block(RECV, r));
    mpichRecursiveDoublingAllgather(
      n,
      new Array<number>(n).fill(1),
      (r, p, ownFirst, ownBlocks, partnerFirst, partnerBlocks) => b.sendrecv(r, p, b.block(RECV, ownFirst, ownBlocks), p, b.block(RECV, partnerFirst, partnerBlocks)),
      (from, to, first, blocks) => {
        b.send(from, to, b.block(RECV, first, blocks));
        b.recv(to, from, b.block(RECV, first, blocks));
      },
    );
    return b.finish();
  },
});
