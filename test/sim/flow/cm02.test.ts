import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { resolveRouting, FlowProgramBuilder, mesh, simulateFlow } from '../../../src/index.js';
import { cm02Weight, MaxMinSolver } from '../../../src/sim/flow/maxmin.js';

/**
 * Weighted progressive filling written from its definition, as slowly and plainly as possible: the
 * level λ rises; flow f runs at λ·w[f]; the next event is the smallest λ at which a resource
 * saturates or an unfrozen flow reaches its cap. The reference for the solver's weighted mode.
 */
function referenceWeighted(capacity: number[], paths: number[][], cap: number[], w: number[]): number[] {
  const F = paths.length;
  const rate = new Array<number>(F).fill(NaN);
  const frozen = new Array<boolean>(F).fill(false);
  const used = capacity.map(() => 0);
  for (let left = paths.filter((p) => p.length > 0).length; left > 0; ) {
    let level = Infinity;
    for (let r = 0; r < capacity.length; r++) {
      let sw = 0;
      for (let f = 0; f < F; f++) if (!frozen[f] && paths[f].includes(r)) sw += w[f];
      if (sw > 0) level = Math.min(level, Math.max(0, capacity[r] - used[r]) / sw);
    }
    for (let f = 0; f < F; f++) if (!frozen[f] && paths[f].length > 0) level = Math.min(level, cap[f] / w[f]);
    const freeze = new Set<number>();
    for (let f = 0; f < F; f++) if (!frozen[f] && paths[f].length > 0 && cap[f] / w[f] <= level * (1 + 1e-12)) freeze.add(f);
    for (let r = 0; r < capacity.length; r++) {
      let sw = 0;
      for (let f = 0; f < F; f++) if (!frozen[f] && paths[f].includes(r)) sw += w[f];
      if (sw > 0 && Math.max(0, capacity[r] - used[r]) / sw <= level * (1 + 1e-12)) for (let f = 0; f < F; f++) if (!frozen[f] && paths[f].includes(r)) freeze.add(f);
    }
    for (const f of freeze) {
      rate[f] = Math.min(cap[f], level * w[f]);
      frozen[f] = true;
      left--;
      for (const r of paths[f]) used[r] += rate[f];
    }
  }
  for (let f = 0; f < F; f++) if (paths[f].length === 0) rate[f] = cap[f];
  return rate;
}

const instance = fc.record({
  capacity: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 8 }),
  flows: fc.array(
    fc.record({
      path: fc.uniqueArray(fc.nat(7), { minLength: 1, maxLength: 4 }),
      cap: fc.option(fc.integer({ min: 1, max: 600 }), { freq: 3 }),
      // Route latencies of 1 to 6 hops of 100 ns, as CM02 weights them.
      hops: fc.integer({ min: 1, max: 6 }),
    }),
    { minLength: 1, maxLength: 16 },
  ),
});

