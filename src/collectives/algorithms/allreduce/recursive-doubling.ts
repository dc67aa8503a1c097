/**
 * allreduce `recursive-doubling`: log2 p2 whole-buffer exchanges with rank XOR 2^k; non-powers of two fold
 * the extra ranks in first and out last. smp=true: SimGrid SMPI's `mvapich2_two_level` on one rank per host
 * (allreduce-mvapich-two-level.cpp, inter-leader MV2_Allreducection rdb when no mvapich2 table set it):
 * init_smp's messages, then this over the leaders, which are every rank in order.
 */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { foldIn, foldOut, recursiveDoubling, seedAccumulators } from '../reduction.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'allreduce',
  description: 'log2(n) whole-buffer exchanges (plus a fold step when n is not a power of two)',
  source: 'classic',
  supportsText: 'any rank count and topology',
  supports: () => undefined,
  params: [
    smpParam('mvapich2_two_level allreduce'),
    {
      key: 'fold',
      kind: 'choice',
      choices: ['odd-out', 'even-out'],
      default: 'odd-out',
      description: 'non-powers of two: which of the first 2·(n − p2) ranks sit out, odd or even (SimGrid SMPI rdb, allreduce-rdb.cpp: even ranks send to rank + 1)',
    },
  ],
  // Issue 29: on a power of two (no fold) rank r's ops are rank 0's with peers XORed with r: the
  // copy of the whole buffer, then per mask a send and its receive (tag 5) and a reduce.
  rotation(ctx) {
    const n = ctx.ranks;
    if (n < 2 || !isPowerOfTwo(n) || ctx.params.smp === true) return undefined;
    const steps = Math.log2(n);
    return {
      action: 'xor',
      opsPerRank: 1 + 3 * steps,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        for (let mask = 1; mask < n; mask <<= 1) {
          visit('send', r ^ mask, ctx.size, 5);
          visit('recv', r ^ mask, ctx.size, 5);
          visit('reduce', r, ctx.size, 0);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const whole = seedAccumulators(b, n, ctx.size, RECV);
    const w = { b, n, real: (v: number) => v, acc: RECV, tmp, bounds: [0, ctx.size] };
    const evenOut = ctx.params.fold === 'even-out';
    const { p2, rem, vOf } = foldIn(w, whole, evenOut);
    recursiveDoubling(w, p2, vOf, whole);
    foldOut(w, rem, whole, evenOut);
    return b.finish();
  },
});
