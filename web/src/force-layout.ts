/**
 * A force-directed drawing for networks whose family has no structured layout (Jellyfish, Slim Fly,
 * PolarFly, dragonflies, HyperX, flattened butterflies, opened graph files): graphology's seeded
 * random start, then a fixed number of synchronous ForceAtlas2 iterations. Both are deterministic,
 * so the same spec always gives the same picture. Loaded by the worker only when such a network is
 * drawn, so the other views never load graphology.
 */
import GraphImport from 'graphology';
import randomImport from 'graphology-layout/random.js';
import forceAtlas2Import from 'graphology-layout-forceatlas2';
import type { Topology } from '../../src/topology/graph.js';
import { Rng } from '../../src/util/rng.js';
import { normalise } from './layout.js';

/**
 * These packages type their CommonJS builds so that NodeNext (the tests' compiler) sees `{ default }`
 * where Vite's bundler resolution sees the value; at run time both get the value itself.
 */
function defaultOf<T>(m: T): T extends { default: infer D } ? D : T {
  return ((m as { default?: unknown }).default ?? m) as T extends { default: infer D } ? D : T;
}
const Graph = defaultOf(GraphImport);
const random = defaultOf(randomImport);
const forceAtlas2 = defaultOf(forceAtlas2Import);

/**
 * The start positions' seed. A constant rather than a form field: the picture only has to be the
 * same for the same spec, and one fixed seed gives that (it never changes a metric or a route).
 */
export const FORCE_LAYOUT_SEED = 1;

/** Iterations: enough for ForceAtlas2 to settle a few thousand nodes, fewer past that to bound the cost. */
function iterationsFor(nodes: number): number {
  return nodes <= 2_000 ? 300 : nodes <= 10_000 ? 100 : 40;
}

/** x, y per node in [0, 1] × [0, 1]. */
export function forceLayout(t: Topology, seed = FORCE_LAYOUT_SEED): Float32Array {
  const graph = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  for (let v = 0; v < t.numNodes; v++) graph.addNode(v);
  for (let c = 0; c < t.numChannels; c++) {
    const s = t.chSrc[c];
    const d = t.chDst[c];
    if (s !== d) graph.mergeEdge(s, d);
  }
  const rng = new Rng(seed);
  random.assign(graph, { rng: () => rng.next(), scale: Math.sqrt(t.numNodes) });
  forceAtlas2.assign(graph, {
    iterations: iterationsFor(t.numNodes),
    // Barnes–Hut keeps an iteration O(n log n) on the larger networks.
    settings: { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: t.numNodes > 1_000 },
  });
  const xy = new Float32Array(2 * t.numNodes);
  graph.forEachNode((key, attributes) => {
    xy[2 * Number(key)] = attributes.x as number;
    xy[2 * Number(key) + 1] = attributes.y as number;
  });
  return normalise(xy);
}
