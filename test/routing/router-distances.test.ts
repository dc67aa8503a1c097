/**
 * Routing by router table and in closed form (issue 29) gives the same channels, route by route,
 * as the per-destination BFS over every node it replaced. The reference is the same shortest-path
 * walk forced onto the per-node BFS (a `usable` predicate that accepts every channel keeps it there).
 */
import { describe, expect, it } from 'vitest';
import { applyFailures, buildTopology, makeRouteBuffers, parseFailures, runCollectiveFlow, resolveRouting, shortestPathRouting } from '../../src/index.js';
import type { RoutingFunction, ShortestPathTie, Topology } from '../../src/index.js';
import { RouterDistances } from '../../src/routing/router-distances.js';

function route(r: RoutingFunction, src: number, dst: number, salt: number): string {
  const out = makeRouteBuffers(64);
  const hops = r.route(src, dst, salt, out);
  return `${Array.from(out.channels.subarray(0, hops)).join(',')}|${Array.from(out.vcClass.subarray(0, hops)).join(',')}`;
}

/** Every ordered pair of nodes (terminals and routers), with two salts when the tie hashes. */
function expectSameRoutes(t: Topology, actual: RoutingFunction, reference: RoutingFunction, salts: readonly number[] = [0]): number {
  let compared = 0;
  for (let s = 0; s < t.numNodes; s++) {
    for (let d = 0; d < t.numNodes; d++) {
      for (const salt of salts) {
        const a = route(actual, s, d, salt);
        const b = route(reference, s, d, salt);
        if (a !== b) expect(`${s}->${d} salt ${salt}: ${a}`).toBe(`${s}->${d} salt ${salt}: ${b}`);
        compared++;
      }
    }
  }
  return compared;
}

function perNodeBfs(t: Topology, tie: ShortestPathTie): RoutingFunction {
  return shortestPathRouting(t, { tie, usable: () => true });
}

