import { describe, expect, it } from 'vitest';
import { buildTopology, distanceSummary, finiteField, slimFly } from '../../src/topology/index.js';
import { resolveRouting } from '../../src/routing/index.js';
import { makeRouteBuffers } from '../../src/routing/types.js';
import { assertConsistent, countKinds, profile, switchDegrees, switchHistogram } from './graph-checks.js';

describe('slimfly (McKay–Miller–Širáň)', () => {
  // Besta & Hoefler, SC'14, Sec. 2.1: N_r = 2q², k' = (3q − δ)/2, diameter 2, for q = 4w + δ.
  const cases: [number, number, number][] = [[5, 50, 7], [7, 98, 11], [8, 128, 12], [9, 162, 13], [11, 242, 17], [13, 338, 19]];
  it.each(cases)('q = %i: %i routers of network degree %i, diameter 2 (BFS)', (q, routers, degree) => {
    const t = slimFly({ q, p: 1 });
    assertConsistent(t);
    expect(countKinds(t).switches).toBe(routers);
    expect(new Set(switchDegrees(t))).toEqual(new Set([degree]));
    const { histogram, unreachable } = switchHistogram(t);
    expect(unreachable).toBe(0);
    expect(histogram.length - 1).toBe(2);
    expect(histogram[1]).toBe(routers * degree);
  });
  it('q = 5 is the Hoffman–Singleton graph: a Moore graph, 7 neighbours and 42 routers at distance 2', () => {
    const { histogram } = switchHistogram(slimFly({ q: 5, p: 1 }));
    expect(histogram).toEqual([0, 50 * 7, 50 * 42]);
  });
  it('every router sees the same distances (vertex-transitive, Hafner 2004), so one BFS is exact', () => {
    for (const q of [5, 7, 8]) {
      const t = slimFly({ q, p: 2 });
      const first = profile(t, 0);
      for (let r = 0; r < t.numEndpoints; r += 3) expect(profile(t, r)).toBe(first);
      expect(distanceSummary(t).method).toBe('symmetry');
    }
    const t = slimFly({ q: 5, p: 1 });
    expect(distanceSummary(t).histogram).toEqual(distanceSummary(t, { method: 'all-pairs' }).histogram);
  });
  it('defaults to p = ⌈k\'/2⌉ terminals per router and hop-indexed minimal routing on 2 VC classes', () => {
    const t = buildTopology('slimfly:q=5');
    expect(t.params).toMatchObject({ p: 4, degree: 7, routerDiameter: 2 });
    const routing = resolveRouting(t);
    expect(routing).toMatchObject({ vcClasses: 2, deadlockFree: true });
    const out = makeRouteBuffers(routing.maxHops);
    let maxClass = 0;
    for (let d = 1; d < t.numEndpoints; d += 7) {
      const hops = routing.route(t.endpoints[0], t.endpoints[d], 0, out);
      expect(hops).toBeLessThanOrEqual(4);
      for (let i = 0; i < hops; i++) maxClass = Math.max(maxClass, out.vcClass[i]);
    }
    expect(maxClass).toBe(1);
  });
  it('refuses q that is not a prime power 4w + δ', () => {
    expect(() => buildTopology('slimfly:q=6')).toThrow(/topology\.q|slimfly\.q/);
    expect(() => buildTopology('slimfly:q=10')).toThrow(/prime power/);
    expect(() => buildTopology('slimfly:q=15')).toThrow(/prime power/);
  });
});

describe('finite fields', () => {
  it.each([2, 3, 4, 5, 7, 8, 9, 16, 25, 27])('GF(%i) is a field with a primitive element', (q) => {
    const f = finiteField(q);
    const seen = new Set<number>();
    for (let e = 0; e < q - 1; e++) seen.add(f.power(e));
    expect(seen.size).toBe(q - 1);
    for (let a = 0; a < q; a++) {
      expect(f.add(a, f.neg(a))).toBe(0);
      if (a > 0) expect(f.mul(a, f.inv(a))).toBe(1);
      for (let b = 0; b < q; b++) for (let c = 0; c < q; c += 3) expect(f.mul(a, f.add(b, c))).toBe(f.add(f.mul(a, b), f.mul(a, c)));
    }
  });
});
