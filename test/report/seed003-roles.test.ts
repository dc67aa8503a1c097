// Seed 003 claim 1's roles (C3, C4, C7), sink-last (C6) and send-once (C5) clauses, audited on the
// step plans of reconstructions R2 and R1 (spec/seed002_003_ibm.md B2–B4; issue 10).
import { describe, expect, it } from 'vitest';
import { auditRoles } from '../../src/analysis/reproduce/seed003.js';
import { blockLayout, planTwoLevel, type TwoLevelPlan } from '../../src/collectives/algorithms/seeds.js';

const plan = (variant: 'r1' | 'r2') => planTwoLevel(blockLayout(4, 4), 0, 16, variant);

describe('seed 003 claim 1 roles', () => {
  it('R2 at 4×4, P = 16: roles alternate, the sink is last, and 48 of 240 (node, packet) pairs are sent twice (issue 10)', () => {
    const a = auditRoles(plan('r2'), 16, 0, 16);
    expect(a.roleBreaks).toEqual([]);
    expect(a.sinkNotLast).toBe(0);
    expect(a.receivedNotOnce).toBe(0);
    // Spec B3 "where R2 departs": the entry node of each of the S − 1 = 3 non-final leaves sends each packet twice.
    expect(a.pairs).toBe(240);
    expect(a.sentTwice).toBe(3 * 16);
    expect(a.intraSentTwice).toBe(0);
  });

  it('R1 (spec B4) follows the literal send-once reading', () => {
    const a = auditRoles(plan('r1'), 16, 0, 16);
    expect(a.roleBreaks).toEqual([]);
    expect(a.sentTwice).toBe(0);
    expect(a.neverSent).toBe(16); // only the final sink sends nothing
  });

  it('finds a role out of turn and a sink that is not last', () => {
    const base = plan('r2');
    const intra = base.transfers.findIndex((t) => t.phase === 'intra' && base.roles.some((r) => r.a === t.from || r.b === t.from));
    const late: TwoLevelPlan = { ...base, transfers: base.transfers.map((t, i) => (i === intra ? { ...t, step: t.step + 1 } : t)) };
    expect(auditRoles(late, 16, 0, 16).roleBreaks.length).toBeGreaterThan(0);
    const sink = base.transfers.findIndex((t) => t.phase === 'sink' && t.packet === 5);
    const early: TwoLevelPlan = { ...base, transfers: base.transfers.map((t, i) => (i === sink ? { ...t, step: 0 } : t)) };
    expect(auditRoles(early, 16, 0, 16).sinkNotLast).toBe(1);
  });
});
