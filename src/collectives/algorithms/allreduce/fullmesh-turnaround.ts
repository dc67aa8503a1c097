/**
 * reduce and allreduce `fullmesh-turnaround` (seed 001, spec/seed001_fullmesh.md §2.5–§2.7):
 * every rank splits its buffer into K pieces the same way (step 1) and sends piece c to turnaround
 * node t_c (step 2, an all-to-all); t_c reduces column c over the received pieces and its own
 * retained piece (step 3), then sends the result to the root (reduce) or, in one distribution
 * operation (分配動作), to every other rank (allreduce) (step 4).
 * - embodiment=4 (and 5: the same schedule; the 5th only moves the adder into the switch, which
 *   changes latency, not data movement): K = N, t_c = anchor + c (column k to node k, keeping its own).
 * - embodiment=6: 1 ≤ K ≤ N, t_c = anchor+1+c cyclically (図41A/B: root node 1, turnarounds 2 and 3).
 * The anchor is the root for reduce and rank 0 for allreduce.
 */
import type { AlgorithmContext } from '../../registry.js';
import { registerAlgorithm } from '../../registry.js';
import { RECV, ScheduleBuilder, SEND, Schedule } from '../../schedule.js';
import { DTYPE_BYTES } from '../../types.js';
import { pieceRange } from '../alltoall/axis-phases.js';
import { fullMeshRefusal, linkPorts, pieceRegion, turnaroundNodes } from '../fullmesh.js';

/** The Y senders (付記17/18): the anchor and the next Y−1 ranks; every rank when Y = 0. */
function senders(ctx: AlgorithmContext): number[] {
  const anchor = ctx.collective === 'reduce' ? ctx.root : 0;
  return turnaroundNodes(ctx.ranks, anchor, (ctx.params.Y as number) || ctx.ranks);
}

function turnarounds(ctx: AlgorithmContext): number[] {
  const n = ctx.ranks;
  const emb = ctx.params.embodiment as number;
  const from = senders(ctx);
  const K = (ctx.params.K as number) || from.length;
  // 6th embodiment: the senders after the anchor first (図41: root node 1, turnarounds 2 and 3).
  return emb === 6 ? [...from.slice(1), from[0]].slice(0, K) : turnaroundNodes(n, from[0], n);
}

function refusal(ctx: AlgorithmContext): string | undefined {
  const n = ctx.ranks;
  const emb = ctx.params.embodiment as number;
  const Y = (ctx.params.Y as number) || n;
  const K = (ctx.params.K as number) || Math.min(Y, n);
  if (![4, 5, 6].includes(emb)) return `embodiment 4, 5 or 6, got ${emb}`;
  if (emb !== 6 && K !== n) return `embodiment=${emb} uses K = N = ${n}, got K=${K}`;
  if (K > n) return `1 ≤ K ≤ N = ${n}, got K=${K}`;
  if (Y > n) return `1 ≤ Y ≤ N = ${n} senders, got Y=${Y}`;
  if (Y < n && (emb !== 6 || K > Y)) return `Y < N needs embodiment=6 with K ≤ Y (turnarounds among the senders), got Y=${Y}, K=${K}`;
  const unit = DTYPE_BYTES[ctx.dtype];
  if (ctx.size % unit !== 0) return `a size that is a whole number of ${ctx.dtype} elements (${unit} B), got ${ctx.size}`;
  if (ctx.size / unit < K) return `at least K = ${K} elements to split, got ${ctx.size / unit}`;
  return fullMeshRefusal(ctx.topology);
}

/**
 * The reduce/allreduce schedule through turnaround nodes `turn` (column c reduced at turn[c]).
 * `turn = [root]` for reduce is the direct-only reduce of the related full mesh (every rank sends
 * its whole buffer to the root over its own link).
 */
