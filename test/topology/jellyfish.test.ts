import { describe, expect, it } from 'vitest';
import { buildTopology, distanceSummary, jellyfish } from '../../src/topology/index.js';
import { assertConsistent, switchDegrees, switchHistogram } from './graph-checks.js';

describe('jellyfish', () => {
  it('is D-regular (Singla et al. NSDI\'12 construction), with one port free only when N·D is odd', () => {
    for (const [n, d] of [[16, 3], [50, 7], [101, 4], [33, 5]]) {
      const t = jellyfish({ routers: n, degree: d, seed: 7 });
      assertConsistent(t);
      const degrees = switchDegrees(t);
      const free = degrees.reduce((s, x) => s + d - x, 0);
      expect(free).toBe((n * d) % 2);
      expect(t.params).toMatchObject({ freePorts: free });
      // Simple graph: no parallel links.
      for (let v = n; v < 2 * n; v++) {
        const seen = new Set<number>();
        for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) seen.add(t.chDst[t.outChannels[i]]);
        expect(seen.size).toBe(t.outDegree(v));
      }
    }
  });
  it('the same seed gives the same graph byte for byte; another seed another graph', () => {
    const a = buildTopology('jellyfish:routers=40,degree=5,seed=3');
    const b = buildTopology('jellyfish:routers=40,degree=5,seed=3');
    const c = buildTopology('jellyfish:routers=40,degree=5,seed=4');
    expect(Buffer.from(a.chDst.buffer)).toEqual(Buffer.from(b.chDst.buffer));
    expect(Buffer.from(a.chDst.buffer)).not.toEqual(Buffer.from(c.chDst.buffer));
  });
  it('mean router distance is no better than the Moore bound and connected (BFS)', () => {
    const t = jellyfish({ routers: 200, degree: 6, seed: 1 });
    const { histogram, unreachable } = switchHistogram(t);
    expect(unreachable).toBe(0);
    // Moore bound: at most d(d−1)^(k−1) routers at distance k.
    let reachable = 0;
    for (let k = 1; k < histogram.length; k++) {
      expect(histogram[k] / 200).toBeLessThanOrEqual(6 * 5 ** (k - 1));
      reachable += histogram[k];
    }
    expect(reachable).toBe(200 * 199);
    expect(distanceSummary(t).histogram).toEqual(distanceSummary(t, { method: 'all-pairs' }).histogram);
  });
  it('refuses a degree the routers cannot have', () => {
    expect(() => buildTopology('jellyfish:routers=8,degree=8')).toThrow(/jellyfish\.degree: got 8/);
  });
});
