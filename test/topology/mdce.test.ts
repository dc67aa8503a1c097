// Seed 004 (spec/seed004_mdce.md): DCE/MDCE generators, symmetry, Eqs. (1)-(6), Table 1.
import { describe, expect, it } from 'vitest';
import {
  buildTopology,
  cBanyan,
  cubeConnectedCycles,
  dceNetwork,
  distanceSummary,
  fatTree,
  omega,
  InputError,
  LimitError,
  mdce,
  mdceTable1,
  mesh,
  torus,
  Topology,
} from '../../src/index.js';
import {
  eq1Diameter,
  eq2CBanyanMean,
  eq2CBanyanMeanSum,
  eq3CccMean,
  eq3CccMeanSum,
  eq6MdceMean,
  extraStageRule,
  fatTreeExactMean,
  fatTreeRule,
  meshExactMean,
  meshRule,
  omegaExactMean,
  omegaRule,
  torusExactMean,
  torusRule,
} from '../../src/topology/mdce/formulas.js';
import { matchesPaper } from '../../src/topology/mdce/table1.js';

/** Node id of (x0, x1, …) with ring length L and n-bit ring indices (dimension 0 fastest). */
function id(L: number, n: number, coords: number[]): number {
  let ring = 0;
  for (let i = coords.length - 1; i >= 1; i--) ring = ring * 2 ** n + coords[i];
  return coords[0] + L * ring;
}

function outTargets(t: Topology, v: number): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) out.push([t.chDst[t.outChannels[i]], t.className(t.outChannels[i])]);
  return out;
}

describe('DCE generators (spec §1.3)', () => {
  it('c-Banyan: (x, y) -> ((x+1) mod n, y) and ((x+1) mod n, y XOR 2^x)', () => {
    const n = 3;
    const t = cBanyan(n); // Fig. 1: 3×8 c-Banyan
    expect(t.numNodes).toBe(24);
    expect(t.numChannels).toBe(48);
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < n; x++) {
        const v = id(n, n, [x, y]);
        expect([t.coord(v, 0), t.coord(v, 1)]).toEqual([x, y]);
        expect(outTargets(t, v)).toEqual([
          [id(n, n, [(x + 1) % n, y]), 'ring'],
          [id(n, n, [(x + 1) % n, y ^ (1 << x)]), 'banyan-y'],
        ]);
        expect(t.inDegree(v)).toBe(2);
      }
    }
  });
  it('CCC: the cross link stays at x and flips bit x (delta = 0)', () => {
    const t = buildTopology('ccc:4');
    expect(t.spec).toBe('ccc:4');
    const v = id(4, 4, [2, 0b0101]);
    expect(outTargets(t, v)).toEqual([
      [id(4, 4, [3, 0b0101]), 'ring'],
      [id(4, 4, [2, 0b0001]), 'ccc-y'],
    ]);
  });
  it('dce:n,delta is the general form: delta 1 = cbanyan, delta 2 skips a position (App. A)', () => {
    const a = buildTopology('dce:n=4,delta=1');
    const b = buildTopology('cbanyan:n=4');
    expect(Array.from(a.chDst)).toEqual(Array.from(b.chDst));
    const d2 = buildTopology('dce:n=4,delta=2');
    expect(outTargets(d2, id(4, 4, [3, 0]))[1]).toEqual([id(4, 4, [1, 0b1000]), 'cross2-y']);
  });
  it('extra stage (spec §1.5, §3.5): a = no cross link at x = n, b = flip bit 0 again', () => {
    const a = cBanyan(3, 'a');
    const b = cBanyan(3, 'b');
    expect(a.numNodes).toBe(4 * 8);
    const v = id(4, 3, [3, 0b110]);
    expect(outTargets(a, v)).toEqual([[id(4, 3, [0, 0b110]), 'ring']]);
    expect(outTargets(b, v)).toEqual([
      [id(4, 3, [0, 0b110]), 'ring'],
      [id(4, 3, [0, 0b111]), 'banyan-y'],
    ]);
    expect(buildTopology('ccc:7,extra-stage=b').numNodes).toBe(1024); // Table 1's 8×128
  });
});