export function buildTurnaroundReduction(ctx: AlgorithmContext, newBuilder: (o?: object) => ScheduleBuilder, turn: readonly number[], members: readonly number[] = senders(ctx)): Schedule {
  const n = ctx.ranks;
  const K = turn.length;
  const S = ctx.size;
  const unit = DTYPE_BYTES[ctx.dtype];
  const all = ctx.collective === 'allreduce';
  // The distributed switch drives its N−1 links independently ([0041]): step 2's sends to
  // different turnarounds go out on streams of their own instead of queueing behind each other.
  const ports = linkPorts(n - 1);
  const port = (r: number, t: number): number => (((t - r + n) % n) - 1) % ports;
  const parts = members.length < n ? { parts: [{ collective: ctx.collective, ranks: members, size: ctx.size, root: ctx.root }] } : {};
  const b = newBuilder({ expectedOps: 4 * n * K, streams: ports, ...parts });
  // Incoming columns land in `col` (one slot per sender); partial results of non-root turnarounds in `acc`.
  const col = b.tmpBuffer('col', (n - 1) * Math.ceil(S / K / unit + 1) * unit);
  const acc = all ? RECV : b.tmpBuffer('acc', S);
  const piece = (buf: number, c: number): number => pieceRegion(b, buf, 0, S, K, c, unit);
  const resultAt = (t: number, c: number): number => (all || t === ctx.root ? piece(RECV, c) : piece(acc, c));
  // Step 2: the all-to-all of pieces to turnaround nodes (every rank is a sender, Y = N). Posted
  // non-blocking (waited for at the end): under rendezvous a blocking send would wait for a receive
  // its peer posts only after its own step-2 sends, and every rank would wait in its first send.
  const sendStreams = new Set<number>();
  for (const r of members) {
    turn.forEach((t, c) => {
      if (t === r) return;
      b.isend(r, t, piece(SEND, c), c, port(r, t), b.hint('direct'));
      sendStreams.add(port(r, t));
    });
  }
  // Step 3: each turnaround reduces its column over every sender's piece and its own.
  turn.forEach((t, c) => {
    const len = pieceRange(S / unit, K, c).len * unit;
    b.copy(t, piece(SEND, c), resultAt(t, c));
    let slot = 0;
    for (const r of members) {
      if (r === t) continue;
      const into = b.region(col, slot++ * len, len);
      b.recv(t, r, into, c);
      b.reduce(t, into, resultAt(t, c));
    }
  });
  // Step 4: gather to the root, or distribute to everyone else. Every turnaround posts its result
  // send before any rank posts a step-4 receive: a rank that is both a turnaround and a receiver
  // would otherwise hold its own result until every lower-numbered turnaround's had arrived.
  const receiversOf = (t: number): number[] => (all ? members.filter((r) => r !== t) : t === ctx.root ? [] : [ctx.root]);
  turn.forEach((t, c) => {
    const receivers = receiversOf(t);
    if (receivers.length > 0) b.send(t, receivers, resultAt(t, c), K + c, 0, b.hint('direct'));
  });
  turn.forEach((t, c) => {
    for (const r of receiversOf(t)) b.recv(r, t, piece(RECV, c), K + c);
  });
  for (const r of members) {
    for (const stream of sendStreams) if (turn.some((t) => t !== r && port(r, t) === stream)) b.waitall(r, stream);
  }
  return b.finish();
}

const params = [
  { key: 'embodiment', kind: 'int', default: 4, min: 4, max: 6, description: '4 or 5: every rank is a turnaround node (K = N); 6: K turnaround nodes' },
  { key: 'K', kind: 'int', default: 0, min: 0, description: 'turnaround nodes (embodiment 6); 0 = N (or Y)' },
  { key: 'Y', kind: 'int', default: 0, min: 0, description: 'senders (付記17/18; allreduce: also the receivers), the anchor and the next Y−1 ranks; 0 = N' },
] as const;

/** Registers the algorithm for reduce (src/collectives/algorithms/reduce/) or allreduce (here). */
export function registerFullmeshTurnaround(collective: 'reduce' | 'allreduce'): void {
  registerAlgorithm({
    name: 'fullmesh-turnaround',
    collective,
    description: `seed 001: split into K columns, all-to-all to turnaround nodes, reduce there, ${collective === 'reduce' ? 'gather to the root' : 'distribute to all'}`,
    supportsText: 'full mesh of 3 or more ranks; embodiment 4/5: K = N; 6: 1 ≤ K ≤ N',
    source: 'seed 001 (JP 2020-046713, 4th–6th embodiments)',
    params: [...params],
    supports: refusal,
    build: (ctx, nb) => buildTurnaroundReduction(ctx, nb, turnarounds(ctx)),
  });
}

registerFullmeshTurnaround('allreduce');
