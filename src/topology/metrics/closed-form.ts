/**
 * Metrics of a mesh, torus or hypercube from its spec alone, without building the graph (issue 16,
 * item 10: `topo torus:4096x4096` built 5 GB over 22 s to print closed forms). Every number is the
 * same closed form the built-graph path uses (product.ts, bisection.ts): counts and degrees per
 * dimension, distances by convolution, the bisection by halving the largest even radix. What needs
 * the graph itself (an odd largest radix's bisection bound) is left out and says so.
 */
import { buildTopology } from '../registry.js';
import { parseCartesianSpec } from '../estimate.js';
import type { TopologyMetrics } from './compute.js';
import { summaryFromHistogram } from './distances.js';
import { productHistogram } from './product.js';

interface Shape {
  readonly family: 'mesh' | 'torus' | 'hypercube';
  readonly dims: readonly number[];
  readonly wrap: boolean;
  readonly label: string;
}

/** Links of one line of radix k: a torus closes the ring (one link only when k = 2, as the builder does). */
const linksPerLine = (k: number, wrap: boolean): number => (wrap && k > 2 ? k : k - 1);

function shapeOf(specText: string): { shape: Shape; rest: string } | undefined {
  const parsed = parseCartesianSpec(specText);
  if (!parsed) return undefined;
  if (parsed.family === 'hypercube') {
    const d = parsed.numbers[0];
    if (parsed.numbers.length !== 1 || d < 1 || d > 60) return undefined;
    return { shape: { family: 'hypercube', dims: new Array<number>(d).fill(2), wrap: false, label: 'hypercube' }, rest: parsed.rest };
  }
  if (parsed.family !== 'mesh' && parsed.family !== 'torus') return undefined;
  const dims = parsed.numbers;
  return { shape: { family: parsed.family, dims, wrap: parsed.family === 'torus', label: `${parsed.family} ${dims.join('x')}` }, rest: parsed.rest };
}

/** The closed-form metrics of a mesh, torus or hypercube spec; undefined for any other spec. */
export function closedFormMetrics(specText: string, opts: { bisection?: boolean; note?: string } = {}): TopologyMetrics | undefined {
  const found = shapeOf(specText);
  if (!found) return undefined;
  const { shape, rest } = found;
  const started = Date.now();
  // The smallest instance of the same spec parses and checks every key=value (bw, lat, unknown keys)
  // exactly as the real build would, and gives the link attributes and the parameter record.
  const small = buildTopology(shape.family === 'hypercube' ? `hypercube:1${rest}` : `${shape.family}:${shape.dims.map(() => 1).join('x')}${rest}`);
  const nodes = shape.dims.reduce((a, k) => a * k, 1);
  const channels = shape.dims.reduce((sum, k) => sum + 2 * linksPerLine(k, shape.wrap) * (nodes / k), 0);
  // Per dimension a node has two neighbours (one at a mesh edge or when k = 2, none when k = 1).
  const degreeMax = shape.dims.reduce((sum, k) => sum + Math.min(2, k - 1), 0);
  const degreeMin = shape.wrap ? degreeMax : shape.dims.reduce((sum, k) => sum + Math.min(1, k - 1), 0);
  const degree = { in: { min: degreeMin, max: degreeMax }, out: { min: degreeMin, max: degreeMax } };
  const params = shape.family === 'hypercube' ? { ...small.params, d: shape.dims.length, nodes } : { ...small.params, dims: [...shape.dims] };
  const note = opts.note ? `; ${opts.note}` : '';
  const distances = summaryFromHistogram(productHistogram(shape), nodes, small.distanceConvention, 'product', `${shape.label}: convolution of per-dimension distance histograms${note}`, 0);
  let bisection: TopologyMetrics['bisection'] = { channels: NaN, links: NaN, bandwidth: NaN, exact: false, method: 'not computed' };
  if (opts.bisection !== false) {
    let dim = 0;
    for (let d = 1; d < shape.dims.length; d++) if (shape.dims[d] > shape.dims[dim]) dim = d;
    const k = shape.dims[dim];
    if (nodes >= 2 && k % 2 === 0) {
      // Halving dimension `dim` cuts each of its N/k lines once (mesh, or k = 2) or twice (torus ring).
      const cut = 2 * (shape.wrap && k > 2 ? 2 : 1) * (nodes / k);
      bisection = { channels: cut, links: cut / 2, bandwidth: cut * (small.params.bandwidth as number), exact: true, method: `closed form (${shape.label}: halve the largest (even) radix ${k})` };
    } else {
      bisection = { ...bisection, method: `not computed: the largest radix ${k} is odd, and the bound needs the graph${note}` };
    }
  }
  return {
    spec: specText,
    family: small.family,
    params,
    nodes,
    terminals: nodes,
    switches: 0,
    channels,
    degree,
    distances,
    bisection,
    seconds: (Date.now() - started) / 1000,
  };
}