describe('MDCE generator (spec §1.4)', () => {
  it('(1,1,1)-MDCE: n·2^(2n) nodes, degree 3+3, c-Banyan in x-y and CCC in x-z (Fig. 5)', () => {
    const t = buildTopology('mdce:B=1,C=1,P=1,n=4');
    expect(t.numNodes).toBe(4 * 16 * 16);
    expect(t.numChannels).toBe(1024 * 3);
    const v = id(4, 4, [1, 0b0000, 0b1111]);
    expect(outTargets(t, v)).toEqual([
      [id(4, 4, [2, 0, 0b1111]), 'ring'],
      [id(4, 4, [2, 0b0010, 0b1111]), 'banyan-y'],
      [id(4, 4, [1, 0, 0b1101]), 'ccc-z'],
    ]);
    expect([t.coord(v, 0), t.coord(v, 1), t.coord(v, 2)]).toEqual([1, 0, 15]);
  });
  it('P multiplies the parallel links: degree B+C+P each way', () => {
    const t = mdce(2, 1, 2, 2);
    for (let v = 0; v < t.numNodes; v++) {
      expect(t.outDegree(v)).toBe(5);
      expect(t.inDegree(v)).toBe(5);
    }
    expect(outTargets(t, 0).map(([, c]) => c)).toEqual(['ring', 'ring', 'banyan-y', 'banyan-z', 'ccc-w']);
  });
  it('refuses bad parameters naming the field, and oversized networks naming the limit', () => {
    const err = (spec: string) => {
      try {
        buildTopology(spec);
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        return (e as InputError).message;
      }
      throw new Error(`accepted ${spec}`);
    };
    expect(err('mdce:B=0,C=0,P=1,n=3')).toMatch(/^topology\.B: .*B \+ C >= 1/);
    expect(err('mdce:B=1,C=1,P=0,n=3')).toMatch(/^topology\.P:/);
    expect(err('mdce:B=1,C=1,n=1')).toMatch(/^topology\.n:/);
    expect(err('cbanyan:3,extra-stage=c')).toMatch(/^topology\.extra-stage:/);
    expect(err('dce:n=4,delta=4')).toMatch(/^topology\.delta:/);
    expect(err('dce:n=4')).toMatch(/^topology\.delta:/);
    expect(err('cbanyan:3,n=3')).toMatch(/^topology\.n:/);
    expect(err('mdce:B=1,C=1,n=4,Q=2')).toMatch(/^topology\.Q:/);
    expect(err('mdce:B=2,C=1,n=9')).toMatch(/16777216 nodes/);
    try {
      buildTopology('mdce:B=1,C=1,n=12,extra-stage=b'); // 13·2^24 nodes
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(LimitError);
      expect((e as Error).message).toMatch(/at most 16777216 nodes/);
    }
  });
});

describe('declared symmetry equals all-pairs BFS (XOR translation; plus bit rotation when complete)', () => {
  const specs = [
    'cbanyan:3',
    'cbanyan:5',
    'ccc:4',
    'cbanyan:4,extra-stage=a',
    'cbanyan:4,extra-stage=b',
    'ccc:3,extra-stage=a',
    'ccc:3,extra-stage=b',
    'dce:n=4,delta=2',
    'mdce:B=1,C=1,n=3',
    'mdce:B=2,C=0,n=3',
    'mdce:B=0,C=2,n=3',
    'mdce:B=1,C=1,P=2,n=2,extra-stage=b',
  ];
  for (const spec of specs) {
    it(spec, () => {
      const t = buildTopology(spec);
      const fast = distanceSummary(t);
      const full = distanceSummary(t, { method: 'all-pairs' });
      expect(fast.method).toBe('symmetry');
      expect(fast.searches).toBe(t.params.extraStage === 'none' ? 1 : t.params.ringLength);
      expect(full.searches).toBe(t.numNodes);
      expect(fast.histogram).toEqual(full.histogram);
    });
  }
});

