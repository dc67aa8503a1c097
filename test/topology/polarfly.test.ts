import { describe, expect, it } from 'vitest';
import { buildTopology, distanceSummary, polarFly } from '../../src/topology/index.js';
import { assertConsistent, countKinds, switchDegrees, switchHistogram } from './graph-checks.js';

describe('polarfly (Erdős–Rényi polarity graph)', () => {
  // Lakhotia et al., SC'22: N = q² + q + 1 routers of radix q + 1 (q + 1 quadrics of degree q once
  // their self-loop is dropped), diameter 2. Links: (N(q+1) − (q+1))/2 = q(q+1)²/2.
  it.each([2, 3, 4, 5, 7, 8, 9, 11, 13])('q = %i: q²+q+1 routers, q+1 quadrics of degree q, the rest q+1, diameter 2', (q) => {
    const t = polarFly({ q, p: 1 });
    assertConsistent(t);
    const n = q * q + q + 1;
    expect(countKinds(t).switches).toBe(n);
    const degrees = switchDegrees(t);
    expect(degrees.filter((d) => d === q).length).toBe(q + 1);
    expect(degrees.filter((d) => d === q + 1).length).toBe(n - q - 1);
    const { histogram, unreachable } = switchHistogram(t);
    expect(unreachable).toBe(0);
    expect(histogram).toEqual([0, q * (q + 1) ** 2, n * (n - 1) - q * (q + 1) ** 2]);
  });
  it('q = 7 gives 57 routers, q = 31 gives 993 (the paper\'s examples)', () => {
    expect(buildTopology('polarfly:q=7').params).toMatchObject({ routers: 57, quadrics: 8, p: 4 });
    expect(polarFly({ q: 31, p: 1 }).params).toMatchObject({ routers: 993 });
  });
  it('per-router distance classes agree with all-pairs BFS', () => {
    const t = polarFly({ q: 5, p: 2 });
    const sym = distanceSummary(t);
    expect(sym.method).toBe('symmetry');
    expect(sym.histogram).toEqual(distanceSummary(t, { method: 'all-pairs' }).histogram);
    // Switches traversed = router hops + 1 between distinct terminals: mean over distinct pairs of
    // routers, weighted by p² = 4, plus the pairs on one router at distance 1.
    const n = 31;
    const adjacent = 5 * 36;
    const routerPairsHops = adjacent * 2 + (n * (n - 1) - adjacent) * 3;
    const expected = (4 * routerPairsHops + n * 2 * 1) / (62 * 61);
    expect(sym.meanWithoutSelf).toBeCloseTo(expected, 12);
  });
  it('refuses q that is not a prime power', () => {
    expect(() => buildTopology('polarfly:q=6')).toThrow(/prime power/);
  });
});
