// Seed 003 (US 8,274,987) reconstruction R2 as a schedule, run by the executor in unit-step mode.
// Spec: shared/spec/seed002_003_ibm.md part B (B3 worked example and completion times, B5 contention).
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, executeSchedule } from '../../src/index.js';
import { blockLayout, planTwoLevel } from '../../src/collectives/algorithms/broadcast/two-level-plan.js';

/** The two-level generator: S leaves of m hosts (host h of leaf s = rank s·m+h), uplinks = hosts (constant bisection). */
const twoLevel = (S: number, m: number) => buildTopology(`twolevel:leaves=${S},hosts=${m}`);

function stepRun(S: number, m: number, P: number, variant = 'r2', root = 0, lockstep = true) {
  const topology = twoLevel(S, m);
  const s = buildSchedule({ collective: 'broadcast', algorithm: `two-level-pipelined:packets=${P},variant=${variant},lockstep=${lockstep}`, topology, size: P * 4, root });
  return executeSchedule(s, { steps: true, topology });
}

describe('seed 003 R2 in unit-step mode', () => {
  it('S=3, m=4, P=4: T = 10 and the worked example transfers step for step (B3)', () => {
    const r = stepRun(3, 4, 4);
    expect(r.problems).toEqual([]);
    expect(r.pass).toBe(true);
    const st = r.steps!;
    expect(st.steps).toBe(10);
    // Transfers per step in the B3 table: 1, 2, 4, 5, 7, 8, 7, 6, 3, 1.
    const perStep = Array.from({ length: st.steps }, (_, t) => st.stepStart[t + 1] - st.stepStart[t]);
    expect(perStep).toEqual([1, 2, 4, 5, 7, 8, 7, 6, 3, 1]);
    // Step 4 of the table: A0→C0.1, B0→A1, C0.1→B0, A1→C1.1, B1→A2, C1.1→C1.2, A2→C2.1 (ranks: R=0, A0=1, B0=2, C0.1=3, ...).
    const step4 = [];
    for (let x = st.stepStart[4]; x < st.stepStart[5]; x++) step4.push(`${st.xferSrc[x]}>${st.xferDst[x]}`);
    expect(step4.sort()).toEqual(['1>3', '2>4', '3>2', '4>6', '5>8', '6>7', '8>10'].sort());
  });

  it('completion time over a grid: P+S+m−1 (m even), P+S+m (m odd) for S ≥ 2; P+m / P+m−1 for S = 1 (B3)', () => {
    for (const S of [1, 2, 4]) {
      for (const m of [3, 4, 5, 6]) {
        for (const P of [1, 2, 3, 8]) {
          const r = stepRun(S, m, P);
          const want = S === 1 ? (m % 2 === 0 ? P + m : P + m - 1) : m % 2 === 0 ? P + S + m - 1 : P + S + m;
          // With a single packet some steps of the table are idle everywhere (a chain end holding it
          // for parity); the executor's unit steps only count steps in which something moves.
          const plan = planTwoLevel(blockLayout(S, m), 0, P, 'r2');
          const idle = plan.steps - new Set(plan.transfers.map((x) => x.step)).size;
          if (P >= 2) expect(idle).toBe(0);
          expect(plan.steps).toBe(want);
          expect(r.pass, `S=${S} m=${m} P=${P}`).toBe(true);
          expect(r.steps!.steps, `S=${S} m=${m} P=${P}`).toBe(want - idle);
        }
      }
    }
  });

  it('contention-free: per step ≤ 1 send and ≤ 1 receive per node, ≤ 1 transfer out of and into each leaf (B5)', () => {
    for (const [S, m, P, variant, root] of [[3, 4, 6, 'r2', 0], [4, 5, 5, 'r2', 9], [3, 6, 4, 'r1', 0], [2, 3, 7, 'r1', 4]] as const) {
      const st = stepRun(S, m, P, variant, root).steps!;
      expect(st.switchCounts).toBe(true);
      for (let t = 0; t < st.steps; t++) {
        expect(st.maxSendsPerRank[t]).toBeLessThanOrEqual(1);
        expect(st.maxRecvsPerRank[t]).toBeLessThanOrEqual(1);
        expect(st.maxUpPerSwitch[t], `leaf uplink, step ${t}`).toBeLessThanOrEqual(1);
        expect(st.maxDownPerSwitch[t], `leaf downlink, step ${t}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('without lockstep the greedy unit steps may run transfers early: still correct and never slower than B3', () => {
    for (const [S, m, P] of [[1, 3, 1], [3, 4, 4], [4, 5, 6]]) {
      const r = stepRun(S, m, P, 'r2', 0, false);
      expect(r.pass).toBe(true);
      const want = S === 1 ? (m % 2 === 0 ? P + m : P + m - 1) : m % 2 === 0 ? P + S + m - 1 : P + S + m;
      expect(r.steps!.steps).toBeLessThanOrEqual(want);
    }
    expect(stepRun(1, 3, 1, 'r2', 0, false).steps!.steps).toBe(2); // the sink no longer waits for its role
  });

  it('refuses leaves of fewer than 3 hosts and uneven leaves, one line each', () => {
    expect(() => buildSchedule({ collective: 'broadcast', algorithm: 'two-level-pipelined', topology: twoLevel(3, 2), size: 64 })).toThrow(/at least 3 hosts/);
    expect(() => buildSchedule({ collective: 'broadcast', algorithm: 'two-level-pipelined:hosts=5', topology: twoLevel(3, 4), size: 64 })).toThrow(/dividing/);
  });
});
