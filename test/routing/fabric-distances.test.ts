/**
 * The accelerator fabrics' quotient distances (routing/fabric-distances.ts) against the per-node
 * reverse BFS they replace: every node's distance to every accelerator, and every route between any
 * two nodes under each tie rule, on fabrics of every shape (NVSwitch planes striped or not, xGMI
 * full meshes, fewer or more NICs than accelerators, NICs on chosen accelerators, several rail
 * planes, one node without rails, one accelerator per node; leaf–spine rails with fewer or more
 * spines than a leaf's uplinks, rails sharing no spine, a partial last leaf holding one node or
 * several, one node per leaf).
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, makeRouteBuffers, runCollectiveFlow, shortestPathRouting } from '../../src/index.js';
import { SHORTEST_PATH_TIES } from '../../src/routing/shortest-path.js';
import type { RoutingFunction } from '../../src/index.js';
import { reverseBfsDistances } from '../../src/routing/distance-cache.js';
import { FabricDistances } from '../../src/routing/fabric-distances.js';

const COVERED = [
  'hgx-h100:nodes=3',
  'hgx-a100:nodes=2',
  'mi300x:nodes=3',
  'gb200-nvl72:nodes=2',
  'hgx-h100',
  'fabric:gpus=4,nodes=3,nics=2',
  'fabric:gpus=4,nodes=3,nics=8',
  'fabric:gpus=4,nodes=3,nics=3,nicgpus=1/1/3',
  'fabric:gpus=4,nodes=3,railplanes=2',
  'fabric:gpus=4,nodes=3,stripe=off,planes=4,links=6',
  'fabric:gpus=6,nodes=3,scaleup=mesh,nics=2',
  'fabric:gpus=1,nodes=4,nics=1',
  'fabric:gpus=4,nodes=8,nics=4,rail=leafspine,leafhosts=4,spines=4',
  // Each leaf reaches 2 of 8 spines: rails 0–3 share none, so crossing rails goes through a node.
  'fabric:gpus=4,nodes=9,nics=4,rail=leafspine,leafhosts=2,spines=8',
  // A partial last leaf of one node; 3 uplinks over 2 spines (one spine twice).
  'fabric:gpus=4,nodes=7,nics=2,rail=leafspine,leafhosts=3,spines=2,railplanes=2',
  'fabric:gpus=3,nodes=8,nics=3,nicgpus=0/0/2,rail=leafspine,leafhosts=3,spines=5',
  'fabric:gpus=4,nodes=5,scaleup=mesh,nics=2,rail=leafspine,leafhosts=1,spines=2',
  'fabric:gpus=4,nodes=6,stripe=off,planes=2,links=4,nics=4,rail=leafspine,leafhosts=4,spines=1',
  'hgx-h100:nodes=6,rail=leafspine,leafhosts=4,spines=2',
];

function routeOf(r: RoutingFunction, src: number, dst: number): number[] {
  const buf = makeRouteBuffers(r.maxHops);
  const hops = r.route(src, dst, 7, buf);
  return Array.from(buf.channels.subarray(0, hops));
}

describe('fabric distances in closed form equal the BFS', () => {
  for (const spec of COVERED) {
    it(`${spec}: every node's distance to every accelerator, every route under each tie rule`, () => {
      const t = buildTopology(spec);
      const fabric = FabricDistances.forTopology(t);
      expect(fabric, spec).toBeDefined();
      const queue = new Int32Array(t.numNodes);
      let longest = 1;
      for (const dst of t.endpoints) {
        const bfs = reverseBfsDistances(t, dst, () => true, queue);
        fabric!.prepare(dst);
        for (let v = 0; v < t.numNodes; v++) expect(fabric!.at(v), `${spec}: ${v} -> ${dst}`).toBe(bfs[v]);
        for (const src of t.endpoints) longest = Math.max(longest, bfs[src]);
      }
      expect(fabric!.longest(), `${spec} longest`).toBe(longest);
      for (const tie of SHORTEST_PATH_TIES) {
        const closed = shortestPathRouting(t, { tie });
        // A channel predicate (accepting every channel) keeps the per-node BFS rows.
        const bfs = shortestPathRouting(t, { tie, usable: () => true });
        for (let src = 0; src < t.numNodes; src++) {
          for (let dst = 0; dst < t.numNodes; dst++) {
            if (src === dst) continue;
            expect(routeOf(closed, src, dst), `${spec} ${tie}: ${src} -> ${dst}`).toEqual(routeOf(bfs, src, dst));
          }
        }
        expect(closed.longestRoute!(), `${spec} ${tie} longest route`).toBe(longest);
      }
    });
  }

  it('class rows past 64 MiB (2·G rows of 3·G + 3·K + 2·E + S classes) are left to the BFS rows', () => {
    // 2 · 1,024 · (3,072 + 3 + 2 + S) entries: 15.2 M with 4,000 spines, 18.6 M with 6,000 (limit 2^24 = 16.8 M).
    expect(FabricDistances.forTopology(buildTopology('fabric:gpus=1024,nodes=2,nics=1,rail=leafspine,leafhosts=2,spines=4000'))).toBeDefined();
    expect(FabricDistances.forTopology(buildTopology('fabric:gpus=1024,nodes=2,nics=1,rail=leafspine,leafhosts=2,spines=6000'))).toBeUndefined();
  });

  it('other families are left to the BFS', () => {
    expect(FabricDistances.forTopology(buildTopology('fattree:k=4,levels=2'))).toBeUndefined();
    expect(FabricDistances.forTopology(buildTopology('torus:4x4'))).toBeUndefined();
  });

  it.each(['hgx-h100:nodes=16', 'hgx-h100:nodes=16,rail=leafspine,leafhosts=4,spines=4'])('a collective on %s: the same makespan as the BFS routes', (spec) => {
    const t = buildTopology(spec);
    const request = { topology: t, collective: 'allreduce' as const, algorithm: 'ring', size: 1 << 20, model: { symmetry: 'off' as const } };
    const closed = runCollectiveFlow({ ...request, routing: shortestPathRouting(t) });
    const bfs = runCollectiveFlow({ ...request, routing: shortestPathRouting(t, { usable: () => true }) });
    expect(closed.makespan_s).toBe(bfs.makespan_s);
  });
});
