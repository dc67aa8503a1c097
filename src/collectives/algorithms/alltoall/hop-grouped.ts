/**
 * alltoall `hop-grouped` (seed 000, US 2014/0201475, spec/seed000_torus.md): data with the same
 * direction and hop count is sent together, one axis at a time, with a barrier per hop group and
 * an intra-packet gap of hops − 1.
 * - areas=1: Example 1 generalised to n axes (X, then Y, ...; FIG. 12A/12B).
 * - areas=n (default from 3 axes): Example 2; every block is split into n pieces (areas a, b, c),
 *   area i crosses the axes i, i−1, i−2, ... (spec §4.3: a X→Z→Y, b Y→X→Z, c Z→Y→X), each on its
 *   own stream/NIC (streams=concurrent) or all on one stream in flowchart order (sequential).
 * - areas=2n: Meshwork's extension: one area per (axis, direction), rotated orders, separate streams,
 *   so every link of a node is busy in every stage.
 */
import { registerAlgorithm, type AlgorithmContext } from '../../registry.js';
import { AreaPlan, AxisPhaseOptions, axisPhaseDeclaration, countAxisPhases, Direction, emitAxisPhases, gridShape, GridShape } from './axis-phases.js';

function areaCount(setting: string, n: number): number {
  if (setting === '1') return 1;
  if (setting === 'n') return n;
  if (setting === '2n') return 2 * n;
  return n <= 2 ? 1 : n;
}

/** Area i crosses axes i, i−1, ..., i−n+1 (mod n): the rotation of spec §4.3, unique for n = 3. */
export function rotatedOrder(first: number, n: number): number[] {
  return Array.from({ length: n }, (_, s) => (((first - s) % n) + n) % n);
}

export function hopGroupedAreas(n: number, setting: string, dir: Direction, concurrent: boolean): AreaPlan[] {
  const count = areaCount(setting, n);
  if (count === 1) return [{ order: Array.from({ length: n }, (_, k) => k), dir, stream: 0 }];
  return Array.from({ length: count }, (_, i) => ({
    order: rotatedOrder(i % n, n),
    dir: count === 2 * n ? (i < n ? 'positive' : 'negative') : dir,
    stream: concurrent ? i : 0,
  }));
}

registerAlgorithm({
  name: 'hop-grouped',
  collective: 'alltoall',
  description: 'seed 000: per axis, same-direction same-hop-count data together, barrier per hop group, gap = hops − 1',
  supportsText: 'torus (any number of axes, any sizes); mesh with dir=shortest and areas=1|n',
  source: 'seed 000 (US 2014/0201475)',
  params: [
    { key: 'dir', kind: 'choice', choices: ['positive', 'shortest'], default: 'positive', description: 'positive = the patent (+d hops for offset d); shortest = each offset the short way' },
    { key: 'pacing', kind: 'bool', default: true, description: 'pace(hops − 1) before each hop group (S103/S112)' },
    { key: 'areas', kind: 'choice', choices: ['auto', '1', 'n', '2n'], default: 'auto', description: 'pieces per block: auto = 1 up to 2 axes (Example 1), n from 3 (Example 2)' },
    { key: 'streams', kind: 'choice', choices: ['concurrent', 'sequential'], default: 'concurrent', description: 'areas on their own streams (one NIC per axis) or one stream in flowchart order' },
    { key: 'final-barrier', kind: 'bool', default: false, description: 'a completion barrier after the last phase (the flowcharts end without one)' },
    { key: 'buffers', kind: 'choice', choices: ['separate', 'inplace'], default: 'separate', description: 'inplace shows the hazard of spec §3.5 (the executor reports it)' },
  ],
  supports(ctx) {
    const g = gridShape(ctx.topology);
    if (typeof g === 'string') return g;
    const n = g.dims.length;
    const areas = areaCount(String(ctx.params.areas), n);
    if (!g.wrap && ctx.params.dir === 'positive') return 'a mesh needs signed offsets: use dir=shortest (spec §3.3)';
    if (areas === 2 * n && areas > 1 && ctx.params.dir !== 'positive') return 'areas=2n fixes each area\'s direction; leave dir at its default';
    if (!g.wrap && areas === 2 * n) return 'areas=2n needs a torus (one direction per area cannot reach every node of a mesh)';
    if (ctx.size < areas) return `size ${ctx.size} B cannot be split into ${areas} pieces (at least one byte each)`;
    return undefined;
  },
  build(ctx, newBuilder) {
    const { g, opts } = plan(ctx);
    const b = newBuilder({ inPlace: opts.inPlace, expectedOps: countAxisPhases(g, opts).ops });
    emitAxisPhases(b, ctx.topology, g, opts);
    return b.finish();
  },
  estimate(ctx) {
    const { g, opts } = plan(ctx);
    return countAxisPhases(g, opts);
  },
  // Issue 29: on a torus every rank's ops are rank 0's translated by its coordinates (peers and
  // paths; the same slabs, tags, paces and barriers of every rank), so the run is timed from the
  // representatives' streams alone (32³: one representative under the full translation group).
  rotation(ctx) {
    const { g, opts } = plan(ctx);
    return axisPhaseDeclaration(ctx.topology, g, opts, ctx.size);
  },
});

function plan(ctx: AlgorithmContext): { g: GridShape; opts: AxisPhaseOptions } {
  const g = gridShape(ctx.topology) as GridShape;
  const areas = hopGroupedAreas(g.dims.length, String(ctx.params.areas), ctx.params.dir as Direction, ctx.params.streams === 'concurrent');
  const inPlace = ctx.params.buffers === 'inplace';
  return { g, opts: { areas, pacing: ctx.params.pacing === true, barriers: 'group', finalBarrier: ctx.params['final-barrier'] === true, hints: 'path', inPlace } };
}
