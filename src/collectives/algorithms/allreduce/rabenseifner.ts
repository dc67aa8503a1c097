/**
 * allreduce `rabenseifner`: recursive-halving reduce-scatter then recursive-doubling allgather (fold step
 * for non-powers of two). allgather=linear: the allgather is SimGrid SMPI's default one instead (its
 * iallgather: every rank isends its segment to and irecvs from every other rank in rank order, then a
 * waitall), as SMPI's `rab1` (allreduce-rab1.cpp, far-first halving, powers of two) calls MPI_Allgather.
 * smp=true: init_smp's messages first: with order=near-first SMPI's `smp_rsag_rab` on one rank per host
 * (allreduce-smp-rsag-rab.cpp, powers of two, a whole number of elements per rank), with allgather=linear
 * the impi selector's rab1.
 */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { floorPow2, segmentBounds, unitOf } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { equalRingSegment, foldIn, foldOut, HALVING_ORDERS, recursiveDoublingGather, recursiveHalving, seedAccumulators, segs, type HalvingOrder } from '../reduction.js';

registerAlgorithm({
  name: 'rabenseifner',
  collective: 'allreduce',
  description: 'recursive-halving reduce-scatter + recursive-doubling allgather, 2 log2(n) steps',
  source: 'classic (Rabenseifner); SimGrid SMPI rab_rdb, rab1 (allgather=linear)',
  supportsText: 'any rank count and topology; allgather=linear or smp=true: a power of two and a size of a whole number of elements per rank',
  supports(ctx) {
    const n = ctx.ranks;
    if (ctx.params.smp === true && ctx.params.allgather !== 'linear') {
      // SMPI's smp_rsag_rab throws on other rank counts and halves count / 2, count / 4, ... elements.
      if (!isPowerOfTwo(n)) return `a power-of-two rank count with smp=true (SMPI smp_rsag_rab refuses others), got ${n}`;
      if ((ctx.size / unitOf(ctx)) % n !== 0) return `a size of a multiple of ${n} ${ctx.dtype} elements with smp=true (SMPI smp_rsag_rab), got ${ctx.size} B`;
      return undefined;
    }
    if (ctx.params.allgather !== 'linear') return undefined;
    // SMPI's rab1 throws on other rank counts, and pads an uneven count to whole segments (not modelled).
    if (!isPowerOfTwo(n)) return `a power-of-two rank count with allgather=linear (SMPI rab1 refuses others), got ${n}`;
    const units = ctx.size / unitOf(ctx);
    if (units % n !== 0) return `a size of a multiple of ${n} ${ctx.dtype} elements with allgather=linear, got ${ctx.size} B`;
    return undefined;
  },
  params: [
    smpParam('smp_rsag_rab allreduce (order=near-first), or the impi selector\'s rab1 (allgather=linear)'),
    {
      key: 'order',
      kind: 'choice',
      choices: [...HALVING_ORDERS],
      default: 'far-first',
      description: 'halving partners: far-first (MPICH: rank XOR p/2 first) or near-first (SimGrid SMPI rab_rdb: rank XOR 1 first)',
    },
    {
      key: 'fold',
      kind: 'choice',
      choices: ['odd-out', 'even-out'],
      default: 'odd-out',
      description: 'non-powers of two: which of the first 2·(n − p2) ranks sit out, odd or even (MPICH\'s allreduce and SimGrid SMPI rab_rdb: even ranks send to rank + 1)',
    },
    {
      key: 'allgather',
      kind: 'choice',
      choices: ['recursive-doubling', 'linear'],
      default: 'recursive-doubling',
      description: "recursive-doubling: the halving undone; linear: SMPI's default allgather, every segment to every rank at once (SMPI rab1 with order=far-first)",
    },
  ],
  // Issue 29: on a power of two (no fold) with n equal segments, rank r's ops are rank 0's with
  // peers XORed with r (the segments it keeps differ, their sizes do not): the copy of the whole
  // buffer; per halving step a send of the half it gives, the receive of the half it keeps and its
  // reduce (tag 6); per gather step, in reverse, a send and a receive of what each side holds (tag 7).
  rotation(ctx) {
    const n = ctx.ranks;
    const seg = equalRingSegment(ctx);
    if (n < 2 || !isPowerOfTwo(n) || seg === undefined || ctx.params.allgather === 'linear' || ctx.params.smp === true) return undefined;
    const steps = Math.log2(n);
    const masks = Array.from({ length: steps }, (_, i) => (ctx.params.order === 'near-first' ? 1 << i : n >> (i + 1)));
    return {
      action: 'xor',
      opsPerRank: 1 + 5 * steps,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        masks.forEach((mask, i) => {
          const bytes = (n >> (i + 1)) * seg;
          visit('send', r ^ mask, bytes, 6);
          visit('recv', r ^ mask, bytes, 6);
          visit('reduce', r, bytes, 0);
        });
        for (let i = steps - 1; i >= 0; i--) {
          const bytes = (n >> (i + 1)) * seg;
          visit('send', r ^ masks[i], bytes, 7);
          visit('recv', r ^ masks[i], bytes, 7);
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
    const w = { b, n, real: (v: number) => v, acc: RECV, tmp, bounds: segmentBounds(ctx.size, floorPow2(n), unitOf(ctx)) };
    const evenOut = ctx.params.fold === 'even-out';
    const { p2, rem, vOf } = foldIn(w, whole, evenOut);
    const halving = recursiveHalving(w, p2, vOf, ctx.params.order as HalvingOrder);
    if (ctx.params.allgather === 'linear') {
      // A power of two (supports): rank r holds the segment its halving left it, far-first segment r.
      const last = halving.kept[halving.kept.length - 1] ?? new Int32Array(1);
      for (let r = 0; r < n; r++) {
        for (let to = 0; to < n; to++) {
          if (to === r) continue;
          b.isend(r, to, segs(w, RECV, last[r], last[r] + 1), 12);
          b.irecv(r, to, segs(w, RECV, last[to], last[to] + 1), 12);
        }
        if (n > 1) b.waitall(r);
      }
      return b.finish();
    }
    recursiveDoublingGather(w, p2, vOf, halving);
    foldOut(w, rem, whole, evenOut);
    return b.finish();
  },
});
