/**
 * broadcast `fullmesh-multicast` (seed 001, spec/seed001_fullmesh.md §2.3/§2.4).
 * - embodiment=3 (§2.3, 図11–15): K = N pieces, the sender included as a turnaround node. Piece c
 *   goes to turnaround t_c (t_0 = the sender, then sender+1, ... [0108]); the sender scatters the
 *   pieces c ≥ 1 (step 2), each turnaround replicates its piece to every receiver except the sender
 *   and itself (steps 3–4), and the sender multicasts its own piece last (図13).
 * - embodiment=6 (§2.4, 図39): 1 ≤ K ≤ N−1 turnaround nodes, the sender excluded (sender+1, ...);
 *   receivers that are not turnaround nodes get every piece over 1-hop links only.
 * forward=cut-through (default): the replication happens in the turnaround node's switch, written
 * as one send from the sender via t_c fanning out (the turnaround also keeps a copy, 図14 wire 1703);
 * forward=store: t_c receives the piece, then multicasts it (store-and-forward, 1st embodiment).
 */
import { registerAlgorithm } from '../../registry.js';
import type { Topology } from '../../../topology/graph.js';
import { RECV, SEND, type ScheduleBuilder } from '../../schedule.js';
import { fullMeshRefusal, linkPorts, pieceRegion, turnaroundNodes, viaHint } from '../fullmesh.js';

registerAlgorithm({
  name: 'fullmesh-multicast',
  collective: 'broadcast',
  description: 'seed 001: split into K pieces, scatter to turnaround nodes, each replicates its piece to all (3rd/6th embodiment)',
  supportsText: 'full mesh of 3 or more ranks; embodiment=3: K = N; embodiment=6: 1 ≤ K ≤ N−1',
  source: 'seed 001 (JP 2020-046713)',
  params: [
    { key: 'embodiment', kind: 'int', default: 6, min: 3, max: 6, description: '3: sender is a turnaround node (K = N); 6: sender excluded (K ≤ N−1)' },
    { key: 'K', kind: 'int', default: 0, min: 0, description: 'turnaround nodes; 0 = the maximum (N, or N−1)' },
    { key: 'X', kind: 'int', default: 0, min: 0, description: 'receivers including the sender (付記16), the sender and the next X−1 ranks; 0 = N' },
    { key: 'forward', kind: 'choice', choices: ['cut-through', 'store'], default: 'cut-through', description: 'replicate in the switch (one cut-through transfer) or through memory' },
  ],
  supports(ctx) {
    const n = ctx.ranks;
    const emb = ctx.params.embodiment as number;
    const K = (ctx.params.K as number) || (emb === 3 ? n : n - 1);
    if (emb !== 3 && emb !== 6) return `embodiment 3 or 6, got ${emb}`;
    if (emb === 3 && K !== n) return `embodiment=3 uses K = N = ${n} (sender included), got K=${K}`;
    if (emb === 6 && K > n - 1) return `embodiment=6 uses 1 ≤ K ≤ N−1 = ${n - 1} (sender excluded), got K=${K}`;
    if (ctx.size < K) return `size ${ctx.size} B cannot be split into ${K} pieces`;
    const X = (ctx.params.X as number) || n;
    if (X > n) return `1 ≤ X ≤ N = ${n} receivers, got X=${X}`;
    if (X < n && (emb === 3 || ctx.params.forward === 'store')) return `X < N needs embodiment=6 with forward=cut-through (a turnaround outside the receivers keeps no copy), got X=${X}`;
    return fullMeshRefusal(ctx.topology);
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const root = ctx.root;
    const emb = ctx.params.embodiment as number;
    const K = (ctx.params.K as number) || (emb === 3 ? n : n - 1);
    const store = ctx.params.forward === 'store';
    const turn = emb === 3 ? turnaroundNodes(n, root, n) : turnaroundNodes(n, root + 1, K, [root]);
    const X = (ctx.params.X as number) || n;
    const receivers = turnaroundNodes(n, root, X);
    const parts = X < n ? { parts: [{ collective: 'broadcast' as const, ranks: receivers, size: ctx.size, root }] } : {};
    const b = newBuilder({ expectedOps: 4 * n * K, streams: linkPorts(K), ...parts });
    emitMulticast(b, ctx.topology, root, ctx.size, turn, store, receivers);
    return b.finish();
  },
});

/**
 * The multicast of the root's buffer through turnaround nodes `turn` (piece c via turn[c]; a piece
 * whose turnaround is the root goes straight to every receiver over the direct links, last, as in
 * 図13). `turn = [root]` is the direct-only multicast of the related full mesh (図47). A turnaround
 * outside `receivers` (X < N, 付記16) relays in its switch and keeps no copy. The data lands at
 * `recvBase` in every receive buffer (an allgather's block of the root).
 */
export function emitMulticast(b: ScheduleBuilder, topology: Topology, root: number, S: number, turn: readonly number[], store: boolean, receivers?: readonly number[], recvBase = 0): void {
  const n = topology.numEndpoints;
  const K = turn.length;
  const isReceiver = (r: number): boolean => receivers === undefined || receivers.includes(r);
  b.copy(root, b.region(SEND, 0, S), b.region(RECV, recvBase, S));
  // Sender's own piece (embodiment 3) goes last, as in 図13; the scatter first.
  const order = turn.map((t, c) => c).sort((x, y) => Number(turn[x] === root) - Number(turn[y] === root));
  for (const c of order) {
    const t = turn[c];
    const others = Array.from({ length: n }, (_, r) => r).filter((r) => r !== root && r !== t && isReceiver(r));
    if (t === root) {
      b.send(root, others, pieceRegion(b, SEND, 0, S, K, c), c, c % b.streams, b.hint('direct'));
      for (const r of others) b.recv(r, root, pieceRegion(b, RECV, recvBase, S, K, c), c);
    } else if (store) {
      b.send(root, t, pieceRegion(b, SEND, 0, S, K, c), c, c % b.streams, b.hint('direct'));
      b.recv(t, root, pieceRegion(b, RECV, recvBase, S, K, c), c);
      if (others.length) b.send(t, others, pieceRegion(b, RECV, recvBase, S, K, c), c, 0, b.hint('direct'));
      for (const r of others) b.recv(r, t, pieceRegion(b, RECV, recvBase, S, K, c), c);
    } else {
      const dests = isReceiver(t) ? [t, ...others] : others;
      if (dests.length === 0) continue;
      b.send(root, dests, pieceRegion(b, SEND, 0, S, K, c), c, c % b.streams, viaHint(b, topology, t));
      for (const r of dests) b.recv(r, root, pieceRegion(b, RECV, recvBase, S, K, c), c);
    }
  }
}
