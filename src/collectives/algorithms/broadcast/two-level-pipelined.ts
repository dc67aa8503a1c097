/**
 * broadcast `two-level-pipelined` (seed 003, US 8,274,987 claim 1; spec/seed002_003_ibm.md part B):
 * a contention-free pipelined broadcast on a two-level switch network. variant=r2 (default) is the
 * spec's reconstruction R2 (B3: per leaf an alternating pair, one entering and forwarding to the
 * next leaf, the other sinking the leaf's chain); variant=r1 is B4 (strict send-once).
 * The message is cut into `packets` packets; in unit-step mode (`--steps`) the schedule takes
 * T = P+S+m−1 steps (S ≥ 2, m even) and never puts two transfers on one node port or leaf link.
 *
 * Leaves: read from the graph (the switch each host hangs off, e.g. `twolevel:leaves=S,hosts=m`),
 * or, with `hosts=m` on any topology, host h of leaf s is taken to be rank s·m+h.
 */
import type { AlgorithmContext } from '../../registry.js';
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { pieceRange } from '../alltoall/axis-phases.js';
import { NodeKind, Topology } from '../../../topology/graph.js';
import { blockLayout, planTwoLevel, TwoLevelLayout } from './two-level-plan.js';

/** Hosts grouped by the leaf switch they hang off (NodeKind.Switch neighbour), or undefined. */
function leavesFromGraph(t: Topology): number[][] | undefined {
  const byLeaf = new Map<number, number[]>();
  for (let r = 0; r < t.numEndpoints; r++) {
    const v = t.endpoints[r];
    let leaf = -1;
    for (let i = t.outStart[v]; i < t.outStart[v + 1] && leaf < 0; i++) {
      const w = t.chDst[t.outChannels[i]];
      if (t.nodeKind[w] === NodeKind.Switch) leaf = w;
    }
    if (leaf < 0) return undefined;
    const list = byLeaf.get(leaf);
    if (list) list.push(r);
    else byLeaf.set(leaf, [r]);
  }
  return [...byLeaf.values()].sort((a, b) => a[0] - b[0]);
}

function layoutFor(ctx: AlgorithmContext): TwoLevelLayout | string {
  const m = ctx.params.hosts as number;
  if (m === 0) {
    const groups = leavesFromGraph(ctx.topology);
    if (!groups) return 'hosts=m (hosts per leaf) on a topology whose hosts do not hang off leaf switches';
    const sizes = new Set(groups.map((g) => g.length));
    if (sizes.size !== 1) return `the same number of hosts on every leaf, got ${[...sizes].join(', ')}`;
    if (groups[0].length < 3) return `at least 3 hosts per leaf (the root plus the two selected nodes), got ${groups[0].length}`;
    return { leaves: groups.length, hosts: groups[0].length, rankOf: (leaf, h) => groups[leaf][h] };
  }
  if (ctx.ranks % m !== 0) return `hosts=${m} dividing the ${ctx.ranks} ranks`;
  if (m < 3) return `at least 3 hosts per leaf (the root plus the two selected nodes), got ${m}`;
  return blockLayout(ctx.ranks / m, m);
}

registerAlgorithm({
  name: 'two-level-pipelined',
  collective: 'broadcast',
  description: 'seed 003: pipelined broadcast, per leaf an alternating pair (inter-leaf) and an intra-leaf chain (R2; R1 option)',
  supportsText: 'two-level (leaf/spine) networks with the same m ≥ 3 hosts on every leaf (or hosts=m: ranks s·m..s·m+m−1 on leaf s)',
  source: 'seed 003 (US 8,274,987), reconstruction R2/R1',
  params: [
    { key: 'variant', kind: 'choice', choices: ['r2', 'r1'], default: 'r2', description: 'r2: entry node forwards downstream (B3); r1: strict send-once, the sink forwards (B4)' },
    { key: 'packets', kind: 'int', default: 8, min: 1, max: 1 << 16, description: 'P, packets the message is cut into' },
    { key: 'lockstep', kind: 'bool', default: true, description: 'a barrier closes every broadcast step (C2), so unit-step execution follows the step table exactly' },
    { key: 'hosts', kind: 'int', default: 0, min: 0, description: 'hosts per leaf (ranks s·m..s·m+m−1 on leaf s); 0 = from the leaf switches of the topology' },
  ],
  supports(ctx) {
    const layout = layoutFor(ctx);
    if (typeof layout === 'string') return layout;
    if (ctx.size < (ctx.params.packets as number)) return `size ${ctx.size} B cannot be cut into ${ctx.params.packets} packets`;
    return undefined;
  },
  build(ctx, newBuilder) {
    const P = ctx.params.packets as number;
    const plan = planTwoLevel(layoutFor(ctx) as TwoLevelLayout, ctx.root, P, ctx.params.variant as 'r1' | 'r2');
    const b = newBuilder({ expectedOps: 2 * plan.transfers.length + plan.steps * ctx.ranks + 1 });
    const size = ctx.size;
    const packet = (buf: number, k: number): number => {
      const { lo, len } = pieceRange(size, P, k);
      return b.region(buf, lo, len);
    };
    b.copy(ctx.root, b.region(SEND, 0, size), b.region(RECV, 0, size));
    // Each node's program in step order; within a step its send before its receive (a sendrecv),
    // so the unit-step executor can run both in one step.
    // With lockstep, a whole-communicator barrier ends every step: the plan's idle steps (a chain end
    // holding a packet for parity, roles waiting for their turn) are kept, and no transfer runs early.
    const lockstep = ctx.params.lockstep === true;
    const all = b.group(Array.from({ length: ctx.ranks }, (_, r) => r));
    const t = plan.transfers;
    for (let i = 0; i < t.length; ) {
      let j = i;
      while (j < t.length && t[j].step === t[i].step) j++;
      for (let x = i; x < j; x++) b.send(t[x].from, t[x].to, packet(t[x].from === ctx.root ? SEND : RECV, t[x].packet), t[x].packet);
      for (let x = i; x < j; x++) b.recv(t[x].to, t[x].from, packet(RECV, t[x].packet), t[x].packet);
      if (lockstep && j < t.length) for (let r = 0; r < ctx.ranks; r++) b.barrier(r, all);
      i = j;
    }
    return b.finish();
  },
});
