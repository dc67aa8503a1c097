/**
 * Why the 1,024-rank benchmark's step is shorter under the library pick than under the plain ring
 * (docs/workloads.md, "Why the library pick's step is shorter"), pinned on TP 8 × DP 2, one layer,
 * on a two-level fat tree of 2 leaves of 8 hosts. The two schedules are the same ring, the routes
 * the same (d-mod-k: each DP ring on a spine of its own, no two flows on one spine link), and the
 * shared link is each host's own: its TP and its DP ring send through its one NIC. Under the
 * default NIC model (injection order fifo) those sends leave in the order they were posted. The
 * plain rings post a rank's TP and DP sends at the same or nearly the same instants, and which goes
 * first differs from rank to rank: where a rank's TP send queues behind a 50 MB DP step the whole
 * TP ring waits, so the DP rings end at different times. The library's latency, paid before
 * each stream (15.2 µs for the 2-rank DP ring, 56 µs for the 8-rank TP ring), separates the
 * instants, so every rank posts in the same order and every group ends together. With the NIC
 * serving its sends fairly (per-destination) the ties do not matter and the two schedules agree.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { generateTransformer, generatedTrace } from '../../src/workload/generate.js';
import { runWorkload } from '../../src/workload/run.js';
import type { InjectionOrder } from '../../src/sim/program/model.js';

describe('concurrent communicators on one NIC: FIFO ties, not routes', () => {
  const trace = generatedTrace(generateTransformer({ tp: 8, dp: 2, layers: 1, hidden: 8192, sequence: 2048 }));
  const topology = buildTopology('twolevel:leaves=2,hosts=8,spines=8,uplinks=8,bw=400Gbps,lat=1us');
  const dpTimes = (allreduce: string, injectionOrder: InjectionOrder) => {
    const run = runWorkload({ topology, trace, algorithms: { allreduce }, model: { injectionOrder } });
    const dp = run.report.collectives.filter((c) => c.ranks === 2).map((c) => c.time_s);
    return { step: run.report.step_time_s, dp, spread: Math.max(...dp) / Math.min(...dp), links: run.report.links };
  };

  it('fifo: the plain rings end at different times, the library rings together, on the same routes', () => {
    const ring = dpTimes('ring', 'fifo');
    const library = dpTimes('nccl-ring:channels=1,proto=Simple', 'fifo');
    expect(ring.dp).toHaveLength(8);
    // Measured: 4.199 to 4.706 ms for the ring, 4.130 ms for every library group.
    expect(ring.spread).toBeGreaterThan(1.1);
    expect(library.spread).toBe(1);
    expect(library.step).toBeLessThan(ring.step);
    // Every spine link carries one DP ring's bytes in both: no two flows land on one spine link.
    for (const run of [ring, library]) {
      const spine = run.links.filter((l) => l.class === 'up' || l.class === 'down').map((l) => l.bytes);
      expect(new Set(spine).size).toBe(1);
    }
  });

  it('per-destination (the NIC serves its sends fairly): both uniform, the library longer by its latency', () => {
    const ring = dpTimes('ring', 'per-destination');
    const library = dpTimes('nccl-ring:channels=1,proto=Simple', 'per-destination');
    expect(ring.spread).toBe(1);
    expect(library.spread).toBe(1);
    expect(library.step).toBeGreaterThan(ring.step);
  });
});
