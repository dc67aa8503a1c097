import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/util/rng.js';
import {
  bfsEndpointLevels,
  BfsWorkspace,
  endpointMask,
  neighbourLists,
  NodeKind,
  randomDigraph,
  searchHops,
  TopologyBuilder,
  type Topology,
} from '../../../src/topology/index.js';

/** Reference: one plain BFS per source, summed. */
function oneByOne(t: Topology, sources: Int32Array): Float64Array {
  const g = neighbourLists(t);
  const ws = new BfsWorkspace(t.numNodes);
  const h = new Float64Array(t.numNodes + 1);
  for (const s of sources) bfsEndpointLevels(g, ws, endpointMask(t), t.numEndpoints, s, h, 1);
  return h;
}

/** A random digraph whose odd nodes are switches, so only some nodes count as endpoints. */
function mixedGraph(nodes: number, degree: number, seed: number): Topology {
  const rng = new Rng(seed);
  const b = new TopologyBuilder();
  for (let v = 0; v < nodes; v++) b.addNode(v % 2 === 0 ? NodeKind.Terminal : NodeKind.Switch);
  for (let v = 0; v < nodes; v++) {
    for (let k = 0; k < degree; k++) {
      const w = rng.int(nodes);
      if (w !== v) b.addChannel(v, w, 'random'); // the builder refuses self-loops
    }
  }
  return b.build({ family: 'mixed', spec: 'mixed', params: {}, distanceConvention: 'router-hops' });
}

describe('search kernels', () => {
  it('32-source bit-parallel search equals one BFS per source (all endpoints, partial endpoints, unreachable)', () => {
    for (const t of [randomDigraph(300, 3, 2), mixedGraph(400, 2, 5), mixedGraph(150, 1, 9)]) {
      const sources = Int32Array.from(t.endpoints);
      const batched = searchHops(neighbourLists(t), endpointMask(t), t.numEndpoints, sources, new Float64Array(sources.length).fill(1));
      expect(Array.from(batched)).toEqual(Array.from(oneByOne(t, sources)));
    }
  });
  it('falls back to one search per source on deep graphs and gives the same answer', () => {
    const b = new TopologyBuilder();
    b.addNodes(NodeKind.Terminal, 100);
    for (let v = 0; v < 100; v++) b.addChannel(v, (v + 1) % 100, 'ring');
    const t = b.build({ family: 'dring', spec: 'dring', params: {}, distanceConvention: 'router-hops' });
    const sources = Int32Array.from(t.endpoints);
    const h = searchHops(neighbourLists(t), endpointMask(t), 100, sources, new Float64Array(100).fill(1));
    expect(Array.from(h.subarray(0, 100))).toEqual(new Array(100).fill(100));
  });
  it('reports its progress: searched counts rise to every source, batched or one by one, and the answer is unchanged', () => {
    for (const t of [randomDigraph(300, 3, 2), mixedGraph(150, 1, 9)]) {
      const sources = Int32Array.from(t.endpoints);
      const seen: number[] = [];
      const h = searchHops(neighbourLists(t), endpointMask(t), t.numEndpoints, sources, new Float64Array(sources.length).fill(1), (n) => seen.push(n));
      expect(Array.from(h)).toEqual(Array.from(oneByOne(t, sources)));
      expect(seen.at(-1)).toBe(sources.length);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
    }
  });
});
