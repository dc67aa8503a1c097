import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { runWorkload } from '../../src/workload/run.js';
import { simulate } from '../../src/sim/simulate.js';
import { buildSchedule } from '../../src/collectives/registry.js';
import '../../src/collectives/algorithms/classic.js';
import { comp, traceOf, RING_ALGORITHMS } from './chakra-helpers.js';

// Two ranks joined by one 1 GB/s (8 Gbps) link each way, no latency, α = 0: a ring allreduce of
// 1,000,000 bytes is two steps of 500,000 bytes each way, 0.5 ms each, 1 ms in all.
const topology = buildTopology('fullmesh:2,bw=8Gbps,lat=0');
const model = { alpha: 0 };

/** A (10 us) → allreduce; B (20 us) after A overlaps it; C (5 us) after both. */
function overlapTrace() {
  const rank = [
    comp(1, 10),
    { id: 2, name: 'grad allreduce', kind: 'coll' as const, collective: 'allreduce' as const, commSize: 1_000_000, dataDeps: [1] },
    comp(3, 20, [1]),
    comp(4, 5, [2, 3]),
  ];
  return traceOf([rank, rank]);
}

describe('Chakra workload lowered into the program', () => {
  it('flow: compute overlaps the allreduce; step = 10 us + 1 ms + 5 us', () => {
    const { report } = runWorkload({ topology, trace: overlapTrace(), algorithms: RING_ALGORITHMS, engine: 'flow', model });
    expect(report.step_time_s).toBeCloseTo(1.015e-3, 12);
    for (const r of report.ranks) {
      expect(r.compute_s).toBeCloseTo(35e-6, 12);
      expect(r.communication_s).toBeCloseTo(1e-3, 12);
      // B (20 us) runs under the allreduce: 1 ms − 20 us is exposed.
      expect(r.exposed_communication_s).toBeCloseTo(980e-6, 12);
    }
    const [ar] = report.collectives;
    expect(ar.time_s).toBeCloseTo(1e-3, 12);
    expect(ar.start_s).toBeCloseTo(10e-6, 12);
    // busbw = algbw × 2(P−1)/P = 1e6 B / 1 ms × 1.
    expect(ar.busbw_bytes_per_s).toBeCloseTo(1e9, 3);
    expect(report.critical_path.map((n) => n.node)).toEqual([1, 2, 4]);
  });

  it('a dependency on the allreduce serialises: C waits for it even when B is long', () => {
    const rank = [comp(1, 10), { id: 2, name: 'ar', kind: 'coll' as const, collective: 'allreduce' as const, commSize: 1_000_000, dataDeps: [1] }, comp(3, 2000, [1]), comp(4, 5, [2, 3])];
    const { report } = runWorkload({ topology, trace: traceOf([rank, rank]), algorithms: RING_ALGORITHMS, model });
    // B (2 ms) now outlasts the allreduce: step = 10 + 2000 + 5 us, no exposed communication.
    expect(report.step_time_s).toBeCloseTo(2.015e-3, 12);
    for (const r of report.ranks) expect(r.exposed_communication_s).toBeCloseTo(0, 12);
    expect(report.critical_path.map((n) => n.node)).toEqual([1, 3, 4]);
  });
});

describe('the packet engine runs the same lowered workload', () => {
  it('packet: the same overlap (B under the allreduce), step within 5 % of the flow figure', () => {
    const { report, result } = runWorkload({ topology, trace: overlapTrace(), algorithms: RING_ALGORITHMS, engine: 'packet', model });
    expect(result.engine).toBe('packet');
    expect(Math.abs(report.step_time_s - 1.015e-3) / 1.015e-3).toBeLessThan(0.05);
    for (const r of report.ranks) {
      // Each duration is rounded up to whole cycles at packet level: within three cycles of 35 us.
      const cycle = result.model.cycleSeconds as number;
      expect(Math.abs(r.compute_s - 35e-6)).toBeLessThanOrEqual(3 * cycle);
      expect(Math.abs(r.exposed_communication_s - (r.communication_s - 20e-6))).toBeLessThanOrEqual(cycle);
    }
  });

  it('a schedule of non-blocking ops (alltoall linear: irecv, isend, waitall) lowers and times as the schedule itself', () => {
    const t = buildTopology('fullmesh:4,bw=8Gbps,lat=1us');
    const node = { id: 1, name: 'a2a', kind: 'coll' as const, collective: 'alltoall' as const, commSize: 4 * 65536 };
    const { report } = runWorkload({ topology: t, trace: traceOf(Array(4).fill([node])), algorithms: { alltoall: 'linear' } });
    const alone = simulate({ topology: t, schedule: buildSchedule({ topology: t, collective: 'alltoall', algorithm: 'linear', size: 65536 }) });
    expect(report.step_time_s).toBe(alone.makespan_s);
  });
});
