/**
 * reduce `rabenseifner`: recursive-halving reduce-scatter (fold step for non-powers of two), then the
 * segments go to the root: directly (gather=direct, every active rank sends its segment) or up a
 * binomial tree (gather=binomial, the halving undone one way: MPICH's and SimGrid SMPI's reduce
 * `scatter_gather` with order=near-first, reduce-scatter-gather.cpp). smp=true: init_smp's messages first
 * (SMPI's `mvapich2_two_level` reduce on one rank per host from 2 KiB, whose inter-leader reduce__mpich runs
 * scatter_gather there).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { floorPow2, rootRelative, segmentBounds, unitOf, UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { binomialGather, foldIn, HALVING_ORDERS, recursiveHalving, seedAccumulators, segmentsToRoot, segs, type HalvingOrder } from '../reduction.js';

registerAlgorithm({
  name: 'rabenseifner',
  collective: 'reduce',
  description: 'recursive-halving reduce-scatter, then a direct or binomial gather of the segments to the root',
  source: 'classic (Rabenseifner; MPICH scatter_gather)',
  ...UNRESTRICTED,
  params: [
    smpParam('mvapich2_two_level reduce'),
    {
      key: 'order',
      kind: 'choice',
      choices: [...HALVING_ORDERS],
      default: 'far-first',
      description: 'halving partners: far-first (rank XOR p/2 first) or near-first (rank XOR 1 first, SMPI scatter_gather)',
    },
    {
      key: 'gather',
      kind: 'choice',
      choices: ['direct', 'binomial'],
      default: 'direct',
      description: 'direct: every active rank sends its segment to the root; binomial: the halving undone toward the root, log2 p steps (SMPI scatter_gather)',
    },
  ],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const acc = b.tmpBuffer('acc', ctx.size);
    const tmp = b.tmpBuffer('tmp', ctx.size);
    const real = rootRelative(ctx.root, n);
    const whole = seedAccumulators(b, n, ctx.size, acc);
    const w = { b, n, real, acc, tmp, bounds: segmentBounds(ctx.size, floorPow2(n), unitOf(ctx)) };
    const { p2, vOf } = foldIn(w, whole);
    const halving = recursiveHalving(w, p2, vOf, ctx.params.order as HalvingOrder);
    if (ctx.params.gather === 'binomial') {
      binomialGather(w, p2, vOf, halving);
      b.copy(ctx.root, whole, segs(w, RECV, 0, p2));
    } else {
      // Active rank nr ends with segment kept[nr] (nr itself far-first; its bit reversal near-first).
      const last = halving.kept[halving.kept.length - 1] ?? new Int32Array(1);
      const holder = new Int32Array(p2);
      for (let nr = 0; nr < p2; nr++) holder[last[nr]] = vOf(nr);
      segmentsToRoot(w, ctx.root, p2, (i) => holder[i]);
    }
    return b.finish();
  },
});
