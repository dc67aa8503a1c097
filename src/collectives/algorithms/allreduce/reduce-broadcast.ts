/**
 * allreduce `reduce-broadcast`: a reduce to rank 0, then the broadcast `binomial` from rank 0.
 * - reduce=linear: the reduce `linear` (every rank sends its buffer to rank 0, which has every receive
 *   posted at once): SimGrid SMPI's default allreduce (smpi_default_selector.cpp: reduce default, i.e.
 *   ireduce, then bcast binomial_tree) and its `redbcast` with SMPI's default reduce and bcast.
 * - reduce=binomial: the reduce `recursive-doubling` (a binomial tree, blocking receives from rank + 1,
 *   rank + 2, rank + 4, ...): SMPI's `smp_binomial` on one rank per host (allreduce-smp-binomial.cpp, with
 *   smp=true). pipeline=E > 0: in segments of E elements, segment k going up the tree while segment k − 1
 *   comes down (SMPI's `smp_binomial_pipeline`, allreduce-smp-binomial-pipeline.cpp: 4096 elements, with smp=true).
 * smp=true: init_smp's messages first (the SMP algorithms above, and SMPI's impi allreduce selector, which
 * builds the SMP communicators before it runs redbcast).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND, type ScheduleBuilder } from '../../schedule.js';
import { binomialTree } from '../binomial-tree.js';
import { unitOf } from '../common.js';
import { linearReduce } from '../reduction.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

/**
 * SMPI's redbcast with its default reduce and bcast over bytes [offset, offset + bytes) of the buffers: every
 * rank sends them to rank 0, which has every receive posted at once, then the binomial broadcast from rank 0
 * (children from the farthest subtree down, as broadcast `binomial`).
 */
export function smpiRedbcast(b: ScheduleBuilder, n: number, offset: number, bytes: number): void {
  const all = b.region(RECV, offset, bytes);
  linearReduce(b, n, 0, bytes, b.tmpBuffer('slots', n * bytes), all, offset);
  for (const { rank: r, parent, children } of binomialTree(n, 0)) {
    if (parent >= 0) b.recv(r, parent, all);
    for (const c of [...children].reverse()) b.send(r, c.rank, all);
  }
}

registerAlgorithm({
  name: 'reduce-broadcast',
  collective: 'allreduce',
  description: 'a reduce to rank 0 (linear: every rank sends to it, SMPI default; binomial: up a binomial tree), then a binomial broadcast of the result',
  source: 'SimGrid SMPI default allreduce (ireduce, then binomial_tree), redbcast, smp_binomial and smp_binomial_pipeline (reduce=binomial)',
  supportsText: 'any rank count and topology; pipeline: reduce=binomial and a size of whole segments (or at most one)',
  params: [
    smpParam('impi allreduce selector (redbcast), smp_binomial and smp_binomial_pipeline'),
    { key: 'reduce', kind: 'choice', choices: ['linear', 'binomial'], default: 'linear', description: 'linear: every rank sends to rank 0 at once (SMPI ireduce); binomial: up a binomial tree (SMPI smp_binomial)' },
    { key: 'pipeline', kind: 'int', default: 0, min: 0, max: 2 ** 30, description: 'elements per pipeline segment with reduce=binomial (SMPI smp_binomial_pipeline: 4096); 0: the whole buffer at once' },
  ],
  supports(ctx) {
    const pipeline = ctx.params.pipeline as number;
    if (pipeline === 0) return undefined;
    if (ctx.params.reduce !== 'binomial') return `reduce=binomial with pipeline=${pipeline} (the pipeline is SMPI smp_binomial_pipeline's)`;
    const count = ctx.size / unitOf(ctx);
    // SMPI's smp_binomial_pipeline runs count / segment whole segments and leaves the rest unreduced.
    if (count > pipeline && count % pipeline !== 0) return `a size of whole ${pipeline}-element segments with pipeline=${pipeline} (SMPI smp_binomial_pipeline leaves the rest unreduced), got ${count} elements`;
    return undefined;
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const all = b.region(RECV, 0, ctx.size);
    const tree = binomialTree(n, 0);
    if (ctx.params.reduce !== 'binomial') {
      smpiRedbcast(b, n, 0, ctx.size);
      return b.finish();
    }
    const unit = unitOf(ctx);
    const segBytes = Math.min(ctx.size, (ctx.params.pipeline as number) * unit || ctx.size);
    const segments = segBytes === 0 ? 1 : ctx.size / segBytes;
    const tmp = b.tmpBuffer('tmp', segBytes);
    const seg = (k: number) => b.region(RECV, k * segBytes, segBytes);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), all);
    // Per rank, step q reduces segment q up the tree (blocking receives nearest child first, then the
    // send to the parent) and broadcasts segment q − 1 down it. Every send is an MPI_Send of its own,
    // never a sendrecv's, though a receive may follow it (SMPI charges it smpi/os).
    for (const { rank: r, parent, children } of tree) {
      for (let q = 0; q <= segments; q++) {
        if (q < segments) {
          for (const c of children) {
            b.recv(r, c.rank, b.region(tmp, 0, segBytes), 20);
            b.reduce(r, b.region(tmp, 0, segBytes), seg(q));
          }
          if (parent >= 0) b.separateSend(r, parent, seg(q), 20);
        }
        if (q >= 1) {
          if (parent >= 0) b.recv(r, parent, seg(q - 1), 21);
          for (const c of [...children].reverse()) b.separateSend(r, c.rank, seg(q - 1), 21);
        }
      }
    }
    return b.finish();
  },
});