describe('CM02 sharing (SimGrid LMM: share ∝ 1 / route latency)', () => {
  it('the weighted solver gives the rates of a from-scratch weighted progressive filling, and they are weighted max-min fair', () => {
    fc.assert(
      fc.property(instance, ({ capacity, flows }) => {
        const R = capacity.length;
        const paths = flows.map((f) => f.path.filter((r) => r < R));
        const cap = flows.map((f) => f.cap ?? Infinity);
        const w = flows.map((f) => cm02Weight(f.hops * 100e-9));
        const F = flows.length;
        const pathStart = new Int32Array(F);
        const pathLen = new Int32Array(F);
        const entries: number[] = [];
        paths.forEach((p, f) => {
          pathStart[f] = entries.length;
          pathLen[f] = p.length;
          entries.push(...p);
        });
        const rate = new Float64Array(F);
        const active = Int32Array.from(paths.keys());
        new MaxMinSolver(Float64Array.from(capacity)).solve(active, F, pathStart, pathLen, Int32Array.from(entries), Float64Array.from(cap), rate, undefined, Float64Array.from(w));
        const reference = referenceWeighted(capacity, paths, cap, w);
        const used = new Array<number>(R).fill(0);
        for (let f = 0; f < F; f++) {
          if (reference[f] === Infinity) expect(rate[f]).toBe(Infinity);
          else expect(rate[f] / reference[f]).toBeCloseTo(1, 9);
          for (const r of paths[f]) used[r] += rate[f];
        }
        for (let r = 0; r < R; r++) expect(used[r]).toBeLessThanOrEqual(capacity[r] * (1 + 1e-9));
        // Definition: each flow is at its cap, or crosses a saturated resource on which no other
        // flow has a larger rate per unit of weight.
        for (let f = 0; f < F; f++) {
          if (rate[f] >= cap[f] * (1 - 1e-9)) continue;
          const bottleneck = paths[f].some(
            (r) => used[r] >= capacity[r] * (1 - 1e-9) && paths.every((p, g) => !p.includes(r) || rate[g] / w[g] <= (rate[f] / w[f]) * (1 + 1e-9)),
          );
          expect(bottleneck).toBe(true);
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  it('with all weights 1 the weighted solve is byte-identical to plain max-min', () => {
    fc.assert(
      fc.property(instance, ({ capacity, flows }) => {
        const R = capacity.length;
        const F = flows.length;
        const pathStart = new Int32Array(F);
        const pathLen = new Int32Array(F);
        const entries: number[] = [];
        flows.forEach((fl, f) => {
          const p = fl.path.filter((r) => r < R);
          pathStart[f] = entries.length;
          pathLen[f] = p.length;
          entries.push(...p);
        });
        const cap = Float64Array.from(flows, (f) => f.cap ?? Infinity);
        const active = Int32Array.from(flows.keys());
        const plain = new Float64Array(F);
        const ones = new Float64Array(F);
        const solver = new MaxMinSolver(Float64Array.from(capacity));
        solver.solve(active, F, pathStart, pathLen, Int32Array.from(entries), cap, plain);
        solver.solve(active, F, pathStart, pathLen, Int32Array.from(entries), cap, ones, undefined, new Float64Array(F).fill(1));
        expect(Array.from(ones)).toEqual(Array.from(plain));
      }),
      { numRuns: 200, seed: 5 },
    );
  });

  it('a 1-hop and a 2-hop flow sharing a link end at 1.5 S/B and 2 S/B (issue 17: 157 µs and 210 µs), both at 2 S/B under max-min', () => {
    // mesh 3x2 (node = x + 3y): (1,0)->(2,0) is 1 hop over (1,0)->(2,0); (1,0)->(2,1) is 2 hops over
    // the same link, then up. Weights 1/L and 1/2L give rates 2B/3 and B/3 until the first ends
    // (S / (2B/3) = 1.5 S/B), when the second has S/2 left at B: 2 S/B. Each delivery adds its path latency.
    const B = 10e9;
    const L = 100e-9;
    const S = 1.05e6; // S/B = 105 µs
    const topo = mesh([3, 2], { bandwidth: B, latency: L });
    const routing = resolveRouting(topo, { engine: 'flow' });
    const b = new FlowProgramBuilder(6);
    b.beginStream(1).send(2, S, 0);
    b.beginStream(1).send(5, S, 1);
    b.beginStream(2).recv(1, S, 0);
    b.beginStream(5).recv(1, S, 1);
    for (const r of [0, 3, 4]) b.beginStream(r);
    const program = b.build();
    const cm02 = simulateFlow(topo, routing, program, { alpha: 0, sharing: 'cm02', injectionOrder: 'shared' });
    expect(cm02.rankFinish[2] / (1.5 * (S / B) + L)).toBeCloseTo(1, 12);
    expect(cm02.rankFinish[5] / (2 * (S / B) + 2 * L)).toBeCloseTo(1, 12);
    const maxmin = simulateFlow(topo, routing, program, { alpha: 0, injectionOrder: 'shared' });
    expect(maxmin.rankFinish[2] / (2 * (S / B) + L)).toBeCloseTo(1, 12);
    expect(maxmin.rankFinish[5] / (2 * (S / B) + 2 * L)).toBeCloseTo(1, 12);
  });

  it('refuses cm02 with local rate updates in one line', () => {
    const topo = mesh([2]);
    const b = new FlowProgramBuilder(2);
    b.beginStream(0);
    b.beginStream(1);
    expect(() => simulateFlow(topo, resolveRouting(topo, { engine: 'flow' }), b.build(), { sharing: 'cm02', rateUpdate: 'local' })).toThrow(/model\.sharing: got "cm02"/);
  });
});

/**
 * Weighted progressive filling with per-entry coefficients (SimGrid's LMM consumption weights), from
 * its definition: flow f loads resource r by coef × its rate for each entry (r, coef) of its path.
 */
function referenceWithCoefficients(capacity: number[], paths: Array<Array<[number, number]>>, w: number[]): number[] {
  const F = paths.length;
  const rate = new Array<number>(F).fill(NaN);
  const frozen = new Array<boolean>(F).fill(false);
  const used = capacity.map(() => 0);
  const load = (r: number) => {
    let sw = 0;
    for (let f = 0; f < F; f++) if (!frozen[f]) for (const [q, c] of paths[f]) if (q === r) sw += c * w[f];
    return sw;
  };
  for (let left = F; left > 0; ) {
    let level = Infinity;
    for (let r = 0; r < capacity.length; r++) {
      const sw = load(r);
      if (sw > 0) level = Math.min(level, Math.max(0, capacity[r] - used[r]) / sw);
    }
    const freeze = new Set<number>();
    for (let r = 0; r < capacity.length; r++) {
      const sw = load(r);
      if (sw > 0 && Math.max(0, capacity[r] - used[r]) / sw <= level * (1 + 1e-12)) for (let f = 0; f < F; f++) if (!frozen[f] && paths[f].some(([q]) => q === r)) freeze.add(f);
    }
    for (const f of freeze) {
      rate[f] = level * w[f];
      frozen[f] = true;
      left--;
      for (const [r, c] of paths[f]) used[r] += c * rate[f];
    }
  }
  return rate;
}

describe("fractional path entries (SimGrid's cross-traffic: a flow loads its reverse route at 0.05 of its rate)", () => {
  it('the solver with fractional entries gives the rates of a from-scratch filling with per-entry coefficients', () => {
    const COEF = 0.05;
    fc.assert(
      fc.property(instance, fc.array(fc.uniqueArray(fc.nat(7), { maxLength: 4 }), { minLength: 16, maxLength: 16 }), ({ capacity, flows }, reverse) => {
        const R = capacity.length;
        const F = flows.length;
        // Forward entries at coefficient 1, reverse ones (as R + r) at COEF.
        const paths = flows.map((f, i): Array<[number, number]> => [...f.path.filter((r) => r < R).map((r): [number, number] => [r, 1]), ...reverse[i].filter((r) => r < R).map((r): [number, number] => [r, COEF])]);
        const live = paths.map((p, f) => (p.some(([, c]) => c === 1) ? f : -1)).filter((f) => f >= 0);
        const w = flows.map((f) => cm02Weight(f.hops * 100e-9));
        const pathStart = new Int32Array(F);
        const pathLen = new Int32Array(F);
        const entries: number[] = [];
        paths.forEach((p, f) => {
          pathStart[f] = entries.length;
          pathLen[f] = p.length;
          entries.push(...p.map(([r, c]) => (c === 1 ? r : R + r)));
        });
        const rate = new Float64Array(F);
        const solver = new MaxMinSolver(Float64Array.from(capacity), undefined, { base: R, coef: COEF });
        solver.solve(Int32Array.from(live), live.length, pathStart, pathLen, Int32Array.from(entries), new Float64Array(F).fill(Infinity), rate, undefined, Float64Array.from(w));
        const reference = referenceWithCoefficients(capacity, live.map((f) => paths[f]), live.map((f) => w[f]));
        live.forEach((f, k) => expect(rate[f] / reference[k]).toBeCloseTo(1, 9));
        const used = new Array<number>(R).fill(0);
        for (const f of live) for (const [r, c] of paths[f]) used[r] += c * rate[f];
        for (let r = 0; r < R; r++) expect(used[r]).toBeLessThanOrEqual(capacity[r] * (1 + 1e-9));
      }),
      { numRuns: 200, seed: 23 },
    );
  });
});

describe("latencyRule 'before-transfer' (SimGrid: a flow holds no bandwidth for its route latency, then transfers)", () => {
  // mesh 1x3, 1 µs links, 32 GB/s: rank 0 sends S = 16,000 B (T = 0.5 µs) to rank 1 (1 hop) and to rank 2
  // (2 hops), both over link 0 -> 1. SimGrid: the 1-hop flow transfers alone from 1 µs, the 2-hop one
  // from 2 µs: delivered at 1.5 µs and 2.5 µs. On delivery they share link 0 -> 1 at once.
  const topo = mesh([3, 1], { bandwidth: 32e9, latency: 1e-6 });
  const S = 16000;
  const prog = new FlowProgramBuilder(3).beginStream(0).send(1, S).send(2, S).beginStream(1).recv(0, S).beginStream(2).recv(0, S).build();
  const run = (latencyRule: 'on-delivery' | 'before-transfer') =>
    simulateFlow(topo, resolveRouting(topo, { engine: 'flow' }), prog, { alpha: 0, sharing: 'cm02', injectionOrder: 'shared', latencyRule }).rankFinish;

  it('delivers each flow one route latency plus its lone transfer after it was posted when their latency phases do not overlap the other transfer', () => {
    const finish = run('before-transfer');
    expect(finish[1]).toBeCloseTo(1.5e-6, 15);
    expect(finish[2]).toBeCloseTo(2.5e-6, 15);
    // On delivery: both transfer from 0 sharing link 0 -> 1 (CM02 weights 2:1), so the 1-hop flow ends later than 1.5 µs.
    expect(run('on-delivery')[1]).toBeGreaterThan(1.5e-6 + 1e-9);
  });

  it('is refused without injection order shared, in one line', () => {
    expect(() => simulateFlow(topo, resolveRouting(topo, { engine: 'flow' }), prog, { latencyRule: 'before-transfer' })).toThrow(/^model\.latencyRule: got "before-transfer"; accepted: on-delivery unless injectionOrder is shared/);
  });
});
