/**
 * BookSim's internal steps per cycle (router.cpp Router::Evaluate: a double accumulator), against
 * floor(c·S) where they part: at S = 1.7 the accumulated 0.7s fall just short of 1 at each tenth cycle.
 */
import { describe, expect, it } from 'vitest';
import { InternalStepClock } from '../../../src/sim/packet/internal-steps.js';

/** BookSim's loop, written out: the steps of each of the first n cycles. */
function bookSimSteps(speedup: number, n: number): number[] {
  const steps: number[] = [];
  let partial = 0;
  for (let c = 0; c < n; c++) {
    partial += speedup;
    let k = 0;
    while (partial >= 1.0) {
      k++;
      partial -= 1.0;
    }
    steps.push(k);
  }
  return steps;
}

describe('internal steps per cycle', () => {
  it('counts as BookSim at 1.7: one step in cycle 9 and two in cycle 10, where floor(c * 1.7) gives two and one', () => {
    const clock = new InternalStepClock(1.7);
    const steps = (c: number): number => clock.ticksBefore(c + 1) - clock.ticksBefore(c);
    expect([steps(9), steps(10)]).toEqual([1, 2]);
    expect(Math.floor(10 * 1.7) - Math.floor(9 * 1.7)).toBe(2);
    const expected = bookSimSteps(1.7, 20_000);
    for (let c = 0; c < 20_000; c++) expect(steps(c), `cycle ${c}`).toBe(expected[c]);
  });

  it('answers a cycle behind its window again from cycle 0, and maps steps back to their cycles', () => {
    const clock = new InternalStepClock(1.3);
    const late = clock.ticksBefore(50_000);
    expect(clock.ticksBefore(7)).toBe(bookSimSteps(1.3, 7).reduce((a, b) => a + b, 0));
    expect(clock.ticksBefore(50_000)).toBe(late);
    for (let t = 0; t < 500; t++) {
      const c = clock.cycleOfTick(t);
      expect(clock.ticksBefore(c) <= t && t < clock.ticksBefore(c + 1), `step ${t}`).toBe(true);
    }
  });

  it('is floor(c * S) for a binary fraction, as the accumulator is exact there', () => {
    const clock = new InternalStepClock(1.5);
    const expected = bookSimSteps(1.5, 1000);
    let before = 0;
    for (let c = 0; c < 1000; c++) {
      expect(clock.ticksBefore(c)).toBe(before);
      before += expected[c];
    }
  });
});
