/**
 * alltoall `per-step-barrier`: seed 000's comparative example (FIG. 9, spec §1.8). Every rank sends
 * directly to the node (dx, dy, dz, ...) away, one offset per step, all ranks the same offset, with
 * a barrier after every step. Offsets count down from N−1 as in FIG. 9 (hops 4,4,4 first; the last
 * axis changes fastest). Pacing (FIG. 7) spaces each sender's packets so the flows sharing a link
 * take it in turns. `gap=sharing` (default) uses the step's real sharing: with every rank sending
 * the same offset, dimension order, an axis-k link carries exactly d_k flows, so the busiest link
 * carries max(d) and gap = max(d) − 1. `gap=hops` is the literal FIG. 7 rule, (dx+dy+dz) − 1, which
 * over-throttles a multi-axis step (it assumes all the step's flows share one link).
 */
import { registerAlgorithm, type ParamValues } from '../../registry.js';
import type { Topology } from '../../../topology/graph.js';
import { RECV, SEND } from '../../schedule.js';
import { axisPath, coordOf, Direction, gridShape, GridShape, shifted } from './axis-phases.js';
import { appendAll } from '../../../util/arrays.js';

/** Offsets of all steps in FIG. 9 order (excluding the all-zero offset, which is a local copy). */
export function fig9Offsets(dims: readonly number[]): number[][] {
  const n = dims.length;
  const out: number[][] = [];
  const cur = dims.map((k) => k - 1);
  for (;;) {
    if (cur.some((v) => v !== 0)) out.push([...cur]);
    let k = n - 1;
    while (k >= 0 && cur[k] === 0) {
      cur[k] = dims[k] - 1;
      k--;
    }
    if (k < 0) break;
    cur[k]--;
  }
  return out;
}

registerAlgorithm({
  name: 'per-step-barrier',
  collective: 'alltoall',
  description: 'seed 000 FIG. 9 comparative example: direct sends, one offset per step, a barrier at every step',
  supportsText: 'torus, any number of axes and sizes',
  source: 'seed 000 (FIG. 9, prior configuration)',
  params: [
    { key: 'dir', kind: 'choice', choices: ['positive', 'shortest'], default: 'positive', description: 'route along +axis (FIG. 9 hop counts) or the short way' },
    { key: 'pacing', kind: 'bool', default: true, description: 'pace before each step so flows sharing a link take turns' },
    { key: 'gap', kind: 'choice', choices: ['sharing', 'hops'], default: 'sharing', description: 'pacing gap: max(d) − 1, the most flows on one link of the step, or the literal FIG. 7 rule, total hops − 1' },
  ],
  supports(ctx) {
    const g = gridShape(ctx.topology);
    if (typeof g === 'string') return g;
    return g.wrap ? undefined : 'a torus (FIG. 9 counts hops in the + direction with wrap-around)';
  },
  // A copy per rank; per step and rank a send, a receive, a pace (with pacing) and a barrier (but the last step).
  estimate(ctx) {
    const P = ctx.ranks;
    const steps = P - 1;
    return { ops: P * stepOps(steps, ctx.params.pacing === true), messages: P * steps };
  },
  build(ctx, newBuilder) {
    const g = gridShape(ctx.topology) as GridShape;
    const P = g.ranks;
    const steps = stepPlan(g, ctx.params);
    const b = newBuilder({ expectedOps: P * (steps.length * 4 + 1) });
    const all = b.group(Array.from({ length: P }, (_, i) => i));
    for (let h = 0; h < P; h++) b.copy(h, b.block(SEND, h), b.block(RECV, h));
    steps.forEach((step, si) => {
      for (let h = 0; h < P; h++) {
        const { to, from, path } = rankStep(g, ctx.topology, h, step);
        if (ctx.params.pacing === true) b.pace(h, step.gap);
        b.send(h, to, b.block(SEND, to), 0, 0, b.hint('path', path));
        b.recv(h, from, b.block(RECV, from), 0);
        if (si < steps.length - 1) b.barrier(h, all);
      }
    });
    return b.finish();
  },
  // Issue 29: every rank's step is rank 0's translated (the same offset, gap and block size; the
  // path moved with the rank), so the run is timed from its representatives' streams alone: the
  // copy of its own block, per step a pace, the send with its path, the receive, the barrier on
  // the one group of every rank (group 0) but after the last step.
  rotation(ctx) {
    const g = gridShape(ctx.topology) as GridShape;
    const steps = stepPlan(g, ctx.params);
    const B = ctx.size;
    const pacing = ctx.params.pacing === true;
    return {
      action: { translation: g.dims },
      opsPerRank: stepOps(steps.length, pacing),
      forEachOp(h, visit) {
        visit('copy', h, B, 0);
        steps.forEach((step, si) => {
          const { to, from, path } = rankStep(g, ctx.topology, h, step);
          if (pacing) visit('pace', 0, step.gap, 0);
          visit('send', to, B, 0, path);
          visit('recv', from, B, 0);
          if (si < steps.length - 1) visit('barrier', 0, 0, 0);
        });
      },
    };
  },
});

/** One rank's ops: its copy, per step a send, a receive and a pace (with pacing), a barrier between steps. */
function stepOps(steps: number, pacing: boolean): number {
  return 1 + steps * (pacing ? 3 : 2) + Math.max(0, steps - 1);
}

/** One step of every rank: its offset per axis, the legs (hops and direction per axis) and the pacing gap. */
interface Step {
  readonly off: readonly number[];
  readonly legs: readonly { readonly hops: number; readonly sign: number }[];
  readonly gap: number;
}

function stepPlan(g: GridShape, params: ParamValues): Step[] {
  const dir = params.dir as Direction;
  return fig9Offsets(g.dims).map((off) => {
    // Physical hops per axis: d on the + side, or the shorter way round.
    const legs = off.map((d, k) => (dir === 'positive' || 2 * d <= g.dims[k] ? { hops: d, sign: 1 } : { hops: g.dims[k] - d, sign: -1 }));
    const hops = legs.reduce((a, l) => a + l.hops, 0);
    const sharing = legs.reduce((a, l) => Math.max(a, l.hops), 0);
    return { off, legs, gap: (params.gap === 'hops' ? hops : sharing) - 1 };
  });
}

/** Rank h's destination, source and explicit node path in a step. */
function rankStep(g: GridShape, topology: Topology, h: number, step: Step): { to: number; from: number; path: number[] } {
  const n = g.dims.length;
  let to = h;
  let from = h;
  const path: number[] = [];
  for (let k = 0; k < n; k++) {
    const c = coordOf(g, h, k);
    to += (shifted(g, k, c, step.off[k]) - c) * g.stride[k];
    from += (shifted(g, k, c, -step.off[k]) - c) * g.stride[k];
  }
  // Dimension-ordered explicit path: axis 0 first, then 1, ... (each leg in its direction).
  let r = h;
  for (let k = 0; k < n; k++) {
    const leg = axisPath(g, topology, r, k, step.legs[k].hops, step.legs[k].sign);
    appendAll(path, path.length ? leg.slice(1) : leg);
    r = topology.rankOfNode[leg[leg.length - 1]];
  }
  return { to, from, path };
}
