import { describe, expect, it } from 'vitest';
import {
  resolveRouting,
  fullMeshRouting,
  InputError,
  makeRouteBuffers,
  NodeKind,
  routeWithHint,
  shortestPathRouting,
  TopologyBuilder,
  torus,
  upDownRouting,
  valiantRouting,
  dragonflyUgalRouting,
} from '../../src/index.js';
import { DistanceCache } from '../../src/routing/distance-cache.js';
import type { Topology } from '../../src/index.js';
import type { RouteContext, RoutingFunction } from '../../src/routing/types.js';

/** N nodes, a channel of class "direct" between every ordered pair (seed 001's full mesh). */
export function fullMesh(n: number): Topology {
  const b = new TopologyBuilder(0, { nodes: n, channels: n * (n - 1) });
  for (let i = 0; i < n; i++) b.addNode(NodeKind.Terminal);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) b.addChannel(i, j, 'direct');
  return b.build({ family: 'fullmesh', spec: `fullmesh:${n}`, params: { n }, distanceConvention: 'router-hops' });
}

/** Leaf/spine: `leaves` leaf switches with `hosts` terminals each, every leaf joined to every spine. */
function twoLevel(leaves: number, hosts: number, spines: number): Topology {
  const b = new TopologyBuilder();
  const term: number[] = [];
  const leaf: number[] = [];
  const spine: number[] = [];
  for (let l = 0; l < leaves; l++) for (let h = 0; h < hosts; h++) term.push(b.addNode(NodeKind.Terminal));
  for (let l = 0; l < leaves; l++) leaf.push(b.addNode(NodeKind.Switch));
  for (let s = 0; s < spines; s++) spine.push(b.addNode(NodeKind.Switch));
  for (let l = 0; l < leaves; l++) for (let h = 0; h < hosts; h++) b.addLink(term[l * hosts + h], leaf[l], 'host-up', 'host-down');
  for (let l = 0; l < leaves; l++) for (let s = 0; s < spines; s++) b.addLink(leaf[l], spine[s], 'up', 'down');
  return b.build({ family: 'twolevel', spec: `twolevel:leaves=${leaves}`, params: {}, distanceConvention: 'switches-traversed' });
}

function path(r: Pick<RoutingFunction, 'route'>, s: number, d: number, salt = 0, max = 64, ctx?: RouteContext): number[] {
  const buf = makeRouteBuffers(max);
  const h = r.route(s, d, salt, buf, ctx);
  return Array.from(buf.channels.subarray(0, h));
}

function isPath(t: Topology, chans: number[], s: number, d: number): boolean {
  let v = s;
  for (const c of chans) {
    if (t.chSrc[c] !== v) return false;
    v = t.chDst[c];
  }
  return v === d;
}

describe('routing', () => {
  it('shortest path on a torus has the DOR hop count and is a real path', () => {
    const t = torus([5, 4]);
    const sp = shortestPathRouting(t);
    const dor = resolveRouting(t);
    for (let s = 0; s < t.numNodes; s++) {
      for (let d = 0; d < t.numNodes; d++) {
        const p = path(sp, s, d);
        expect(isPath(t, p, s, d)).toBe(true);
        expect(p.length).toBe(path(dor, s, d).length);
      }
    }
  });

  it('the distance cache holds at most budget / (4N) destinations', () => {
    const t = torus([8, 8]);
    const cache = new DistanceCache(t, 4 * 64 * 3); // room for 3 arrays of 64 nodes
    for (let d = 0; d < 10; d++) cache.to(d);
    cache.to(9); // hit
    expect(cache.builds).toBe(10);
    cache.to(0); // evicted, rebuilt
    expect(cache.builds).toBe(11);
  });

  it('full mesh: one direct channel', () => {
    const t = fullMesh(6);
    const r = fullMeshRouting(t);
    expect(path(r, 2, 5)).toEqual([t.channelBetween(2, 5)]);
  });

  it('route hints: via goes through the node, a path without a link is refused', () => {
    const t = fullMesh(5);
    const r = fullMeshRouting(t);
    const out = makeRouteBuffers(8);
    const scratch = makeRouteBuffers(8);
    const h = routeWithHint(t, r, 0, 1, { kind: 'via', nodes: [3] }, 0, out, scratch);
    expect(Array.from(out.channels.subarray(0, h))).toEqual([t.channelBetween(0, 3), t.channelBetween(3, 1)]);
    const tor = torus([4, 4]);
    expect(() => routeWithHint(tor, resolveRouting(tor), 0, 5, { kind: 'path', nodes: [0, 5] }, 0, out, scratch)).toThrow(InputError);
  });

  it('up/down with d-mod-k spreads destinations evenly over the spines; ECMP hashes per flow', () => {
    const t = twoLevel(4, 4, 4);
    const r = upDownRouting(t);
    const spineUse = new Map<number, number>();
    for (let d = 0; d < 16; d++) {
      if (d < 4) continue; // leaf 0 to the other leaves
      const p = path(r, t.endpoints[0], t.endpoints[d]);
      expect(p.length).toBe(4); // host-up, up, down, host-down
      expect(isPath(t, p, t.endpoints[0], t.endpoints[d])).toBe(true);
      const spine = t.chDst[p[1]];
      spineUse.set(spine, (spineUse.get(spine) ?? 0) + 1);
    }
    expect([...spineUse.values()]).toEqual([3, 3, 3, 3]);
    const e = upDownRouting(t, { ecmp: true });
    const spines = new Set<number>();
    for (let salt = 0; salt < 32; salt++) spines.add(t.chDst[path(e, t.endpoints[0], t.endpoints[5], salt)[1]]);
    expect(spines.size).toBeGreaterThan(1);
  });

  it('valiant visits its intermediate and doubles the VC classes', () => {
    const t = torus([6, 6]);
    const v = valiantRouting(t, resolveRouting(t), { seed: 7 });
    for (let d = 1; d < 36; d += 5) {
      const p = path(v, 0, d, 3);
      expect(isPath(t, p, 0, d)).toBe(true);
    }
    expect(v.vcClasses).toBe(2 * resolveRouting(t).vcClasses);
  });

  it('UGAL takes the minimal path when unloaded and detours when its first channel is loaded', () => {
    const t = torus([8]); // any graph works for the rule; dragonfly classes absent, so the first channel counts
    const u = dragonflyUgalRouting(t, { seed: 3 });
    const min = path(u, 0, 2);
    expect(min.length).toBe(2);
    const val = valiantRouting(t, shortestPathRouting(t), { seed: 3 });
    // A salt whose Valiant candidate leaves by the other channel (0 -> 7).
    const salt = [...Array(64).keys()].find((x) => path(val, 0, 2, x)[0] !== min[0])!;
    expect(salt).toBeDefined();
    expect(path(u, 0, 2, salt)).toEqual(min);
    const p = path(u, 0, 2, salt, 64, { load: (c) => (c === min[0] ? 1000 : 0) });
    expect(p).toEqual(path(val, 0, 2, salt));
    expect(p.length).toBeGreaterThan(2);
  });

  it('resolveRouting refuses a routing that does not fit the family', () => {
    expect(() => resolveRouting(fullMesh(4), { routing: 'dor' })).toThrow(InputError);
  });
});
