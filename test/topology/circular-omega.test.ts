// The circular omega network (seed 004 §2, spec §1.2, EM-4): both readings of the paper's
// construction, their exact distances against BFS, and the 'dce' reading's isomorphism with c-Banyan.
import { describe, expect, it } from 'vitest';
import { buildTopology, cBanyan, circularOmega, distanceSummary, InputError, LimitError } from '../../src/index.js';
import { circularOmegaDistances } from '../../src/topology/mdce/circular-omega.js';
import { eq2CBanyanMean } from '../../src/topology/mdce/formulas.js';
import { circularOmegaRows } from '../../src/topology/mdce/table1.js';

describe('circular omega: the construction as built', () => {
  it('omega reading: m stages of 2^(m-1) nodes (EM-4: m = 5, 80 PEs; Table 1: m = 8, 1,024 PEs as 8×128)', () => {
    expect(buildTopology('comega:5').numNodes).toBe(80);
    const t = buildTopology('comega:8');
    expect(t.numNodes).toBe(1024);
    expect(t.params.nodesPerStage).toBe(128);
    // Degree 2+2 everywhere.
    for (let v = 0; v < t.numNodes; v++) expect(t.outStart[v + 1] - t.outStart[v]).toBe(2);
    expect(buildTopology('comega:m=6,reading=dce').numNodes).toBe(6 * 64);
  });
  it('links follow the omega MIN: line 2j+b of stage s, shuffled (rotated left over k+1 bits), enters switch rot(2j+b) >> 1 of stage s+1', () => {
    const m = 4;
    const t = circularOmega(m);
    const k = m - 1;
    const rotl = (line: number) => ((line << 1) | (line >>> k)) & ((1 << (k + 1)) - 1);
    for (let j = 0; j < 2 ** k; j++) {
      for (let s = 0; s < m; s++) {
        const v = s + m * j;
        const got = [0, 1].map((p) => t.chDst[t.outChannels[t.outStart[v] + p]]);
        expect(got).toEqual([0, 1].map((b) => ((s + 1) % m) + m * (rotl(2 * j + b) >> 1)));
      }
    }
  });
  it('refuses bad sizes and readings naming the field, and sizes past the node limit with a LimitError', () => {
    expect(() => buildTopology('comega:1')).toThrow(InputError);
    expect(() => buildTopology('comega:4,reading=banyan')).toThrow(/reading.*omega, dce/);
    expect(() => buildTopology('comega:24,reading=dce')).toThrow(LimitError);
  });
});

describe('circular omega distances: closed form = BFS (docs/seed004.md)', () => {
  const cases: Array<[number, 'omega' | 'dce']> = [
    [3, 'omega'], [4, 'omega'], [5, 'omega'], [6, 'omega'], [7, 'omega'],
    [2, 'dce'], [3, 'dce'], [4, 'dce'], [5, 'dce'],
  ];
  for (const [m, reading] of cases) {
    it(`comega:${m},reading=${reading}: all-pairs BFS and the declared symmetry give the closed form`, () => {
      const t = circularOmega(m, reading);
      const k = reading === 'omega' ? m - 1 : m;
      const all = distanceSummary(t, { method: 'all-pairs' });
      const sym = distanceSummary(t);
      const exact = circularOmegaDistances(m, k);
      expect(all.meanWithSelf).toBeCloseTo(exact.meanWithSelf, 12);
      expect(sym.meanWithSelf).toBeCloseTo(exact.meanWithSelf, 12);
      expect(all.diameter).toBe(exact.diameter);
      expect(sym.diameter).toBe(exact.diameter);
    });
  }
  it('Table 1 sizes under the omega reading: 1,024 PEs mean 3·7/2 − 1 + 2^−7, diameter 14; 524,288 PEs mean 21.5000, diameter 30', () => {
    expect(circularOmegaDistances(8, 7).meanWithSelf).toBeCloseTo(9.5078125, 12);
    expect(circularOmegaDistances(8, 7).diameter).toBe(14);
    expect(circularOmegaDistances(16, 15).meanWithSelf).toBeCloseTo(21.5 + 2 ** -15, 12);
    expect(circularOmegaDistances(16, 15).diameter).toBe(30);
  });
  it("the dce reading's mean is Eq. (2), c-Banyan's", () => {
    for (let n = 2; n <= 15; n++) expect(circularOmegaDistances(n, n).meanWithSelf).toBeCloseTo(eq2CBanyanMean(n), 12);
  });
});

describe("the 'dce' reading is c-Banyan (why the paper may use c-Banyan 'for ease of handling')", () => {
  // φ(x, y) = (x, rev(rotr(y, x))): bit x of y becomes the bit the shuffle shifts in at stage x.
  for (const n of [3, 4, 5, 6]) {
    it(`n = ${n}: φ maps every c-Banyan link onto a circular-omega link, one to one`, () => {
      const cb = cBanyan(n);
      const co = circularOmega(n, 'dce');
      const mask = (1 << n) - 1;
      const rotr = (y: number, r: number) => ((y >>> r) | (y << (n - r))) & mask;
      const rev = (z: number) => {
        let out = 0;
        for (let i = 0; i < n; i++) out |= ((z >>> i) & 1) << (n - 1 - i);
        return out;
      };
      const phi = (v: number) => {
        const x = v % n;
        return x + n * rev(rotr((v - x) / n, x));
      };
      const image = new Set(Array.from({ length: cb.numNodes }, (_, v) => phi(v)));
      expect(image.size).toBe(co.numNodes);
      const links = new Set<number>();
      for (let c = 0; c < co.numChannels; c++) links.add(co.chSrc[c] * co.numNodes + co.chDst[c]);
      const mapped = new Set<number>();
      for (let c = 0; c < cb.numChannels; c++) mapped.add(phi(cb.chSrc[c]) * co.numNodes + phi(cb.chDst[c]));
      expect(mapped).toEqual(links);
    });
  }
  it('the omega reading is not: at 1,024 PEs its mean 9.5078 is below both added-stage c-Banyans (10.1348 b, 10.2588 a)', () => {
    const cbB = distanceSummary(buildTopology('cbanyan:7,extra-stage=b')).meanWithSelf;
    expect(cbB).toBeCloseTo(10.1348, 4);
    expect(circularOmegaDistances(8, 7).meanWithSelf).toBeLessThan(cbB - 0.5);
  });
});

describe('circular omega beside Table 1 (meshwork table mdce, JSON key beside)', () => {
  it('the omega reading is at Table 1\'s sizes: comega:8 (8×128) at 1,024 PEs and comega:16 (16×32768) at 524,288, 21.5000 / diameter 30 (docs/seed004.md)', () => {
    const omega = circularOmegaRows([1024, 524288]).filter((row) => row.network === 'circular omega (omega reading)');
    expect(omega.map((row) => [row.pes, row.config, row.exact.spec])).toEqual([
      [1024, '8×128', 'comega:8'],
      [524288, '16×32768', 'comega:16'],
    ]);
    expect(omega[1].exact.meanWithSelf).toBeCloseTo(3 * 15 / 2 - 1 + 2 ** -15, 12); // 21.5000 at four decimals
    expect(omega[1].exact.diameter).toBe(30);
  });
});
