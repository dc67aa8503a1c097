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
import { registerAlgorithm } from '../../registry.js';
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
  build(ctx, newBuilder) {
    const g = gridShape(ctx.topology) as GridShape;
    const n = g.dims.length;
    const P = g.ranks;
    const dir = ctx.params.dir as Direction;
    const steps = fig9Offsets(g.dims);
    const b = newBuilder({ expectedOps: P * (steps.length * 4 + 1) });
    const all = b.group(Array.from({ length: P }, (_, i) => i));
    for (let h = 0; h < P; h++) b.copy(h, b.block(SEND, h), b.block(RECV, h));
    steps.forEach((off, si) => {
      // Physical hops per axis: d on the + side, or the shorter way round.
      const legs = off.map((d, k) => (dir === 'positive' || 2 * d <= g.dims[k] ? { hops: d, sign: 1 } : { hops: g.dims[k] - d, sign: -1 }));
      const hops = legs.reduce((a, l) => a + l.hops, 0);
      const sharing = legs.reduce((a, l) => Math.max(a, l.hops), 0);
      const gap = (ctx.params.gap === 'hops' ? hops : sharing) - 1;
      for (let h = 0; h < P; h++) {
        let to = h;
        let from = h;
        const path: number[] = [];
        for (let k = 0; k < n; k++) {
          const c = coordOf(g, h, k);
          to += (shifted(g, k, c, off[k]) - c) * g.stride[k];
          from += (shifted(g, k, c, -off[k]) - c) * g.stride[k];
        }
        // Dimension-ordered explicit path: axis 0 first, then 1, ... (each leg in its direction).
        let r = h;
        for (let k = 0; k < n; k++) {
          const leg = axisPath(g, ctx.topology, r, k, legs[k].hops, legs[k].sign);
          appendAll(path, path.length ? leg.slice(1) : leg);
          r = ctx.topology.rankOfNode[leg[leg.length - 1]];
        }
        if (ctx.params.pacing === true) b.pace(h, gap);
        b.send(h, to, b.block(SEND, to), 0, 0, b.hint('path', path));
        b.recv(h, from, b.block(RECV, from), 0);
        if (si < steps.length - 1) b.barrier(h, all);
      }
    });
    return b.finish();
  },
});
