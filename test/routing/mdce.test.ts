// Seed 004 self-routing (spec/seed004_mdce.md §2.1-2.4) and its B+2 VC classes (§2.3).
import { describe, expect, it } from 'vitest';
import {
  buildTopology,
  dceNetwork,
  InputError,
  makeRouteBuffers,
  mdceRouting,
  circularOmegaRouting,
  type RoutingFunction,
  torus,
  resolveRouting,
  Topology,
} from '../../src/index.js';
import { mdceVcClasses } from '../../src/routing/mdce.js';
import { eq1Diameter } from '../../src/topology/mdce/formulas.js';

interface Check {
  meanHops: number;
  maxHops: number;
  maxVc: number;
  /** Pairs whose route is longer than the BFS distance. */
  nonMinimal: number;
}

/**
 * Routes every ordered pair and checks: the route is a connected channel walk from src to dst, its VC
 * classes never decrease, ring-index bits equal at src and dst never change (partitioning, §2.4), and
 * the (channel, vc) dependency graph of all routes is acyclic (deadlock freedom, §2.3).
 */
function checkAllPairs(t: Topology, salt = 0, trackDeps = true, R: RoutingFunction = mdceRouting(t)): Check {
  const buf = makeRouteBuffers(R.maxHops);
  // A circular omega has no ring indices to keep (its stage is the ring position): L = N checks nothing.
  const L = (t.params.ringLength as number | undefined) ?? t.numNodes;
  const deps = new Map<number, Set<number>>();
  let total = 0;
  let maxHops = 0;
  let maxVc = 0;
  let nonMinimal = 0;
  // Plain counters rather than expect() per hop: a million expect calls would dominate the run.
  const faults: string[] = [];
  const fault = (what: string, s: number, d: number) => {
    if (faults.length < 5) faults.push(`${what} on ${s} -> ${d}`);
  };
  for (let s = 0; s < t.numNodes; s++) {
    const dist = bfsFrom(t, s);
    for (let d = 0; d < t.numNodes; d++) {
      const hops = R.route(s, d, salt, buf);
      let at = s;
      const fixed = ~(Math.floor(s / L) ^ Math.floor(d / L));
      for (let h = 0; h < hops; h++) {
        const ch = buf.channels[h];
        if (t.chSrc[ch] !== at) fault('disconnected walk', s, d);
        at = t.chDst[ch];
        if ((Math.floor(at / L) & fixed) !== (Math.floor(s / L) & fixed)) fault('left the partition', s, d);
        if (buf.vcClass[h] >= R.vcClasses) fault('vc class out of range', s, d);
        if (h > 0) {
          if (buf.vcClass[h] < buf.vcClass[h - 1]) fault('vc class decreased', s, d);
          if (!trackDeps) continue;
          const from = buf.channels[h - 1] * 8 + buf.vcClass[h - 1];
          if (!deps.has(from)) deps.set(from, new Set());
          deps.get(from)!.add(ch * 8 + buf.vcClass[h]);
        }
        maxVc = Math.max(maxVc, buf.vcClass[h]);
      }
      if (at !== d) fault('did not arrive', s, d);
      if (hops > dist[d]) nonMinimal++;
      total += hops;
      maxHops = Math.max(maxHops, hops);
    }
  }
  expect(faults).toEqual([]);
  expect(maxHops).toBeLessThanOrEqual(R.maxHops);
  expect(isAcyclic(deps)).toBe(true);
  return { meanHops: total / t.numNodes ** 2, maxHops, maxVc, nonMinimal };
}

/** Plain BFS distances from one node, the reference the routes are compared with. */
function bfsFrom(t: Topology, s: number): Int32Array {
  const dist = new Int32Array(t.numNodes).fill(-1);
  const queue = [s];
  dist[s] = 0;
  for (let h = 0; h < queue.length; h++) {
    const u = queue[h];
    for (let i = t.outStart[u]; i < t.outStart[u + 1]; i++) {
      const v = t.chDst[t.outChannels[i]];
      if (dist[v] >= 0) continue;
      dist[v] = dist[u] + 1;
      queue.push(v);
    }
  }
  return dist;
}

function isAcyclic(deps: Map<number, Set<number>>): boolean {
  const indeg = new Map<number, number>();
  for (const [u, vs] of deps) {
    if (!indeg.has(u)) indeg.set(u, 0);
    for (const v of vs) indeg.set(v, (indeg.get(v) ?? 0) + 1);
  }
  const ready = [...indeg].filter(([, k]) => k === 0).map(([u]) => u);
  let seen = 0;
  while (ready.length) {
    const u = ready.pop()!;
    seen++;
    for (const v of deps.get(u) ?? []) {
      const k = indeg.get(v)! - 1;
      indeg.set(v, k);
      if (k === 0) ready.push(v);
    }
  }
  return seen === indeg.size;
}

