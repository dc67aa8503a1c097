/**
 * The exact rate update's incremental re-fill (ComponentRateUpdate, component-rate-update.ts): after
 * every batch of flow starts and finishes, the rates it keeps and re-fills equal a from-scratch
 * progressive filling of every active flow (MaxMinSolver) to 1e-9 relative, on random flow–resource
 * instances with random batches. Capacities, caps and weights come from small sets so that equal
 * levels (ties) are the rule, as in collectives; some paths cross a resource twice.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ComponentRateUpdate, saturationLevel } from '../../../src/sim/flow/component-rate-update.js';
import { FlowTable } from '../../../src/sim/flow/flow-table.js';
import { MaxMinSolver } from '../../../src/sim/flow/maxmin.js';
import { PathArena } from '../../../src/sim/flow/path-arena.js';

const RESOURCES = 8;

const flowSpec = fc.record({
  path: fc.array(fc.nat(RESOURCES - 1), { minLength: 1, maxLength: 4 }),
  cap: fc.option(fc.constantFrom(0.5, 1, 1.5, 3), { freq: 3 }),
  weight: fc.constantFrom(1, 2, 0.5, 3),
});

const batch = fc.record({
  /** Each active flow finishes with this probability (percent). */
  finishPercent: fc.constantFrom(0, 5, 10, 15, 30, 100),
  /** The order flows finish in (a seed for picking them). */
  pick: fc.nat(),
  starts: fc.array(flowSpec, { maxLength: 4 }),
});

const scenario = fc.record({
  capacity: fc.array(fc.constantFrom(1, 2, 3, 4, Infinity), { minLength: RESOURCES, maxLength: RESOURCES }),
  weighted: fc.boolean(),
  /** Flows started before the first batch, so that later small batches take the incremental path. */
  initial: fc.array(flowSpec, { minLength: 8, maxLength: 30 }),
  batches: fc.array(batch, { minLength: 1, maxLength: 14 }),
});

function relative(a: number, b: number): number {
  if (a === b) return 0;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}

describe('incremental exact max-min (ComponentRateUpdate)', () => {
  it('equals a full re-solve of every active flow after every batch of starts and finishes (1e-9 relative)', () => {
    let incremental = 0;
    fc.assert(
      fc.property(scenario, ({ capacity: caps, weighted, initial, batches }) => {
        const capacity = Float64Array.from(caps);
        const flows = new FlowTable(weighted);
        const arena = new PathArena(8); // tiny: the run compacts and grows it
        const update = new ComponentRateUpdate(flows, arena, capacity);
        const reference = new MaxMinSolver(capacity);
        const expected = new Float64Array(flows.capacity);
        let now = 0;
        let compared = 0;
        for (const b of [{ finishPercent: 0, pick: 0, starts: initial }, ...batches]) {
          now += 1;
          // Finishes, in an order given by the seed (the engine's is by flow id; any must do).
          const active = Array.from(flows.active.subarray(0, flows.numActive));
          let seed = b.pick;
          for (let i = active.length - 1; i > 0; i--) {
            seed = (seed * 1103515245 + 12345) >>> 0;
            const j = seed % (i + 1);
            [active[i], active[j]] = [active[j], active[i]];
          }
          const finishing = active.filter((_, i) => (i * 100) / Math.max(1, active.length) < b.finishPercent);
          for (const f of finishing) {
            flows.deactivate(f);
            arena.live -= flows.len[f];
            update.finish(f);
            flows.release(f);
          }
          for (const s of b.starts) {
            update.arenaChanged(arena.reserve(s.path.length, flows, [[flows.active, flows.numActive]]));
            const f = flows.add();
            flows.start[f] = arena.append(f, s.path, s.path.length);
            flows.len[f] = s.path.length;
            flows.rem[f] = 1;
            flows.maxRate[f] = s.cap ?? Infinity;
            if (flows.weight !== null) {
              flows.weight[f] = s.weight;
              flows.penalty![f] = 1 / s.weight;
            }
            flows.finish[f] = Infinity;
            update.activate(f);
            flows.activate(f);
          }
          // Under a quarter of the active flows changed: the re-fill, not a fill from scratch.
          if (4 * (finishing.length + b.starts.length) < flows.numActive) incremental++;
          update.rerate(now);
          const n = flows.numActive;
          reference.solve(flows.active, n, flows.start, flows.len, arena.path, flows.maxRate, expected, capacity, flows.weight, null, flows.penalty);
          for (let a = 0; a < n; a++) {
            const f = flows.active[a];
            expect(relative(flows.rate[f], expected[f]), `flow ${f}: ${flows.rate[f]} against ${expected[f]}`).toBeLessThanOrEqual(1e-9);
            compared++;
          }
        }
        return compared >= 0;
      }),
      { numRuns: 400 },
    );
    expect(incremental).toBeGreaterThan(400);
  });

  it('re-fills only what a finish can move: the highest flow of a link finishing leaves the lower flows alone', () => {
    // Resource 0 (capacity 3) carries flows A and B; A is also on resource 1 (capacity 0.5), so A
    // freezes at 0.5 and B takes 2.5. B finishing cannot move A (its level is below B's). Eight
    // flows on resource 2 keep the batch under a quarter of the active flows (a larger batch fills
    // every flow from scratch).
    const capacity = Float64Array.from([3, 0.5, 8]);
    const flows = new FlowTable(false);
    const arena = new PathArena(64);
    const update = new ComponentRateUpdate(flows, arena, capacity);
    const start = (path: number[]): number => {
      const f = flows.add();
      flows.start[f] = arena.append(f, path, path.length);
      flows.len[f] = path.length;
      flows.rem[f] = 1;
      flows.maxRate[f] = Infinity;
      update.activate(f);
      flows.activate(f);
      return f;
    };
    const a = start([0, 1]);
    const b = start([0]);
    for (let i = 0; i < 8; i++) start([2]);
    update.rerate(0);
    expect([flows.rate[a], flows.rate[b]]).toEqual([0.5, 2.5]);
    const before = update.work;
    flows.deactivate(b);
    update.finish(b);
    flows.release(b);
    update.rerate(1);
    expect(flows.rate[a]).toBe(0.5);
    expect(update.work).toBe(before); // nothing filled again
  });

  it('saturationLevel: the level at which started flows saturate a resource over the old levels', () => {
    // Capacity 10; old flows at levels 1 (weight 1), 2 (weight 2, rate 4) and 6 (weight 1); one
    // started flow of weight 1. Load at λ ∈ [2, 6]: 1 + 4 + λ + λ = 10 at λ = 2.5.
    const list = [0, 1, 2, 3];
    const level = Float64Array.from([1, 2, 6, 0]);
    const rate = Float64Array.from([1, 4, 6, 0]);
    const weight = Float64Array.from([1, 2, 1, 1]);
    const startStamp = Int32Array.from([0, 0, 0, 7]);
    expect(saturationLevel(list, 4, 10, startStamp, 7, level, rate, weight)).toBeCloseTo(2.5, 12);
    // Capacity 20: every old flow is below λ, 1 + 4 + 6 + λ = 20 at λ = 9.
    expect(saturationLevel(list, 4, 20, startStamp, 7, level, rate, weight)).toBeCloseTo(9, 12);
    // Capacity 2: below every old level, (1 + 2 + 1 + 1)·λ = 2.
    expect(saturationLevel(list, 4, 2, startStamp, 7, level, rate, weight)).toBeCloseTo(0.4, 12);
  });
});
