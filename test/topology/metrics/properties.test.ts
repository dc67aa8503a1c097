import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeMetrics, distanceSummary, mesh, randomDigraph, torus } from '../../../src/topology/index.js';

const dims = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 3 });

describe('metric properties', () => {
  it('product and symmetry shortcuts equal all-pairs BFS on random mesh and torus shapes', () => {
    fc.assert(
      fc.property(dims, fc.boolean(), (shape, wrap) => {
        const t = wrap ? torus(shape) : mesh(shape);
        const exact = distanceSummary(t, { method: 'all-pairs' });
        expect(distanceSummary(t, { method: 'product' }).histogram).toEqual(exact.histogram);
        if (wrap) expect(distanceSummary(t, { method: 'symmetry' }).histogram).toEqual(exact.histogram);
      }),
      { numRuns: 60 },
    );
  });
  it('every histogram counts each ordered endpoint pair once, and the two means agree', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 60 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1000 }), (n, k, seed) => {
        const t = randomDigraph(n, Math.min(k, n - 1), seed);
        const d = computeMetrics(t).distances;
        const counted = d.histogram.reduce((a, b) => a + b, 0) + d.unreachablePairs;
        expect(counted).toBe(n * n);
        expect(d.histogram[0]).toBe(n);
        const sum = d.histogram.reduce((s, c, dist) => s + c * dist, 0);
        const reachable = n * n - d.unreachablePairs;
        expect(d.meanWithSelf).toBeCloseTo(sum / reachable, 12);
        expect(d.meanWithoutSelf).toBeCloseTo(sum / (reachable - n), 12);
        expect(d.histogram[d.diameter]).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });
});
