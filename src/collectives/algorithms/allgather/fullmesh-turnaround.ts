/**
 * allgather `fullmesh-turnaround` (seed 001, [0100] and 4th embodiment [0094]): the allreduce
 * procedure reversed, "several multicasts from different senders at the same time". Every rank
 * multicasts its block as in the 6th embodiment (§2.4): split into K = N−1 pieces, piece c through
 * turnaround rank+1+c, replicated there to every other rank. Each node is then a turnaround for
 * N−1 senders at once; `M` is how many 1-hop communications one node can turn around at the same
 * time (the 4th embodiment's M distributors, 図31): the senders go in rounds of M, a barrier of all
 * ranks between rounds (M = 1 is the 3rd embodiment).
 */
import { registerAlgorithm } from '../../registry.js';
import { emitMulticast } from '../broadcast/fullmesh-multicast.js';
import { fullMeshRefusal, linkPorts, turnaroundNodes } from '../fullmesh.js';

registerAlgorithm({
  name: 'fullmesh-turnaround',
  collective: 'allgather',
  description: 'seed 001: every rank multicasts its block through the other ranks as turnaround nodes, M senders at a time',
  supportsText: 'full mesh of 3 or more ranks; 1 ≤ M ≤ N',
  source: 'seed 001 (JP 2020-046713, [0100], 4th embodiment M)',
  params: [{ key: 'M', kind: 'int', default: 0, min: 0, description: 'concurrent 1-hop turnarounds per node ([0094]); 0 = N (no limit)' }],
  supports(ctx) {
    const M = (ctx.params.M as number) || ctx.ranks;
    if (M > ctx.ranks) return `1 ≤ M ≤ N = ${ctx.ranks}, got M=${M}`;
    if (ctx.size < ctx.ranks - 1) return `size ${ctx.size} B cannot be split into ${ctx.ranks - 1} pieces`;
    return fullMeshRefusal(ctx.topology);
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const M = (ctx.params.M as number) || n;
    const S = ctx.size;
    const b = newBuilder({ expectedOps: 4 * n * n, streams: linkPorts(n - 1) });
    const everyone = Array.from({ length: n }, (_, r) => r);
    const all = b.group(everyone, 'all');
    for (let first = 0; first < n; first += M) {
      if (first > 0) for (const r of everyone) for (let s = 0; s < b.streams; s++) b.barrier(r, all, s);
      for (let root = first; root < Math.min(n, first + M); root++) {
        emitMulticast(b, ctx.topology, root, S, turnaroundNodes(n, root + 1, n - 1, [root]), false, undefined, root * S);
      }
    }
    return b.finish();
  },
});
