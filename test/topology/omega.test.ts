import { describe, expect, it } from 'vitest';
import { buildTopology, omega } from '../../src/topology/index.js';
import { assertConsistent, countKinds, isAutomorphism, rankDistances } from './graph-checks.js';

describe('omega MIN', () => {
  it('omega:16: 4 stages of 8 switches, 2+2 ports per switch, one node per terminal', () => {
    const t = buildTopology('omega:16');
    assertConsistent(t);
    expect(countKinds(t)).toEqual({ terminals: 16, switches: 32 });
    for (let v = 16; v < 48; v++) expect([t.outDegree(v), t.inDegree(v)]).toEqual([2, 2]);
    for (let v = 0; v < 16; v++) expect([t.outDegree(v), t.inDegree(v)]).toEqual([1, 1]);
  });
  it('every pair of distinct terminals is log2 N switches apart (seed 004 Table 1: MIN = 10.00 at 1,024 PEs)', () => {
    for (const n of [2, 8, 64]) {
      const t = omega(n);
      for (const r of [0, n - 1]) {
        expect(rankDistances(t, r).filter((d, s) => s !== r && d !== Math.log2(n))).toEqual([]);
      }
    }
    const big = omega(1024);
    expect(countKinds(big).switches).toBe(512 * 10);
    expect(new Set(rankDistances(big, 77).filter((_, s) => s !== 77))).toEqual(new Set([10]));
  });
  it('terminal t -> t XOR x is an automorphism for every x (the proof behind the declared symmetry)', () => {
    const n = 16;
    const stages = 4;
    const half = n / 2;
    const t = omega(n);
    expect(t.symmetry?.classes).toEqual([{ rank: 0, count: n }]);
    const rot = (x: number, k: number): number => ((x << k) | (x >>> (stages - k))) & (n - 1);
    for (let x = 0; x < n; x++) {
      const map = Int32Array.from({ length: t.numNodes }, (_, v) => {
        if (v < n) return v ^ x;
        const s = Math.floor((v - n) / half);
        const row = (v - n) % half;
        // Switch lines (after the shuffle into stage s) move by rot^(s+1)(x).
        return n + s * half + (((2 * row) ^ rot(x, (s + 1) % stages)) >> 1);
      });
      expect(isAutomorphism(t, map)).toBe(true);
    }
  });
  it('refuses a size that is not a power of two', () => {
    expect(() => buildTopology('omega:12')).toThrow(/omega.n: got 12; accepted: a power of two/);
  });
});
