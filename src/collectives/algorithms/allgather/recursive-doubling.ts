/**
 * allgather `recursive-doubling`: ceil(log2 n) steps; in step `mask` rank r swaps the blocks it holds
 * (its aligned range of mask blocks) with r XOR mask. For a rank count that is not a power of two,
 * MPICH's variant (SimGrid SMPI's allgather `rdb`, allgather-rdb.cpp): a partner past n is skipped,
 * and the ranks of a subtree whose partner subtree is cut short pass the blocks they lack down a
 * binomial tree inside the subtree, from those that received them. smp=true: init_smp's messages first
 * (SimGrid SMPI's mvapich2 allgather selector, which builds the SMP communicators, then runs rdb).
 * order=far-first (a power of two): SMPI's `rhv` (allgather-rhv.cpp): rank r first swaps its block with
 * rank bitreverse(r), which lays the blocks out so that every later range is contiguous, then swaps
 * doubling ranges with r XOR n/2, r XOR n/4, ..., r XOR 1.
 */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV, SEND, type ScheduleBuilder } from '../../schedule.js';
import { mpichRecursiveDoublingAllgather } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'allgather',
  description: 'ceil(log2 n) exchanges with rank XOR 2^k of doubling block ranges (MPICH tree fix-up when n is not a power of two)',
  source: 'classic; non-powers of two as MPICH / SimGrid SMPI allgather rdb',
  supportsText: 'any rank count and topology (order=far-first: a power of two)',
  supports: (ctx) => (ctx.params.order === 'far-first' && !isPowerOfTwo(ctx.ranks) ? `order=far-first needs a power-of-two rank count, got ${ctx.ranks} (SMPI's rhv throws there too)` : undefined),
  params: [
    {
      key: 'order',
      kind: 'choice',
      choices: ['near-first', 'far-first'],
      default: 'near-first',
      description: 'near-first: partners rank XOR 1, 2, 4, ...; far-first (a power of two): a swap with rank bitreverse(r), then XOR n/2, n/4, ..., 1 (SMPI rhv)',
    },
    smpParam('mvapich2 allgather selector (rdb)'),
  ],
  // Issue 29: rank r's ops are rank 0's with peers XORed with r (its block and the ranges it swaps
  // have the same sizes on every rank): the copy of its block, per mask a send and a receive of mask blocks.
  rotation(ctx) {
    const n = ctx.ranks;
    if (!isPowerOfTwo(n) || ctx.params.smp === true || ctx.params.order === 'far-first') return undefined;
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
    if (ctx.params.order === 'far-first') {
      farFirst(b, n);
      return b.finish();
    }
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.block(RECV, r));
    mpichRecursiveDoublingAllgather(
      n,
      new Array<number>(n).fill(1),
      (r, p, ownFirst, ownBlocks, partnerFirst, partnerBlocks) => b.sendrecv(r, p, b.block(RECV, ownFirst, ownBlocks), p, b.block(RECV, partnerFirst, partnerBlocks)),
      (from, to, first, blocks) => {
        // MPICH's tree step is an MPI_Send of its own, whatever the sender receives next.
        b.separateSend(from, to, b.block(RECV, first, blocks));
        b.recv(to, from, b.block(RECV, first, blocks));
      },
    );
    return b.finish();
  },
});

/**
 * SMPI's rhv on n = 2^m ranks: rank r's block goes to position bitreverse(r) of rank bitreverse(r) (a
 * copy where they are the same rank), then per mask n/2 down to 1 rank r swaps the range it holds,
 * from its base on, with r XOR mask, which holds the adjacent range (its base moves down when r has
 * the mask's bit).
 */
function farFirst(b: ScheduleBuilder, n: number): void {
  for (let r = 0; r < n; r++) {
    let base = 0;
    let mask = 1;
    for (let size = n / 2; mask < n; mask <<= 1, size /= 2) if (r & mask) base += size;
    if (base === r) b.copy(r, b.region(SEND, 0, b.blockBytes), b.block(RECV, r));
    else b.sendrecv(r, base, b.region(SEND, 0, b.blockBytes), base, b.block(RECV, base));
    for (let m = mask >> 1, held = 1; m >= 1; m >>= 1, held *= 2) {
      const partnerBase = r & m ? base - held : base + held;
      b.sendrecv(r, r ^ m, b.block(RECV, base, held), r ^ m, b.block(RECV, partnerBase, held));
      if (r & m) base = partnerBase;
    }
  }
}
