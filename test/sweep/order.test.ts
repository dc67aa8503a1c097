import { describe, expect, it } from 'vitest';
import type { SweepPoint } from '../../src/sweep/file.js';
import { estimatedCost, longestFirst } from '../../src/sweep/order.js';

const traffic = (key: string, rates: string, horizon: string, seed = '1'): SweepPoint => ({ key, kind: 'traffic', params: { topology: 'torus:8x8', pattern: 'uniform', rates, horizon, seed } });

describe('longest-first order of a sweep (issue 11: no thread idles while another finishes a long point)', () => {
  it('hands out traffic points by offered load times cycles, highest first; equal costs keep the file order', () => {
    const points = [traffic('a', '0.02', '12000', '1'), traffic('b', '0.32', '12000', '1'), traffic('c', '0.02', '12000', '2'), traffic('d', '0.1', '48000'), traffic('e', '0.16', '12000')];
    // Costs: a 240, b 3840, c 240, d 4800, e 1920.
    expect(points.map(estimatedCost)).toEqual([240, 3840, 240, 4800, 1920]);
    expect(longestFirst(points).map((p) => p.key)).toEqual(['d', 'b', 'e', 'a', 'c']);
  });

  it('a whole curve in one point (rates a range) and the other kinds cost 1: their file order stays', () => {
    const curve = traffic('curve', '0.02:0.32:0.02', '12000');
    expect(estimatedCost(curve)).toBe(12000);
    const topo: SweepPoint[] = ['z', 'y', 'x'].map((key) => ({ key, kind: 'topo', params: { topology: `torus:${key.charCodeAt(0) - 116}x4` } }));
    expect(topo.map(estimatedCost)).toEqual([1, 1, 1]);
    expect(longestFirst(topo).map((p) => p.key)).toEqual(['z', 'y', 'x']);
  });
});
