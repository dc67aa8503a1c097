/**
 * Seed 000's background figures (FIG. 5–8) and the 1-D torus deadlock of ¶0042, checked against the
 * numbers the text and spec §1.3–§1.7 give.
 */
import { describe, expect, it } from 'vitest';
import {
  channelLoads,
  deadlockClaim,
  dependencyCycle,
  fig5Claim,
  fig6Claim,
  fig7Claim,
  fig8Claim,
  FIGURE_BYTES,
  plusRingRouting,
  transfersProgram,
} from '../../src/analysis/reproduce/seed000-figures.js';
import { DeadlockError, mesh, resolveRouting, simulate, torus } from '../../src/index.js';

describe('seed 000 figures', () => {
  it('FIG. 5: nodes 1–3 sending 3 hops ahead overlap 1, 2, 3, 2, 1 times per link (spec §1.3)', () => {
    const t = mesh([6]);
    const loads = channelLoads(t, resolveRouting(t), [[0, 3], [1, 4], [2, 5]]);
    expect([0, 1, 2, 3, 4].map((i) => loads[t.channelBetween(i, i + 1)])).toEqual([1, 2, 3, 2, 1]);
    expect(fig5Claim().verdict).toBe('reproduced');
  });

  it('FIG. 6: a round-robin router gives node 3 half the link and nodes 1, 2 a quarter each (spec §1.4)', () => {
    // 50/50 at node 3 and at node 2: node 3 at B/2 ends after 2 transfer times; nodes 1 and 2 at B/4, then B/2: 3.
    const t = mesh([4], { bandwidth: 25e9 / 8, latency: 100e-9 });
    const res = simulate({ topology: t, program: transfersProgram(4, [[0, 3], [1, 3], [2, 3]], FIGURE_BYTES), engine: 'packet' });
    const unit = FIGURE_BYTES / (25e9 / 8);
    expect(res.ranks.finish_s[2] / unit).toBeCloseTo(2, 1);
    expect(res.ranks.finish_s[0] / unit).toBeCloseTo(3, 1);
    expect(res.ranks.finish_s[1] / unit).toBeCloseTo(3, 1);
    // Max-min sharing is fair: all three end together.
    const flow = simulate({ topology: t, program: transfersProgram(4, [[0, 3], [1, 3], [2, 3]], FIGURE_BYTES), engine: 'flow' });
    expect(flow.ranks.finish_s[2]).toBeCloseTo(flow.ranks.finish_s[0], 12);
    expect(fig6Claim().verdict).toBe('reproduced-under-reading');
  });

  it('¶0042: one buffer class around a 3-node torus has a cyclic dependency and deadlocks; a dateline class does not', () => {
    const t = torus([3]);
    const pairs = [[0, 2], [1, 0], [2, 1]] as const;
    expect(dependencyCycle(t, plusRingRouting(t, 3, false), pairs)).toHaveLength(3);
    expect(dependencyCycle(t, plusRingRouting(t, 3, true), pairs)).toEqual([]);
    const program = transfersProgram(3, pairs, FIGURE_BYTES);
    const run = (dateline: boolean) => simulate({ topology: t, program, engine: 'packet', routing: plusRingRouting(t, 3, dateline), packet: { config: { vcs: 2 } } });
    expect(() => run(false)).toThrow(DeadlockError);
    expect(run(true).makespan_s).toBeGreaterThan(0);
    expect(deadlockClaim().verdict).toBe('reproduced-under-reading');
  });

  it('FIG. 8: similar routes load every link of a 4-node ring twice; the figure\'s dissimilar routes load link 1–2 four times', () => {
    const c = fig8Claim();
    expect(c.measured).toContain('uniform 2, 2, 2, 2, non-uniform 4, 2, 0, 2');
    expect(c.verdict).toBe('reproduced-under-reading');
  });

  // Issue 27: FIG. 7 answers ¶0044's "the waiting state is prevented on the overlapped route" (a
  // property: every source finishes together); the time sentence is 000.pacing's.
  it('FIG. 7: pacing with gap hops − 1 evens link 3–4 (sources finish together), whatever the makespan', () => {
    const c = fig7Claim();
    expect(c.form).toBe('property');
    expect(c.decides).toMatch(/^paced source finish spread 0\.000 \(unpaced 0\.330\)/);
    expect(c.verdict).toBe('reproduced-under-reading');
    expect(c.sensitivity).toMatch(/unpaced \/ paced = 0\.99\d: link 3–4 carries three transfers either way/);
  });
});
