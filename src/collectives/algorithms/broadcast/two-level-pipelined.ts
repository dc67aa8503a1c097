/**
 * broadcast `two-level-pipelined` (seed 003, US 8,274,987 claim 1; spec/seed002_003_ibm.md part B):
 * a contention-free pipelined broadcast on a two-level switch network. variant=r2 (default) is the
 * spec's reconstruction R2 (B3: per leaf an alternating pair, one entering and forwarding to the
 * next leaf, the other sinking the leaf's chain); variant=r1 is B4 (strict send-once).
 * The message is cut into `packets` packets; in unit-step mode (`--steps`) the schedule takes
 * T = P+S+m−1 steps (S ≥ 2, m even) and never puts two transfers on one node port or leaf link.
 *
 * Leaves: taken from a `twolevel` topology (params leaves, hosts; host h of leaf s is rank s·m+h),
 * or, on any other topology, from `hosts=m` with the same numbering (an assumption, stated in
 * docs/seed-algorithms.md, until the topology says otherwise).
 */
import type { AlgorithmContext } from '../../registry.js';
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { pieceRange } from '../alltoall/axis-phases.js';
import { blockLayout, planTwoLevel } from './two-level-plan.js';

function leavesAndHosts(ctx: AlgorithmContext): { S: number; m: number } | string {
  const p = ctx.topology.params;
  let m = ctx.params.hosts as number;
  if (m === 0 && ctx.topology.family === 'twolevel' && typeof p.hosts === 'number') m = p.hosts;
  if (m === 0) return 'hosts=m (hosts per leaf) on a topology that is not twolevel';
  if (ctx.ranks % m !== 0) return `hosts=${m} dividing the ${ctx.ranks} ranks`;
  if (m < 3) return `at least 3 hosts per leaf (the root plus the two selected nodes), got ${m}`;
  return { S: ctx.ranks / m, m };
}

registerAlgorithm({
  name: 'two-level-pipelined',
  collective: 'broadcast',
  description: 'seed 003: pipelined broadcast, per leaf an alternating pair (inter-leaf) and an intra-leaf chain (R2; R1 option)',
  supportsText: 'two-level (leaf/spine) networks with m ≥ 3 hosts per leaf, hosts numbered leaf by leaf',
  source: 'seed 003 (US 8,274,987), reconstruction R2/R1',
  params: [
    { key: 'variant', kind: 'choice', choices: ['r2', 'r1'], default: 'r2', description: 'r2: entry node forwards downstream (B3); r1: strict send-once, the sink forwards (B4)' },
    { key: 'packets', kind: 'int', default: 8, min: 1, max: 1 << 16, description: 'P, packets the message is cut into' },
    { key: 'hosts', kind: 'int', default: 0, min: 0, description: 'hosts per leaf; 0 = from a twolevel topology' },
  ],
  supports(ctx) {
    const lh = leavesAndHosts(ctx);
    if (typeof lh === 'string') return lh;
    if (ctx.size < (ctx.params.packets as number)) return `size ${ctx.size} B cannot be cut into ${ctx.params.packets} packets`;
    return undefined;
  },
  build(ctx, newBuilder) {
    const { S, m } = leavesAndHosts(ctx) as { S: number; m: number };
    const P = ctx.params.packets as number;
    const plan = planTwoLevel(blockLayout(S, m), ctx.root, P, ctx.params.variant as 'r1' | 'r2');
    const b = newBuilder({ expectedOps: 2 * plan.transfers.length + 1 });
    const size = ctx.size;
    const packet = (buf: number, k: number): number => {
      const { lo, len } = pieceRange(size, P, k);
      return b.region(buf, lo, len);
    };
    b.copy(ctx.root, b.region(SEND, 0, size), b.region(RECV, 0, size));
    // Each node's program in step order; within a step its send before its receive (a sendrecv),
    // so the unit-step executor can run both in one step.
    const t = plan.transfers;
    for (let i = 0; i < t.length; ) {
      let j = i;
      while (j < t.length && t[j].step === t[i].step) j++;
      for (let x = i; x < j; x++) b.send(t[x].from, t[x].to, packet(t[x].from === ctx.root ? SEND : RECV, t[x].packet), t[x].packet);
      for (let x = i; x < j; x++) b.recv(t[x].to, t[x].from, packet(RECV, t[x].packet), t[x].packet);
      i = j;
    }
    return b.finish();
  },
});
