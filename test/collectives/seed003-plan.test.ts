// Seed 003 (US 8,274,987) reconstruction R2 / R1: the step planner, audited against
// spec/seed002_003_ibm.md part B (B3 worked example and completion-time table, B4, B5).
import { describe, expect, it } from 'vitest';
import { blockLayout, planTwoLevel, r2Steps, TwoLevelPlan } from '../../src/collectives/algorithms/broadcast/two-level-plan.js';

const NAMES = ['R', 'A0', 'B0', 'C0.1', 'A1', 'B1', 'C1.1', 'C1.2', 'A2', 'B2', 'C2.1', 'C2.2'];

// Spec B3 "Worked example, S = 3, m = 4, P = 4" (output of s003c.py), step by step.
const WORKED: string[][] = [
  ['R→A0 p0'],
  ['R→B0 p1', 'A0→B1 p0'],
  ['R→A0 p2', 'A0→C0.1 p0', 'B0→A1 p1', 'B1→A2 p0'],
  ['R→B0 p3', 'A0→B1 p2', 'B0→C0.1 p1', 'A1→B2 p1', 'B1→C1.1 p0'],
  ['A0→C0.1 p2', 'B0→A1 p3', 'C0.1→B0 p0', 'A1→C1.1 p1', 'B1→A2 p2', 'C1.1→C1.2 p0', 'A2→C2.1 p0'],
  ['B0→C0.1 p3', 'C0.1→A0 p1', 'A1→B2 p3', 'B1→C1.1 p2', 'C1.1→C1.2 p1', 'C1.2→A1 p0', 'B2→C2.1 p1', 'C2.1→C2.2 p0'],
  ['C0.1→B0 p2', 'A1→C1.1 p3', 'C1.1→C1.2 p2', 'C1.2→B1 p1', 'A2→C2.1 p2', 'C2.1→C2.2 p1', 'C2.2→B2 p0'],
  ['C0.1→A0 p3', 'C1.1→C1.2 p3', 'C1.2→A1 p2', 'B2→C2.1 p3', 'C2.1→C2.2 p2', 'C2.2→A2 p1'],
  ['C1.2→B1 p3', 'C2.1→C2.2 p3', 'C2.2→B2 p2'],
  ['C2.2→A2 p3'],
];

function byStep(plan: TwoLevelPlan): string[][] {
  const out: string[][] = Array.from({ length: plan.steps }, () => []);
  for (const t of plan.transfers) out[t.step].push(`${NAMES[t.from]}→${NAMES[t.to]} p${t.packet}`);
  return out.map((s) => s.sort());
}

/** Spec B5 (a)–(d) in the unit-step model, plus delivery: every non-root rank gets every packet once, after holding it. */
function audit(plan: TwoLevelPlan, ranks: number, root: number, packets: number): string[] {
  const problems: string[] = [];
  const got = new Int32Array(ranks * packets).fill(-1);
  for (let p = 0; p < packets; p++) got[root * packets + p] = -2; // the root holds everything from the start
  for (let step = 0; step < plan.steps; step++) {
    const here = plan.transfers.filter((t) => t.step === step);
    const sends = new Map<number, number>();
    const recvs = new Map<number, number>();
    const leafOut = new Map<number, number>();
    const leafIn = new Map<number, number>();
    for (const t of here) {
      sends.set(t.from, (sends.get(t.from) ?? 0) + 1);
      recvs.set(t.to, (recvs.get(t.to) ?? 0) + 1);
      const held = got[t.from * packets + t.packet];
      if (held === -1 || held >= step) problems.push(`step ${step}: ${t.from} sends p${t.packet} it does not hold yet`);
      if (got[t.to * packets + t.packet] !== -1) problems.push(`step ${step}: ${t.to} receives p${t.packet} twice`);
      got[t.to * packets + t.packet] = step;
      const lf = plan.leafOfRank[t.from];
      const lt = plan.leafOfRank[t.to];
      if (lf !== lt) {
        leafOut.set(lf, (leafOut.get(lf) ?? 0) + 1);
        leafIn.set(lt, (leafIn.get(lt) ?? 0) + 1);
      }
    }
    for (const [r, c] of sends) if (c > 1) problems.push(`step ${step}: rank ${r} sends ${c}`);
    for (const [r, c] of recvs) if (c > 1) problems.push(`step ${step}: rank ${r} receives ${c}`);
    for (const [l, c] of leafOut) if (c > 1) problems.push(`step ${step}: ${c} transfers out of leaf ${l}`);
    for (const [l, c] of leafIn) if (c > 1) problems.push(`step ${step}: ${c} transfers into leaf ${l}`);
  }
  for (let r = 0; r < ranks; r++) for (let p = 0; p < packets; p++) if (got[r * packets + p] === -1) problems.push(`rank ${r} never gets p${p}`);
  return problems;
}

describe('seed 003 R2 planner', () => {
  it('reproduces the S=3, m=4, P=4 worked example step for step, T = 10 (spec B3)', () => {
    const plan = planTwoLevel(blockLayout(3, 4), 0, 4, 'r2');
    expect(plan.steps).toBe(10);
    expect(byStep(plan)).toEqual(WORKED.map((s) => [...s].sort()));
  });

  it('completion time over a grid matches B3: P+S+m−1 / P+S+m (S ≥ 2), P+m / P+m−1 (S = 1), contention-free', () => {
    for (const S of [1, 2, 3, 5]) {
      for (const m of [3, 4, 5, 6]) {
        for (const P of [1, 2, 7]) {
          const plan = planTwoLevel(blockLayout(S, m), 0, P, 'r2');
          const expected = S === 1 ? (m % 2 === 0 ? P + m : P + m - 1) : m % 2 === 0 ? P + S + m - 1 : P + S + m;
          expect(plan.steps, `S=${S} m=${m} P=${P}`).toBe(expected);
          expect(r2Steps(S, m, P)).toBe(expected);
          expect(audit(plan, S * m, 0, P), `S=${S} m=${m} P=${P}`).toEqual([]);
        }
      }
    }
  });

  it('works for a root that is not rank 0 (its leaf goes first)', () => {
    const plan = planTwoLevel(blockLayout(3, 5), 7, 6, 'r2');
    expect(plan.steps).toBe(6 + 3 + 5);
    expect(audit(plan, 15, 7, 6)).toEqual([]);
  });
});

describe('seed 003 R1 planner', () => {
  it('completion time P+N−2+2S (m even), P+N+3S−4 (m odd) and send-once per packet (spec B4)', () => {
    for (const S of [2, 3, 4]) {
      for (const m of [3, 4, 5, 6]) {
        const P = 5;
        const plan = planTwoLevel(blockLayout(S, m), 0, P, 'r1');
        const N = S * m;
        expect(plan.steps, `S=${S} m=${m}`).toBe(m % 2 === 0 ? P + N - 2 + 2 * S : P + N + 3 * S - 4);
        expect(audit(plan, N, 0, P), `S=${S} m=${m}`).toEqual([]);
        // Strict C5: every packet leaves every node at most once.
        const seen = new Set<string>();
        for (const t of plan.transfers) {
          const key = `${t.from}:${t.packet}`;
          expect(seen.has(key), key).toBe(false);
          seen.add(key);
        }
      }
    }
  });
});
