import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MaxMinSolver, SubsetFiller } from '../../../src/sim/flow/maxmin.js';
import { IndexedTimeHeap } from '../../../src/sim/program/event-queue.js';

/** A random sharing instance: flows over resources, some capped, a subset to re-rate. */
const instance = fc
  .record({
    resources: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 10 }),
    flows: fc.array(
      fc.record({
        path: fc.uniqueArray(fc.nat(9), { maxLength: 5 }),
        cap: fc.option(fc.integer({ min: 1, max: 600 }), { freq: 3 }),
        inSubset: fc.boolean(),
      }),
      { minLength: 1, maxLength: 24 },
    ),
    /** Percent of each resource's capacity that the flows outside the subset leave. */
    leave: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 10, maxLength: 10 }),
  })
  .map(({ resources, flows, leave }) => {
    const R = resources.length;
    const capacity = Float64Array.from(resources);
    const pathStart = new Int32Array(flows.length);
    const pathLen = new Int32Array(flows.length);
    const entries: number[] = [];
    const cap = new Float64Array(flows.length);
    flows.forEach((f, i) => {
      const path = f.path.filter((r) => r < R);
      pathStart[i] = entries.length;
      pathLen[i] = path.length;
      entries.push(...path);
      cap[i] = f.cap ?? Infinity;
    });
    const arena = Int32Array.from(entries);
    const subset = Int32Array.from(flows.flatMap((f, i) => (f.inSubset ? [i] : [])));
    const avail = capacity.map((c, r) => (c * leave[r]) / 100);
    return { R, capacity, pathStart, pathLen, arena, cap, subset, avail };
  });

describe('SubsetFiller (local rate updates)', () => {
  it('gives the rates of a from-scratch progressive filling (MaxMinSolver) on the subset, and they are max-min fair', () => {
    fc.assert(
      fc.property(instance, ({ R, capacity, pathStart, pathLen, arena, cap, subset, avail }) => {
        const F = pathStart.length;
        const n = subset.length;
        // Reference: the general solver over the subset, with `avail` as the capacities.
        const reference = new Float64Array(F);
        new MaxMinSolver(capacity).solve(subset, n, pathStart, pathLen, arena, cap, reference, avail);

        // The filler reads every active flow's positions per resource and picks out the subset.
        const lists: number[][] = Array.from({ length: R }, () => []);
        const owner = new Int32Array(arena.length);
        for (let f = 0; f < F; f++) {
          for (let p = pathStart[f]; p < pathStart[f] + pathLen[f]; p++) {
            lists[arena[p]].push(p);
            owner[p] = f;
          }
        }
        const member = new Int32Array(F);
        for (const f of subset) member[f] = 7;
        const count = new Int32Array(R);
        for (const f of subset) for (let p = pathStart[f]; p < pathStart[f] + pathLen[f]; p++) count[arena[p]]++;
        const only = new Int32Array(R);
        for (const f of subset) for (let p = pathStart[f]; p < pathStart[f] + pathLen[f]; p++) only[arena[p]] = f;
        const touched = Int32Array.from([...count.keys()].filter((r) => count[r] > 0));
        const load = new Float64Array(R).fill(1);
        const rate = new Float64Array(F).fill(NaN);
        new SubsetFiller(R).solve(subset, n, pathStart, pathLen, arena, cap, rate, touched, touched.length, avail, count, only, lists, Int32Array.from(lists, (l) => l.length), owner, member, 7, load);

        const used = new Float64Array(R);
        for (const f of subset) {
          expect(rate[f]).toBeCloseTo(reference[f], 6);
          for (let p = pathStart[f]; p < pathStart[f] + pathLen[f]; p++) used[arena[p]] += rate[f];
        }
        for (let r = 0; r < R; r++) {
          // Loads gain exactly the new rates; no resource gives more than it has.
          expect(load[r]).toBeCloseTo(1 + used[r], 6);
          expect(used[r]).toBeLessThanOrEqual(avail[r] * (1 + 1e-9) + 1e-9);
        }
        // Max-min fairness (definition): every flow is at its cap or has a saturated resource on
        // which no other subset flow gets more.
        for (const f of subset) {
          if (rate[f] >= cap[f] * (1 - 1e-9)) continue;
          let bottleneck = false;
          for (let p = pathStart[f]; p < pathStart[f] + pathLen[f]; p++) {
            const r = arena[p];
            if (used[r] < avail[r] * (1 - 1e-9) - 1e-9) continue;
            let largest = true;
            for (const g of subset) {
              for (let q = pathStart[g]; q < pathStart[g] + pathLen[g]; q++) if (arena[q] === r && rate[g] > rate[f] * (1 + 1e-9) + 1e-9) largest = false;
            }
            if (largest) bottleneck = true;
          }
          expect(bottleneck).toBe(true);
        }
      }),
      { numRuns: 300, seed: 4 },
    );
  });
});