describe('Eq. (1) diameter against exact BFS (spec §3.1)', () => {
  for (let n = 2; n <= 7; n++) {
    it(`c-Banyan and CCC at n=${n}: 2n-1 and 3n-2`, () => {
      expect(distanceSummary(cBanyan(n)).diameter).toBe(eq1Diameter(n, 1, 0));
      expect(distanceSummary(cubeConnectedCycles(n)).diameter).toBe(eq1Diameter(n, 0, 1));
      expect(eq1Diameter(n, 1, 0)).toBe(2 * n - 1);
      expect(eq1Diameter(n, 0, 1)).toBe(3 * n - 2);
    });
  }
  const cases: Array<[number, number, number]> = [
    [2, 0, 3],
    [1, 1, 3],
    [0, 2, 3],
    [2, 0, 4],
    [1, 1, 4],
    [0, 2, 4],
    [3, 0, 3],
    [2, 1, 3],
    [1, 2, 3],
    [0, 3, 3],
  ];
  for (const [B, C, n] of cases) {
    it(`(${B},${C},1)-MDCE at n=${n}`, () => {
      expect(distanceSummary(mdce(B, C, 1, n)).diameter).toBe(eq1Diameter(n, B, C));
    });
  }
  it('spec §3.1 examples: (2,0,1) and (1,1,1) at 4×16×16 → 11, (0,2) at n=4 → 14', () => {
    expect(eq1Diameter(4, 2, 0)).toBe(11);
    expect(eq1Diameter(4, 1, 1)).toBe(11);
    expect(eq1Diameter(8, 1, 1)).toBe(23);
    expect(eq1Diameter(4, 0, 2)).toBe(14);
  });
  it('extra stage (spec §3.1): BFS diameter of 8×128 is 15 (CB) and 21 (CCC) under either wiring', () => {
    for (const stage of ['a', 'b'] as const) {
      expect(distanceSummary(cBanyan(7, stage)).diameter).toBe(15);
      expect(distanceSummary(cubeConnectedCycles(7, stage)).diameter).toBe(21);
    }
  });
});

describe('Eqs. (2), (3) mean distance exactly (spec §3.2-3.3, N² pairs with self-pairs)', () => {
  it('closed forms equal the paper sums and the spec §4 reference values', () => {
    for (let n = 1; n <= 20; n++) {
      expect(eq2CBanyanMean(n)).toBeCloseTo(eq2CBanyanMeanSum(n), 12);
      expect(eq3CccMean(n)).toBeCloseTo(eq3CccMeanSum(n), 12);
    }
    expect(eq2CBanyanMean(3)).toBe(3.125);
    expect(eq3CccMean(3)).toBe(3.75);
    expect(eq2CBanyanMean(7)).toBe(9.0078125);
    expect(eq3CccMean(7)).toBe(11.515625);
    expect(eq2CBanyanMean(8)).toBe(10.50390625);
    expect(eq3CccMean(8)).toBe(13.5078125);
  });
  for (let n = 2; n <= 7; n++) {
    it(`equal the exact BFS mean at n=${n} (and the N(N-1) mean does not)`, () => {
      const cb = distanceSummary(cBanyan(n));
      const cc = distanceSummary(cubeConnectedCycles(n));
      expect(cb.meanWithSelf).toBeCloseTo(eq2CBanyanMean(n), 12);
      expect(cc.meanWithSelf).toBeCloseTo(eq3CccMean(n), 12);
      expect(Math.abs(cb.meanWithoutSelf - eq2CBanyanMean(n))).toBeGreaterThan(1e-6);
    });
  }
});

