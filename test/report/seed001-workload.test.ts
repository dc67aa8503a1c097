/**
 * Seed 001's control unit on a timed workload (src/analysis/reproduce/seed001-workload.ts, issue 27):
 * the FIFO and 図26 restart semantics, durations from the engine, both policies.
 */
import { describe, expect, it } from 'vitest';
import { concurrentWorkload, DecisionTimer, periodicWorkload, runWorkload, type WorkloadArrival } from '../../src/analysis/reproduce/seed001-workload.js';

const p2p = (at: number, sender: number, receiver: number, bits: number): WorkloadArrival => ({ at, role: '1-to-1', comm: { type: 'one-to-one', sender, receiver, count: bits / 32, precision: 4 } });

describe('seed 001 control unit on a timed workload', () => {
  const flow = new DecisionTimer('flow');

  it('times an idle 1 Mbit 1-to-1 as T1 + S/((N−1)·B) over direct + 6 turnarounds (spec §8)', () => {
    const r = runWorkload([p2p(0, 0, 1, 1e6)], 'max-K', flow);
    expect(r.records[0].decision.K).toBe(6);
    // 1 Mbit over 7 paths at 20 Gbps: 7.14 µs, plus the slowest path's latency T1 = 2.1 µs.
    expect(r.records[0].finish).toBeCloseTo(2.1e-6 + 1e6 / (7 * 20e9), 8);
    expect(r.meanWait).toBe(0);
  });

  it('max-K queues a transfer whose links are busy until the first completes; variable-K starts it on the free ones', () => {
    const arrivals = [p2p(0, 0, 1, 1e6), p2p(1e-6, 2, 3, 1e6)];
    const maxK = runWorkload(arrivals, 'max-K', flow);
    // The second needs turnaround links the first holds: it starts exactly when the first finishes.
    expect(maxK.records[1].start).toBe(maxK.records[0].finish);
    const variableK = runWorkload(arrivals, 'variable-K', flow);
    expect(variableK.records[1].start).toBe(1e-6);
    expect(variableK.records[1].decision.K).toBeLessThan(6);
    expect(variableK.meanWait).toBeLessThan(maxK.meanWait);
  });

  it('is deterministic and keeps arrival order (FIFO, S203)', () => {
    const wl = concurrentWorkload({ seed: 7, count: 12, gap: 2e-6, loBits: 1e4, hiBits: 1e6 });
    const a = runWorkload(wl, 'max-K', flow);
    const b = runWorkload(wl, 'max-K', new DecisionTimer('flow'));
    expect(a.records.map((r) => r.finish)).toEqual(b.records.map((r) => r.finish));
    for (let i = 1; i < a.records.length; i++) expect(a.records[i].start).toBeGreaterThanOrEqual(a.records[i - 1].start);
    expect(periodicWorkload({ seed: 2, rounds: 3, period: 1e-4, bits: 2e6, backgroundBits: 2e3, lead: 1e-6 }).map((x) => x.role)).toEqual(['background 1-to-1', 'periodic multicast', 'background 1-to-1', 'periodic multicast', 'background 1-to-1', 'periodic multicast']);
  });
});
