/**
 * Closed-form metrics from the spec (issue 16, item 10) are the numbers the built graph gives:
 * counts, degrees, the product histogram and the halved-radix bisection, family by family,
 * including the k = 1 and k = 2 radices where the builder's link counts change.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../../src/topology/index.js';
import '../../../src/topology/families.js';
import { computeMetrics } from '../../../src/topology/metrics/index.js';
import { closedFormMetrics } from '../../../src/topology/metrics/closed-form.js';

describe('closedFormMetrics', () => {
  for (const spec of ['torus:4x6,bw=10Gbps,lat=50ns', 'mesh:3x4', 'hypercube:4', 'torus:2x3x4', 'torus:1x4', 'mesh:1x1x6', 'torus:2x2', 'mesh:2x2x2']) {
    it(`${spec}: the same record as the built graph`, () => {
      expect({ ...closedFormMetrics(spec)!, seconds: 0 }).toEqual({ ...computeMetrics(buildTopology(spec)), seconds: 0 });
    });
  }
  for (const spec of ['mesh:5', 'torus:3x5']) {
    it(`${spec}: the same record, without the bisection (an odd largest radix's bound needs the graph)`, () => {
      const closed = closedFormMetrics(spec)!;
      expect(closed.bisection.method).toBe(`not computed: the largest radix 5 is odd, and the bound needs the graph`);
      expect({ ...closed, seconds: 0, bisection: null }).toEqual({ ...computeMetrics(buildTopology(spec)), seconds: 0, bisection: null });
    });
  }
  it('checks the keys as a build does', () => {
    expect(() => closedFormMetrics('torus:4096x4096,foo=1')).toThrow(/foo/);
  });
  it('is undefined for families without a closed form', () => {
    expect(closedFormMetrics('fattree:k=4,levels=2')).toBeUndefined();
  });
});