describe('router-table and closed-form routing', () => {
  it('the router table holds one row per router and answers the per-node BFS distances', () => {
    const t = buildTopology('dragonfly:h=2');
    const table = RouterDistances.forTopology(t, 1 << 20)!;
    expect(table.numRouters).toBe(t.numNodes - t.numEndpoints);
    const bfs = perNodeBfs(t, 'lowest') as RoutingFunction & { cache: { to(d: number): Int32Array } };
    for (const dst of [0, 5, t.numEndpoints + 3, t.numNodes - 1]) {
      const dist = bfs.cache.to(dst);
      table.prepare(dst);
      for (let v = 0; v < t.numNodes; v++) expect(table.at(v)).toBe(dist[v]);
    }
  });

  it('direct networks and multi-homed terminals keep the per-node BFS', () => {
    expect(RouterDistances.forTopology(buildTopology('torus:4x4'), 1 << 20)).toBeUndefined();
    expect(RouterDistances.forTopology(buildTopology('omega:8'), 1 << 20)).toBeUndefined();
  });

  const fatTrees = ['fattree:k=4,levels=3', 'fattree:k=3,levels=4', 'fattree:k=2,levels=5', 'fattree:k=5,levels=2', 'fattree:k=4,levels=1', 'fattree:k=4,levels=3,taper=2'];
  for (const spec of fatTrees) {
    it(`${spec}: up/down d-mod-k, ECMP and nca in closed form are the BFS walk's routes`, () => {
      const t = buildTopology(spec);
      expect(expectSameRoutes(t, resolveRouting(t, { routing: 'updown' }), perNodeBfs(t, 'dmodk'))).toBe(t.numNodes ** 2);
      expectSameRoutes(t, resolveRouting(t, { routing: 'ecmp' }), perNodeBfs(t, 'hash'), [0, 7, 12345]);
      expectSameRoutes(t, resolveRouting(t, { routing: 'nca' }), perNodeBfs(t, 'hash'), [3]);
      expectSameRoutes(t, resolveRouting(t, { routing: 'shortest' }), perNodeBfs(t, 'lowest'));
    });
  }

  it('a remapped fat tree spreads by physical position, as before', () => {
    const t = buildTopology('fattree:k=4,levels=3');
    const perm = new Int32Array(t.numEndpoints);
    for (let r = 0; r < perm.length; r++) perm[r] = (r * 7 + 3) % perm.length;
    const mapped = t.withRankOrder(perm, 'test');
    expectSameRoutes(mapped, resolveRouting(mapped, { routing: 'updown' }), perNodeBfs(mapped, 'dmodk'));
  });

  const families = ['dragonfly:h=2', 'dragonfly:h=2,wiring=booksim', 'dragonflyplus:h=2', 'hyperx:3x4,p=2', 'slimfly:q=5,p=2', 'polarfly:q=3', 'twolevel:leaves=6,hosts=3,uplinks=4,spines=3', 'jellyfish:routers=20,degree=4,p=2,seed=3'];
  for (const spec of families) {
    it(`${spec}: the default routing and every shortest-path tie by router table are the BFS walk's routes`, () => {
      const t = buildTopology(spec);
      expect(RouterDistances.forTopology(t, 1 << 20)).toBeDefined();
      for (const tie of ['lowest', 'dmodk', 'hash'] as const) expectSameRoutes(t, shortestPathRouting(t, { tie }), perNodeBfs(t, tie), tie === 'hash' ? [0, 9] : [0]);
    });
  }

  it('dragonfly minimal keeps its channels and hop-indexed VC classes', () => {
    const t = buildTopology('dragonfly:h=2');
    const minimal = resolveRouting(t, { routing: 'minimal' });
    const reference = perNodeBfs(t, 'lowest');
    const out = makeRouteBuffers(16);
    const ref = makeRouteBuffers(16);
    for (let s = 0; s < t.numEndpoints; s++) {
      for (let d = 0; d < t.numEndpoints; d++) {
        const hops = minimal.route(s, d, 0, out);
        expect(hops).toBe(reference.route(s, d, 0, ref));
        expect(Array.from(out.channels.subarray(0, hops))).toEqual(Array.from(ref.channels.subarray(0, hops)));
      }
    }
  });

  for (const [spec, algorithm, routing, tie] of [
    ['fattree:k=4,levels=3', 'ring', 'updown', 'dmodk'],
    ['fattree:k=4,levels=3', 'recursive-doubling', 'updown', 'dmodk'],
    ['fattree:k=4,levels=3', 'recursive-doubling', 'ecmp', 'hash'],
    ['dragonfly:h=2', 'recursive-doubling', 'minimal', 'lowest'],
    ['slimfly:q=5,p=2', 'ring', 'shortest', 'lowest'],
  ] as const) {
    it(`${spec} ${algorithm} allreduce on ${routing}: makespan and schedule bound unchanged from the per-node BFS routes`, () => {
      const t = buildTopology(spec);
      const run = (r: RoutingFunction) => runCollectiveFlow({ topology: t, collective: 'allreduce', algorithm, size: 1 << 20, routing: r });
      const fast = run(resolveRouting(t, { routing }));
      const base = perNodeBfs(t, tie);
      const old = run(routing === 'minimal' ? { ...resolveRouting(t, { routing }), route: (s, d, salt, out) => base.route(s, d, salt, out) } : base);
      expect(fast.makespan_s).toBe(old.makespan_s);
      expect(fast.schedule_bound_s).toBe(old.schedule_bound_s);
    });
  }

  it('a degraded fat tree (no family) routes by router table over the survivors, as the BFS walk did', () => {
    const t = applyFailures(buildTopology('fattree:k=4,levels=3'), parseFailures('links=10%,seed=4'));
    expectSameRoutes(t, resolveRouting(t, { routing: 'updown' }), perNodeBfs(t, 'dmodk'));
  });
});