describe('Eq. (6) MDCE mean distance (spec §3.4)', () => {
  it('reduces to Eq. (2) for B=1, C=0', () => {
    for (let n = 2; n <= 12; n++) expect(eq6MdceMean(n, 1, 0)).toBeCloseTo(eq2CBanyanMean(n), 12);
  });
  it('reproduces the spec values: (1,1) 6.4375 / 14.48828, (2,0) 7.29296875 / 16.75029', () => {
    expect(eq6MdceMean(4, 1, 1)).toBe(6.4375);
    expect(eq6MdceMean(8, 1, 1)).toBeCloseTo(14.48828, 5);
    expect(eq6MdceMean(4, 2, 0)).toBe(7.29296875);
    expect(eq6MdceMean(8, 2, 0)).toBeCloseTo(16.75029, 5);
  });
  it('is exact for pure c-Banyan products (C = 0)', () => {
    for (const [B, n] of [
      [2, 3],
      [2, 4],
      [3, 3],
    ]) {
      expect(distanceSummary(mdce(B, 0, 1, n)).meanWithSelf).toBeCloseTo(eq6MdceMean(n, B, 0), 12);
    }
  });
  it('underestimates when C > 0 (spec §3.4 table: (1,1) n=3 exact 4.8438 vs 4.4375; (1,2) n=3 6.4297 vs 5.75)', () => {
    expect(distanceSummary(mdce(1, 1, 1, 3)).meanWithSelf).toBeCloseTo(4.84375, 4);
    expect(eq6MdceMean(3, 1, 1)).toBe(4.4375);
    expect(distanceSummary(mdce(1, 2, 1, 3)).meanWithSelf).toBeCloseTo(6.4297, 4);
    expect(eq6MdceMean(3, 1, 2)).toBe(5.75);
  });
});

describe('exact closed forms of the other Table 1 networks against BFS (spec §3.5)', () => {
  it('mesh and torus: sum of per-dimension exact means equals all-pairs BFS', () => {
    for (const dims of [[5, 4], [6, 3, 2], [7]]) {
      expect(distanceSummary(mesh(dims), { method: 'all-pairs' }).meanWithSelf).toBeCloseTo(meshExactMean(dims), 12);
      expect(distanceSummary(torus(dims), { method: 'all-pairs' }).meanWithSelf).toBeCloseTo(torusExactMean(dims), 12);
    }
  });
  it('binary fat tree (fattree:k=2): 2L-3+3·2^-L switches traversed, diameter 2L-1', () => {
    for (let L = 1; L <= 9; L++) {
      const s = distanceSummary(fatTree({ k: 2, levels: L }), { method: 'all-pairs' });
      expect(s.meanWithSelf).toBeCloseTo(fatTreeExactMean(L), 12);
      expect(s.diameter).toBe(2 * L - 1);
    }
  });
  it('omega: log2 N switches between distinct PEs, 0 to itself', () => {
    for (const N of [4, 8, 64, 512]) {
      const s = distanceSummary(omega(N), { method: 'all-pairs' });
      expect(s.meanWithSelf).toBeCloseTo(omegaExactMean(N), 12);
      expect(s.meanWithoutSelf).toBeCloseTo(Math.log2(N), 12);
    }
  });
});

