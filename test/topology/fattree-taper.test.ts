import { describe, expect, it } from 'vitest';
import { buildTopology, computeMetrics } from '../../src/topology/index.js';

describe('fattree taper', () => {
  it('gives the leaf-to-level-1 links 1/taper of the bandwidth and keeps the rest', () => {
    const t = buildTopology('fattree:k=4,levels=3,taper=2,bw=100Gbps');
    const full = 100e9 / 8;
    const terminals = 64;
    const level = (v: number): number => (v < terminals ? -1 : Math.floor((v - terminals) / 16));
    for (let c = 0; c < t.numChannels; c++) {
      const levels = [level(t.chSrc[c]), level(t.chDst[c])].sort();
      expect(t.chBandwidth[c]).toBe(levels[0] === 0 && levels[1] === 1 ? full / 2 : full);
    }
    expect(t.params).toMatchObject({ taper: 2 });
  });
  it('no longer claims the full-bisection closed form', () => {
    expect(computeMetrics(buildTopology('fattree:k=2,levels=3')).bisection.exact).toBe(true);
    expect(computeMetrics(buildTopology('fattree:k=4,levels=3,taper=2')).bisection.exact).toBe(false);
    // 20 nodes: small enough to search every partition instead.
    expect(computeMetrics(buildTopology('fattree:k=2,levels=3,taper=2')).bisection.method).toMatch(/^exhaustive search/);
  });
  it('refuses a taper below 1', () => {
    expect(() => buildTopology('fattree:k=4,levels=2,taper=0.5')).toThrow(/topology\.taper: got "0\.5"/);
  });
});