describe('SubsetFiller, by hand', () => {
  it('raises a share that rose before using it: A=2 (its 2-unit link), then B=6 (its 6-unit link), not 8', () => {
    // r0 (10) carries A and B, r1 (2) only A, r2 (6) only B. Max-min: A = 2; r0 then has 8 for B,
    // but r2 holds B at 6.
    const pathStart = Int32Array.from([0, 2]);
    const pathLen = Int32Array.from([2, 2]);
    const arena = Int32Array.from([0, 1, 0, 2]);
    const rate = new Float64Array(2);
    const load = new Float64Array(3);
    new SubsetFiller(3).solve(Int32Array.from([0, 1]), 2, pathStart, pathLen, arena, Float64Array.from([Infinity, Infinity]), rate, Int32Array.from([0, 1, 2]), 3, Float64Array.from([10, 2, 6]), Int32Array.from([2, 1, 1]), Int32Array.from([1, 0, 1]), [[0, 2], [1], [3]], Int32Array.from([2, 1, 1]), Int32Array.from([0, 0, 1, 1]), Int32Array.from([1, 1]), 1, load);
    expect([...rate]).toEqual([2, 6]);
    expect([...load]).toEqual([8, 2, 6]);
  });
});

describe('IndexedTimeHeap', () => {
  it('always offers the earliest of the times set (one entry per id, moved or removed in place)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), id: fc.nat(40), time: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(Infinity)) }),
      fc.record({ kind: fc.constant('pop' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const heap = new IndexedTimeHeap();
        const model = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            heap.set(o.id, o.time);
            if (o.time === Infinity) model.delete(o.id);
            else model.set(o.id, o.time);
          } else if (model.size > 0) {
            const id = heap.peekId();
            expect(model.get(id)).toBe(heap.peekTime());
            heap.pop();
            model.delete(id);
          }
          expect(heap.length).toBe(model.size);
          expect(heap.peekTime()).toBe(model.size > 0 ? Math.min(...model.values()) : Infinity);
        }
      }),
      { numRuns: 200, seed: 4 },
    );
  });
});

/**
 * Phase 1 as it was before it listed candidates (three passes over every live resource per round):
 * the lowest share, then every live resource in order frozen at it when its share at that moment
 * is within 1e-12, then the resources left with unfrozen flows. Unweighted, every round in phase 1.
 */
function phaseOneByThreePasses(paths: number[][], capacity: number[], cap: number[]): Float64Array {
  const rate = new Float64Array(paths.length).fill(-1);
  const local = new Map<number, number>();
  for (const path of paths) for (const r of path) if (!local.has(r)) local.set(r, local.size);
  const rem = [...local.keys()].map((r) => capacity[r]);
  const count = rem.map(() => 0);
  const members: number[][] = rem.map(() => []);
  paths.forEach((path, f) => {
    for (const r of path) {
      count[local.get(r)!]++;
      members[local.get(r)!].push(f);
    }
  });
  const unfrozen = [...count];
  const freeze = (f: number, level: number): void => {
    rate[f] = level;
    for (const r of paths[f]) {
      const i = local.get(r)!;
      rem[i] -= level;
      unfrozen[i]--;
      count[i] -= 1;
    }
  };
  let live = [...members.keys()];
  while (live.length > 0) {
    let level = Infinity;
    for (const i of live) {
      const share = Math.max(0, rem[i]) / count[i];
      if (share < level) level = share;
    }
    let capped = -1;
    for (let f = 0; f < paths.length; f++) if (rate[f] < 0 && cap[f] !== Infinity && (capped < 0 || cap[f] < cap[capped])) capped = f;
    if (capped >= 0 && cap[capped] < level) freeze(capped, cap[capped]);
    else {
      const top = level * (1 + 1e-12);
      for (const i of live) {
        if (unfrozen[i] === 0 || Math.max(0, rem[i]) / count[i] > top) continue;
        for (const f of members[i]) if (rate[f] < 0) freeze(f, level);
      }
    }
    live = live.filter((i) => unfrozen[i] > 0);
  }
  paths.forEach((path, f) => {
    if (rate[f] < 0) rate[f] = cap[f];
  });
  return rate;
}

