/**
 * 1-to-1 `fullmesh-split` (seed 001, spec/seed001_fullmesh.md §2.1/§2.2, 付記15): the message is
 * split into K+L pieces; with L = 1 column 0 takes the direct link, and the other columns go to
 * the K lowest-numbered other ranks as turnaround nodes ([0108]; 図38: sender 1, receiver 2,
 * turnaround 3), each forwarded in their switch to the receiver (one cut-through transfer).
 */
import { registerAlgorithm } from '../../registry.js';
import type { Topology } from '../../../topology/graph.js';
import { RECV, SEND, type ScheduleBuilder } from '../../schedule.js';
import { fullMeshRefusal, linkPorts, pieceRegion, turnaroundNodes, viaHint } from '../fullmesh.js';

registerAlgorithm({
  name: 'fullmesh-split',
  collective: 'one-to-one',
  description: 'seed 001: the message split over L direct and K 1-hop links through turnaround nodes',
  supportsText: 'full mesh of 3 or more ranks; 1 ≤ K ≤ N−2 (or K = 0 with L = 1), L = 0 or 1',
  source: 'seed 001 (JP 2020-046713)',
  params: [
    { key: 'K', kind: 'int', default: -1, min: -1, description: 'turnaround nodes; -1 = N−2 (all)' },
    { key: 'L', kind: 'int', default: 1, min: 0, max: 1, description: 'direct links used (0 or 1)' },
  ],
  supports(ctx) {
    const K = ctx.params.K as number;
    const L = ctx.params.L as number;
    if (K > ctx.ranks - 2) return `K ≤ N−2 = ${ctx.ranks - 2}, got ${K}`;
    const k = K < 0 ? ctx.ranks - 2 : K;
    if (k + L === 0) return 'at least one path (K ≥ 1 or L = 1)';
    if (ctx.size < k + L) return `size ${ctx.size} B cannot be split into ${k + L} pieces`;
    return fullMeshRefusal(ctx.topology);
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const K = (ctx.params.K as number) < 0 ? n - 2 : (ctx.params.K as number);
    const L = ctx.params.L as number;
    const { root: src, peer: dst, size: S } = ctx;
    const b = newBuilder({ expectedOps: 2 * (K + L), streams: linkPorts(K + L) });
    emitOneToOneSplit(b, ctx.topology, src, dst, S, turnaroundNodes(n, 0, K, [src, dst]), L);
    return b.finish();
  },
});

/** The 1-to-1 split: piece 0 over the direct link when L = 1, then one piece through each of `via` in order, each piece on its own port (stream) when the builder has them. */
export function emitOneToOneSplit(b: ScheduleBuilder, topology: Topology, src: number, dst: number, S: number, via: readonly number[], L: number): void {
  const pieces = via.length + L;
  for (let c = 0; c < pieces; c++) {
    const hint = c < L ? b.hint('direct') : viaHint(b, topology, via[c - L]);
    b.send(src, dst, pieceRegion(b, SEND, 0, S, pieces, c), c, c % b.streams, hint);
    b.recv(dst, src, pieceRegion(b, RECV, 0, S, pieces, c), c);
  }
}