describe('Table 1 (spec §4)', () => {
  const PAPER_524K: Record<string, number> = { '(CB)²': 18.61, CCCB: 14.49, CB: 22.0, CCC: 28.5, '2DM': 768, '2DT': 384, '3DT': 64, FT: 35, MIN: 19 };
  const rows = mdceTable1([1024]);

  it('lists the nine networks with the paper values verbatim', () => {
    expect(rows.map((r) => [r.label, r.degree, r.config, r.paper])).toEqual([
      ['(CB)²', '3+3', '4×16×16', 8.15],
      ['CCCB', '3+3', '4×16×16', 6.44],
      ['CB', '2+2', '8×128', 10.01],
      ['CCC', '2+2', '8×128', 12.52],
      ['2DM', '4+4', '32×32', 32.0],
      ['2DT', '4+4', '32×32', 16.0],
      ['3DT', '6+6', '8×8×16', 8.0],
      ['FT', '4+4', '1024×10', 17.0],
      ['MIN', '2+2', '512×10', 10.0],
    ]);
  });
  it("the paper's formula/rule column equals every entry except the (2,0,1) row, at both sizes", () => {
    for (const r of rows) expect(matchesPaper(r.formula.value, r.paper), r.label).toBe(r.label !== '(CB)²');
    // 524,288 PEs, the same formulas without the BFS (spec §3.5).
    const rules524k: Record<string, number> = {
      '(CB)²': eq6MdceMean(8, 2, 0),
      CCCB: eq6MdceMean(8, 1, 1),
      CB: extraStageRule(15, 1),
      CCC: extraStageRule(15, 0),
      '2DM': meshRule([1024, 512]),
      '2DT': torusRule([1024, 512]),
      '3DT': torusRule([64, 64, 128]),
      FT: fatTreeRule(19),
      MIN: omegaRule(2 ** 19),
    };
    for (const [label, value] of Object.entries(rules524k)) expect(matchesPaper(value, PAPER_524K[label]), label).toBe(label !== '(CB)²');
  });
  it('the exact column equals BFS: (1,1,1) 6.8359 and (2,0,1) 7.2930 (spec §3.4), CB 10.135 / CCC 12.643 with extra-stage=b (spec §3.5)', () => {
    const by = Object.fromEntries(rows.map((r) => [r.label, r]));
    expect(by.CCCB.exact.meanWithSelf).toBeCloseTo(6.8359375, 10);
    expect(by['(CB)²'].exact.meanWithSelf).toBeCloseTo(7.29296875, 10);
    expect(by.CB.exact.meanWithSelf).toBeCloseTo(10.134765625, 10);
    expect(by.CB.exactOtherWiring!.meanWithSelf).toBeCloseTo(10.2587890625, 10);
    expect(by.CCC.exact.meanWithSelf).toBeCloseTo(12.642578125, 10);
    expect(by.CCC.exactOtherWiring!.meanWithSelf).toBeCloseTo(12.7666015625, 10);
    // Mesh and torus rows come from per-dimension sums; check them against BFS on the whole 32×32 graphs.
    expect(by['2DM'].exact.meanWithSelf).toBeCloseTo(distanceSummary(mesh([32, 32]), { method: 'all-pairs' }).meanWithSelf, 10);
    expect(by['2DT'].exact.meanWithSelf).toBeCloseTo(distanceSummary(torus([32, 32])).meanWithSelf, 10);
    expect(by['3DT'].exact.meanWithSelf).toBeCloseTo(distanceSummary(torus([8, 8, 16])).meanWithSelf, 10);
    expect(by.CCCB.exact.diameter).toBe(11);
    expect(by.CCCB.formulaDiameter).toBe(11);
  });
  it('extraStage a puts the other wiring in the exact column (spec §3.5: CB 10.259, CCC 12.767)', () => {
    const a = Object.fromEntries(mdceTable1([1024], { extraStage: 'a' }).map((r) => [r.label, r]));
    expect(a.CB.exact.meanWithSelf).toBeCloseTo(10.2587890625, 10);
    expect(a.CB.exactOtherWiring!.meanWithSelf).toBeCloseTo(10.134765625, 10);
    expect(a.CCC.exact.meanWithSelf).toBeCloseTo(12.7666015625, 10);
    expect(a.CB.notes[0]).toMatch(/10\.2588 \(extra-stage=a\), 10\.1348 \(extra-stage=b\)/);
  });
  it('has a note wherever exact and paper differ, giving the known reason', () => {
    for (const r of rows) expect(r.notes.length > 0, r.label).toBe(!matchesPaper(r.exact.meanWithSelf, r.paper));
    const note = (label: string) => rows.find((r) => r.label === label)!.notes.join(' ');
    expect(note('(CB)²')).toMatch(/likely error in the paper/);
    expect(note('CCCB')).toMatch(/Eq\. \(6\) drops CCC hops when C > 0/);
    expect(note('CB')).toMatch(/extra stage/);
    expect(note('CCC')).toMatch(/extra stage/);
    expect(note('2DM')).toMatch(/1\.5×/);
    expect(note('MIN')).toMatch(/self-pairs convention/);
  });
});

describe('dceNetwork library API', () => {
  it('records every shaping parameter', () => {
    const t = dceNetwork({ n: 3, deltas: [1, 0], P: 2, extraStage: 'b', family: 'mdce' });
    expect(t.params).toMatchObject({ n: 3, ringLength: 4, B: 1, C: 1, P: 2, extraStage: 'b', rings: 64 });
    expect(t.spec).toBe('mdce:B=1,C=1,P=2,n=3,extra-stage=b');
  });
});