describe('MaxMinSolver phase 1: candidates within 1e-9 of the level', () => {
  // Capacities a few units apart times 1 + δ, δ from 0 to past the 1e-9 band, so that shares tie,
  // nearly tie within the solver's 1e-12 freeze tolerance, or sit just outside it or the band.
  const nearTies = fc.record({
    capacity: fc.array(
      fc.tuple(fc.integer({ min: 1, max: 6 }), fc.constantFrom(0, 1e-13, 4e-13, 9e-13, 1.1e-12, 3e-12, 5e-10, 2e-9)).map(([c, d]) => c * (1 + d)),
      { minLength: 2, maxLength: 10 },
    ),
    flows: fc.array(fc.record({ path: fc.uniqueArray(fc.nat(9), { minLength: 1, maxLength: 4 }), cap: fc.option(fc.constantFrom(0.5, 1, 1 + 1e-13, 2), { freq: 4 }) }), {
      minLength: 1,
      maxLength: 30,
    }),
  });

  it('freezes the same flows at the same levels as three passes over every live resource, bit for bit', () => {
    fc.assert(
      fc.property(nearTies, ({ capacity, flows }) => {
        const paths = flows.map((f) => f.path.filter((r) => r < capacity.length));
        const cap = flows.map((f) => f.cap ?? Infinity);
        const expected = phaseOneByThreePasses(paths, capacity, cap);
        const solver = new MaxMinSolver(Float64Array.from(capacity), Number.MAX_SAFE_INTEGER);
        const pathStart = new Int32Array(paths.length);
        const pathLen = new Int32Array(paths.length);
        const entries: number[] = [];
        paths.forEach((path, f) => {
          pathStart[f] = entries.length;
          pathLen[f] = path.length;
          entries.push(...path);
        });
        const rate = new Float64Array(paths.length);
        const active = Int32Array.from(paths.keys());
        solver.solve(active, paths.length, pathStart, pathLen, Int32Array.from(entries), Float64Array.from(cap), rate);
        for (let f = 0; f < paths.length; f++) expect(rate[f], `flow ${f}`).toBe(expected[f]);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('FATPIPE resources (SimGrid lmm maxmin.cpp: usage is the largest weight, remaining never drawn down)', () => {
  // Flows 0 and 1 on FATPIPE resource 0 (capacity 10); flow 1 also on SHARED resource 1 (capacity 3);
  // flow 2 alone on resource 1 beside it.
  const capacity = Float64Array.from([10, 3]);
  const fatpipe = Uint8Array.from([1, 0]);
  const pathStart = Int32Array.from([0, 1, 3]);
  const pathLen = Int32Array.from([1, 2, 1]);
  const arena = Int32Array.from([0, 0, 1, 1]);
  const cap = Float64Array.from([Infinity, Infinity, Infinity]);
  const active = Int32Array.from([0, 1, 2]);

  it('unweighted: every flow on it runs alone at up to its capacity; other resources still share', () => {
    const rate = new Float64Array(3);
    new MaxMinSolver(capacity, 32, null, fatpipe).solve(active, 3, pathStart, pathLen, arena, cap, rate);
    // Resource 1 (3) splits between flows 1 and 2; flow 0 takes the FATPIPE's whole 10, not 10 − 1.5.
    expect(Array.from(rate)).toEqual([10, 1.5, 1.5]);
  });

  it('weighted: its flows freeze together at the level of the heaviest, each at that level × its weight', () => {
    const rate = new Float64Array(3);
    // Weights 1 / penalty: flow 0 penalty 1, flow 1 penalty 4, flow 2 penalty 1. Usage of the FATPIPE
    // is max(1, 1/4) = 1: level 10; of resource 1, 1/4 + 1 = 1.25: level 2.4, the lower.
    const weight = Float64Array.from([1, 0.25, 1]);
    new MaxMinSolver(capacity, 32, null, fatpipe).solve(active, 3, pathStart, pathLen, arena, cap, rate, capacity, weight);
    // Resource 1 saturates first at 2.4: flows 1 and 2 at 0.6 and 2.4; the FATPIPE's usage is then
    // flow 0's weight alone: 10.
    expect(Array.from(rate)).toEqual([10, 0.6, 2.4]);
    // With resource 1 roomy, the FATPIPE saturates first: both its flows at level 10, flow 1 at 10 / 4 (SimGrid's
    // "frozen at the rate the lowest-penalty flow reaches"), not alone at 10.
    const roomy = Float64Array.from([10, 100]);
    new MaxMinSolver(roomy, 32, null, fatpipe).solve(active, 3, pathStart, pathLen, arena, cap, rate, roomy, weight);
    expect(Array.from(rate)).toEqual([10, 2.5, 97.5]);
  });

  it('a capped flow compares cap × penalty with the level, as SimGrid compares var.bound × var.sharing_penalty', () => {
    const rate = new Float64Array(3);
    const roomy = Float64Array.from([10, 100]);
    const weight = Float64Array.from([1, 0.25, 1]);
    const penalty = Float64Array.from([1, 4, 1]);
    // Flow 1 bounded at the FATPIPE's 10 (SimGrid bounds a transfer by its route's least bandwidth): its
    // level 10 × 4 = 40 is above the FATPIPE's level 10, so it still freezes there with flow 0, at 2.5.
    new MaxMinSolver(roomy, 32, null, fatpipe).solve(active, 3, pathStart, pathLen, arena, Float64Array.from([Infinity, 10, Infinity]), rate, roomy, weight, null, penalty);
    expect(rate[1]).toBe(2.5);
    new MaxMinSolver(roomy, 32, null, fatpipe).solve(active, 3, pathStart, pathLen, arena, Float64Array.from([9.5, Infinity, Infinity]), rate, roomy, weight, null, penalty);
    // Bounded below the level (9.5): flow 0 freezes alone at its bound first; the FATPIPE's usage is then flow 1's 1/4: level 40, flow 1 at 10.
    expect(Array.from(rate).slice(0, 2)).toEqual([9.5, 10]);
  });
});
