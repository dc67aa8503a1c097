/**
 * Lock step: a named behaviour of the flow model (docs/flow.md, "How stable a makespan is").
 * Without disturbances, a rank-symmetric schedule on a symmetric network gives equivalent flows
 * bit-identical rates, so they finish within the simultaneity tolerance and every rank starts its
 * next step at one instant, as if a free barrier separated the steps. A disturbance of a picosecond
 * breaks the ties, and where a barrier-free schedule's steps contend (pairwise alltoall on a 3-D
 * torus) the ranks drift apart for good: the makespan moves by ten per cent, not by a picosecond.
 * Schedules with barriers resynchronise at each one and keep their makespan.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, lowerSchedule, resolveNoise, simulate, torus } from '../../../src/index.js';
import type { Topology } from '../../../src/index.js';

const KIB64 = 65536;

function makespan(t: Topology, algorithm: string, jitter: number, seed: number): { makespan: number; rateUpdates: number } {
  const program = lowerSchedule(buildSchedule({ topology: t, collective: 'alltoall', algorithm, size: KIB64 }), t);
  const noise = jitter > 0 ? resolveNoise({ jitter, seed }) : undefined;
  const r = simulate({ topology: t, program, engine: 'flow', noise });
  return { makespan: r.makespan_s, rateUpdates: r.stats.rate_updates };
}

describe('lock step under exact symmetry, and what a picosecond of jitter does to it', () => {
  const t = torus([4, 4, 4]);

  it('pairwise alltoall, torus:4x4x4, 64 KiB: 63 steps in 63 rate updates noiseless; 1 ps jitter desynchronises it, 10-12 % slower at three seeds', () => {
    const quiet = makespan(t, 'pairwise', 0, 1);
    // One rate update per step: every rank's exchange of a step ends in one batch.
    expect(quiet.rateUpdates).toBe(63);
    // `meshwork run --topology torus:4x4x4 --collective alltoall --algorithm pairwise --size 64KiB`
    expect(quiet.makespan).toBeCloseTo(2.179352e-3, 9);
    for (const seed of [1, 2, 3]) {
      const noisy = makespan(t, 'pairwise', 1e-12, seed);
      // Each send delayed by 1 ps on average: at most 63 ps of delay per rank, yet thousands of updates.
      expect(noisy.rateUpdates).toBeGreaterThan(5000);
      const ratio = noisy.makespan / quiet.makespan;
      expect(ratio).toBeGreaterThan(1.09);
      expect(ratio).toBeLessThan(1.13);
    }
  });

  it('hop-grouped (a barrier per hop group) keeps its makespan under the same jitter, to 1e-7', () => {
    const quiet = makespan(t, 'hop-grouped', 0, 1).makespan;
    for (const seed of [1, 2]) expect(Math.abs(makespan(t, 'hop-grouped', 1e-12, seed).makespan / quiet - 1)).toBeLessThan(1e-7);
  });

  it('on torus:4x4 the pairwise steps do not contend across steps: 1 ps of jitter moves it by picoseconds only', () => {
    const small = torus([4, 4]);
    const quiet = makespan(small, 'pairwise', 0, 1).makespan;
    for (const seed of [1, 2]) expect(Math.abs(makespan(small, 'pairwise', 1e-12, seed).makespan - quiet)).toBeLessThan(1e-10);
  });
});
