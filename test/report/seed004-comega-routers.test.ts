// Seed 004 §5: the circular omega (CΩ, comega:8) runs under both router models of the study, the
// pipelined one (BookSim's 4 stages + 1-clock channel = 5 clocks per hop) and the paper's one-clock
// routers (route, allocate and traverse in one clock + 1-clock channel = 2 clocks per hop).
import { describe, expect, it } from 'vitest';
import { section5Plan, section5Points } from '../../src/analysis/reproduce/seed004.js';
import { buildTopology, distanceSummary, mdceTable1 } from '../../src/index.js';

describe('seed 004 §5: CΩ under the one-clock routers', () => {
  it('the full plan runs CΩ with one-clock routers on every pattern and load, as the seven direct networks', () => {
    const plan = section5Plan(false);
    const key = (r: (typeof plan)[number]) => `${r.pattern.name}@${r.rate}`;
    const oneClock = (label: string) => plan.filter((r) => r.router.id === 'one-clock' && r.net.label === label).map(key);
    expect(oneClock('CΩ').length).toBeGreaterThan(0);
    expect(oneClock('CΩ')).toEqual(oneClock('CB'));
    expect(oneClock('FT')).toEqual([]);
  });

  it('at light load the one-clock router saves 3 clocks per router passed: (mean distance + 1) routers per packet', () => {
    const runs = section5Plan(false).filter((r) => r.net.label === 'CΩ' && r.pattern.name === 'random' && r.rate === 0.002);
    expect(runs.map((r) => r.router.id)).toEqual(['pipelined', 'one-clock']);
    // quick = true: the 500-clock horizon of the reduced study, enough at 0.002 (about 1,000 packets).
    const [pipelined, oneClock] = section5Points(mdceTable1([1024]), runs, true);
    expect(oneClock.deadlockAt).toBeUndefined();
    expect(oneClock.delivered).toBeGreaterThan(900);
    // A random packet passes (hops + 1) routers; hops averaged over distinct pairs of comega:8 (BFS).
    const routers = distanceSummary(buildTopology('comega:8')).meanWithoutSelf + 1;
    const saved = pipelined.latency! - oneClock.latency!;
    expect(saved / (3 * routers)).toBeGreaterThan(0.95);
    expect(saved / (3 * routers)).toBeLessThan(1.05);
  });
});
