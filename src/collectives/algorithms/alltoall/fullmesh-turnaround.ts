/**
 * alltoall `fullmesh-turnaround` (seed 001): each block i→j is split into K+1 pieces; piece 0 goes
 * over the direct link, piece u ≥ 1 over the 1-hop link via the u-th turnaround node (the
 * lowest-numbered ranks other than i and j, [0108]), as one cut-through transfer. The document
 * gives no stand-alone 1-hop alltoall (§2.8); this is its 1-to-1 split applied to every pair, and
 * shows why the patent keeps alltoall on direct links: every link is already busy, so the 1-hop
 * pieces roughly double the bytes on the wire (docs/seed-algorithms.md).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { fullMeshRefusal, pieceRegion, turnaroundNodes, viaHint } from '../fullmesh.js';

registerAlgorithm({
  name: 'fullmesh-turnaround',
  collective: 'alltoall',
  description: 'seed 001: every block split over the direct link and K 1-hop links (cut-through turnaround)',
  supportsText: 'full mesh of 3 or more ranks; 0 ≤ K ≤ N−2',
  source: 'seed 001 (JP 2020-046713), applied to alltoall',
  params: [{ key: 'K', kind: 'int', default: -1, min: -1, description: 'turnaround nodes per pair; -1 = N−2 (all)' }],
  supports(ctx) {
    const K = ctx.params.K as number;
    if (K > ctx.ranks - 2) return `K ≤ N−2 = ${ctx.ranks - 2}, got ${K}`;
    const pieces = (K < 0 ? ctx.ranks - 2 : K) + 1;
    if (ctx.size < pieces) return `size ${ctx.size} B cannot be split into ${pieces} pieces`;
    return fullMeshRefusal(ctx.topology);
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const K = (ctx.params.K as number) < 0 ? n - 2 : (ctx.params.K as number);
    const B = ctx.size;
    const b = newBuilder({ expectedOps: 2 * n * n * (K + 1) });
    const direct = b.hint('direct');
    for (let i = 0; i < n; i++) b.copy(i, b.block(SEND, i), b.block(RECV, i));
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const via = turnaroundNodes(n, 0, K, [i, j]);
        for (let u = 0; u <= K; u++) {
          b.send(i, j, pieceRegion(b, SEND, j * B, B, K + 1, u), u, 0, u === 0 ? direct : viaHint(b, ctx.topology, via[u - 1]));
          b.recv(j, i, pieceRegion(b, RECV, i * B, B, K + 1, u), u);
        }
      }
    }
    return b.finish();
  },
});
