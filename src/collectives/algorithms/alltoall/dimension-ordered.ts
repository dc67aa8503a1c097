/**
 * alltoall `dimension-ordered` (classic phase-per-dimension): one phase per axis; in each phase a
 * rank sends, to every node of its ring/row along that axis, the merged blocks bound for that
 * coordinate, all posted at once, routed the short way; no pacing and no barriers (the next phase
 * waits only for its own data). Same data movement as seed 000 Example 1, without the hop groups.
 */
import { registerAlgorithm } from '../../registry.js';
import { axisPhaseDeclaration, countAxisPhases, emitAxisPhases, gridShape, type AxisPhaseOptions, type GridShape } from './axis-phases.js';

registerAlgorithm({
  name: 'dimension-ordered',
  collective: 'alltoall',
  description: 'one phase per axis, each a linear alltoall along the rings of that axis (classic)',
  supportsText: 'torus or mesh, any number of axes and sizes',
  source: 'classic',
  params: [],
  supports(ctx) {
    const g = gridShape(ctx.topology);
    return typeof g === 'string' ? g : undefined;
  },
  build(ctx, newBuilder) {
    const g = gridShape(ctx.topology) as GridShape;
    const opts = options(g);
    const b = newBuilder({ expectedOps: countAxisPhases(g, opts).ops });
    emitAxisPhases(b, ctx.topology, g, opts);
    return b.finish();
  },
  estimate(ctx) {
    const g = gridShape(ctx.topology) as GridShape;
    return countAxisPhases(g, options(g));
  },
  // Issue 29: on a torus, translation-equivariant like hop-grouped (one stream, no hints or barriers).
  rotation(ctx) {
    const g = gridShape(ctx.topology) as GridShape;
    return axisPhaseDeclaration(ctx.topology, g, options(g), ctx.size);
  },
});

function options(g: GridShape): AxisPhaseOptions {
  const areas = [{ order: Array.from({ length: g.dims.length }, (_, k) => k), dir: 'shortest' as const, stream: 0 }];
  return { areas, pacing: false, barriers: 'none', hints: 'none', inPlace: false };
}