describe('DCE/MDCE self-routing, CCC-first (spec §2.1-2.2)', () => {
  // Complete networks: the spec (§2.1, §2.2 [checked]) says greedy CCC-first routing is minimal.
  const complete: Array<[string, number, number, number]> = [
    ['cbanyan:2', 1, 0, 2],
    ['cbanyan:3', 1, 0, 3],
    ['cbanyan:5', 1, 0, 5],
    ['ccc:3', 0, 1, 3],
    ['ccc:5', 0, 1, 5],
    ['mdce:B=1,C=1,n=3', 1, 1, 3],
    ['mdce:B=2,C=0,n=3', 2, 0, 3],
    ['mdce:B=0,C=2,n=3', 0, 2, 3],
    ['mdce:B=2,C=1,n=2', 2, 1, 2],
    ['mdce:B=1,C=2,n=2', 1, 2, 2],
  ];
  for (const [spec, B, C, n] of complete) {
    it(`${spec}: every route arrives, is a shortest path, and the longest is Eq. (1)`, () => {
      const t = buildTopology(spec);
      const r = checkAllPairs(t);
      expect(r.nonMinimal).toBe(0);
      expect(r.maxHops).toBe(eq1Diameter(n, B, C));
      expect(mdceRouting(t).maxHops).toBe(eq1Diameter(n, B, C));
    });
  }
  it('(1,1,1)-MDCE n=4 (spec §2.2 [checked]): routed mean 6.836 and diameter 11', () => {
    const r = checkAllPairs(buildTopology('mdce:B=1,C=1,n=4'), 0, false);
    expect(r.meanHops).toBeCloseTo(6.8359375, 10);
    expect(r.maxHops).toBe(11);
  });
  // The added stage of Table 1's DCEs (spec §3.5): routing reads the bit the stage flips; measured minimal too.
  for (const spec of ['cbanyan:3,extra-stage=a', 'cbanyan:4,extra-stage=b', 'ccc:3,extra-stage=a', 'ccc:4,extra-stage=b', 'mdce:B=1,C=1,n=2,extra-stage=b']) {
    it(`${spec}: every route arrives and is a shortest path`, () => {
      expect(checkAllPairs(buildTopology(spec)).nonMinimal).toBe(0);
    });
  }
  it('P = 2: the salt picks the parallel copy, routes stay shortest', () => {
    const t = buildTopology('mdce:B=1,C=1,P=2,n=2');
    for (const salt of [0, 1]) expect(checkAllPairs(t, salt).nonMinimal).toBe(0);
    const R = mdceRouting(t);
    const buf = makeRouteBuffers(R.maxHops);
    R.route(0, 1, 1, buf); // one parallel hop: (0,0,0) -> (1,0,0) on copy 1 = output port 1
    expect(t.chSrcPort[buf.channels[0]]).toBe(1);
  });
  it('refuses topologies it cannot route', () => {
    expect(() => mdceRouting(torus([4, 4]))).toThrow(InputError);
    expect(() => mdceRouting(dceNetwork({ n: 3, deltas: [2, 1] }))).toThrow(/delta 0 or 1 in every dimension/);
  });
});

describe('DCE with delta >= 2 (Appendix A): the same self-routing rule, a cross link skipping delta - 1 positions', () => {
  // [spec, routed mean over N² pairs, longest route, VC classes]: measured here, pinned; the routes
  // are checked against BFS, which they exceed (a bit left behind by a skip costs another lap).
  const cases: Array<[string, number, number, number]> = [
    ['dce:n=3,delta=2', 3.5, 7, 4],
    ['dce:n=4,delta=2', 5.25, 10, 4],
    ['dce:n=4,delta=3', 5.625, 11, 6],
    ['dce:n=5,delta=2', 7, 13, 4],
    ['dce:n=5,delta=4', 7.96875, 15, 7],
    ['dce:n=4,delta=2,extra-stage=b', 6.1, 13, 4],
  ];
  for (const [spec, mean, longest, classes] of cases) {
    it(`${spec}: every route arrives, classes are acyclic, routed mean ${mean}, longest ${longest} = declared maxHops, ${classes} classes`, () => {
      const t = buildTopology(spec);
      const r = checkAllPairs(t);
      const R = mdceRouting(t);
      expect(r.meanHops).toBeCloseTo(mean, 10);
      expect(r.maxHops).toBe(longest);
      expect(R.maxHops).toBe(longest);
      expect(r.maxVc + 1).toBe(classes);
      expect(R.vcClasses).toBe(classes);
      expect(r.nonMinimal).toBeGreaterThan(0);
    });
  }
});

describe('VC classes (spec §2.3: at most B+1 laps, B+2 channels)', () => {
  it('vcClasses is B+2 for B >= 1 and 3 for B = 0 (a CCC route can cross the dateline twice)', () => {
    expect(mdceRouting(buildTopology('cbanyan:4')).vcClasses).toBe(3);
    expect(mdceRouting(buildTopology('mdce:B=1,C=1,n=3')).vcClasses).toBe(3);
    expect(mdceRouting(buildTopology('mdce:B=2,C=0,n=3')).vcClasses).toBe(4);
    expect(mdceRouting(buildTopology('ccc:4')).vcClasses).toBe(3);
    expect(mdceVcClasses(8, 2)).toBe(4);
  });
  it('the bound is reached: some route uses class B+1 (and class 2 for CCC)', () => {
    expect(checkAllPairs(buildTopology('mdce:B=2,C=0,n=3')).maxVc).toBe(3);
    expect(checkAllPairs(buildTopology('cbanyan:3')).maxVc).toBe(2);
    expect(checkAllPairs(buildTopology('ccc:4')).maxVc).toBe(2);
  });
});

describe('circular omega self-routing (shuffle-tag, docs/seed004.md)', () => {
  // Every route is a shortest path (the distance formula's walk), and three dateline classes keep
  // the channel dependencies acyclic.
  for (const spec of ['comega:3', 'comega:4', 'comega:5', 'comega:4,reading=dce']) {
    it(`${spec}: every route arrives, is minimal, and its classes are acyclic`, () => {
      const t = buildTopology(spec);
      const R = circularOmegaRouting(t);
      const c = checkAllPairs(t, 0, true, R);
      expect(c.nonMinimal).toBe(0);
      expect(c.maxVc).toBeLessThan(3);
    });
  }
  it('is the family default and refuses other families', () => {
    expect(resolveRouting(buildTopology('comega:4')).name).toBe('shuffle-tag');
    expect(() => circularOmegaRouting(buildTopology('cbanyan:3'))).toThrow(InputError);
  });
});
