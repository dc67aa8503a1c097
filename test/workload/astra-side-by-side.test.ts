/**
 * Meshwork beside ASTRA-sim's analytical backend (congestion-unaware) on the same traces and
 * networks. ASTRA-sim (astra-sim/astra-sim, built outside this repository, binary
 * AstraSim_Analytical_Congestion_Unaware) was run in this round on the shared microbenchmarks
 * (../shared/reference/chakra/astra-sim/et_microbenchmarks, 1 MiB per NPU) and on Meshwork's
 * exported ring schedules (`workload export`), Ring topology, 50 GB/s, 500 ns, endpoint delay 10 ns,
 * local-mem-bw 1600, ring implementations, preferred-dataset-splits 1 (one chunk, as Meshwork moves
 * the buffer); the regression configuration (4 chunks, local-mem-bw 50) gives its 117,780 ns. The
 * figures below are its printed "sys[i] finished, N cycles" (the largest over NPUs), in ns;
 * docs/workloads.md has the whole table. Where the models coincide Meshwork is within 2 %; the named
 * differences are pinned here:
 * - local reduction: ASTRA-sim charges each reduce step 3 × chunk bytes / local-mem-bw (two
 *   operands read, one result written; GB = 10^9 B here) where Meshwork's default γ is 0; with
 *   gammaReduce = 3 / local-mem-bw Meshwork is within 0.2 %;
 * - all-to-all: ASTRA-sim's all-to-all on a ring dimension (AllToAll extends Ring,
 *   system/astraccl/native_collectives/collective_algorithm) relays blocks around the ring,
 *   P(P − 1)/2 one-block steps each paying the endpoint delay and a link latency; Meshwork's
 *   default (pairwise) sends each block on its own route, and `ring-relay` is ASTRA-sim's relay
 *   (test/workload/astra-alltoall.test.ts pins it beside ASTRA-sim's figures).
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { buildSchedule } from '../../src/collectives/registry.js';
import '../../src/collectives/algorithms/classic.js';
import type { CollectiveKind } from '../../src/collectives/types.js';
import { lowerSchedule } from '../../src/sim/program/from-schedule.js';
import { programToChakra } from '../../src/workload/chakra/export.js';
import { loadChakraTrace } from '../../src/node/chakra.js';
import { runWorkload } from '../../src/workload/run.js';
import { comp, traceOf, RING_ALGORITHMS } from './chakra-helpers.js';
import type { ChakraNodeInit } from '../../src/workload/chakra/write.js';

const MB = '../shared/reference/chakra/astra-sim/et_microbenchmarks';
const S = 1 << 20;
const B = 50 * 2 ** 30;
/** ASTRA-sim, Ring, one chunk: [trace, NPUs, ns]. */
const ASTRA_RING: ReadonlyArray<[string, number, number]> = [
  ['all_reduce', 4, 33829], ['all_reduce', 8, 43025], ['all_reduce', 16, 53710],
  ['all_gather', 4, 60133], ['all_gather', 8, 140297], ['all_gather', 16, 300625],
  ['reduce_scatter', 4, 17653], ['reduce_scatter', 8, 22368], ['reduce_scatter', 16, 27760],
];
const ASTRA_ALLTOALL: ReadonlyArray<[number, number]> = [[4, 32362], [8, 82638], [16, 207610]];
/** ASTRA-sim on Meshwork's exported ring schedules (COMM_SEND/RECV nodes), Ring: [collective, NPUs, ns]. */
const ASTRA_EXPORTED: ReadonlyArray<[CollectiveKind, number, number]> = [
  ['allreduce', 4, 32292], ['allreduce', 8, 41174], ['allreduce', 16, 51600],
  ['allgather', 8, 140217], ['reduce-scatter', 8, 20587],
];
const rel = (a: number, b: number): number => Math.abs(a - b) / b;
const ring = (n: number) => buildTopology(`ring:${n},bw=50GiBps,lat=500ns`);

describe('Meshwork beside ASTRA-sim (analytical, congestion-unaware)', () => {
  it('microbenchmarks: within 0.2 % with ASTRA-sim\'s reduction cost as γ; allgather (no reduction) within 0.02 % as is', () => {
    for (const [name, n, astra] of ASTRA_RING) {
      const trace = loadChakraTrace([`${MB}/${name}/${n}npus_1MB`]);
      const step = (gammaReduce: number) => runWorkload({ topology: ring(n), trace, algorithms: RING_ALGORITHMS, model: { alpha: 10e-9, gammaReduce } }).report.step_time_s * 1e9;
      expect(rel(step(3 / 1.6e12), astra)).toBeLessThan(0.002);
      if (name === 'all_gather') expect(rel(step(0), astra)).toBeLessThan(2e-4);
      // The named difference: without γ, Meshwork is short by about the reduce steps' memory time (within 3 %).
      else expect(rel(astra - step(0), (n - 1) * ((3 * S) / n / 1.6e12) * 1e9)).toBeLessThan(0.03);
    }
  });

  it("Meshwork's exported ring schedules time in ASTRA-sim as Meshwork predicts (α = 0: ASTRA-sim's endpoint delay is a collective's), within 0.05 %", () => {
    for (const [collective, n, astra] of ASTRA_EXPORTED) {
      const t = ring(n);
      const exported = programToChakra(lowerSchedule(buildSchedule({ topology: t, collective, algorithm: 'ring', size: S }), t));
      const step = runWorkload({ topology: t, trace: traceOf(exported), model: { alpha: 0 } }).report.step_time_s * 1e9;
      expect(rel(step, astra)).toBeLessThan(5e-4);
    }
  });

  it("the regression's 117,780 ns: 4 chunks one after another and local-mem-bw 50 as γ, within 0.1 %", () => {
    const chunks: ChakraNodeInit[] = [comp(0, 0)];
    for (let k = 1; k <= 4; k++) chunks.push({ id: k, name: `chunk${k}`, kind: 'coll', collective: 'allreduce', commSize: S / 4, dataDeps: [k - 1] });
    const step = runWorkload({ topology: ring(8), trace: traceOf(Array(8).fill(chunks)), algorithms: RING_ALGORITHMS, model: { alpha: 10e-9, gammaReduce: 3 / 50e9 } }).report.step_time_s * 1e9;
    expect(rel(step, 117_780)).toBeLessThan(1e-3);
  });

  it("all-to-all: ASTRA-sim's ring relay is (P/2)(P − 1) × (α + L + S/(P·B)); Meshwork's pairwise is faster", () => {
    for (const [n, astra] of ASTRA_ALLTOALL) {
      expect(rel((n / 2) * (n - 1) * (10 + 500 + (S / n / B) * 1e9), astra)).toBeLessThan(1e-3);
      const trace = loadChakraTrace([`${MB}/all_to_all/${n}npus_1MB`]);
      const pairwise = runWorkload({ topology: ring(n), trace, model: { alpha: 10e-9 } }).report.step_time_s * 1e9;
      expect(pairwise).toBeLessThan(astra * 0.7);
    }
  });
});
