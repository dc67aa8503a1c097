/**
 * Meshwork's `simgrid` flow preset against SimGrid 3.32 SMPI (CM02, no cross-traffic) on the
 * committed reference cases (test/reference/simgrid/cases/*.json: 64 ranks on a 4x4x4 torus, a
 * 4-ary 3-tree and a 4x4x4 dragonfly; 7 collective algorithms; 1 KiB to 16 MiB; made by
 * test/reference/simgrid/generate.sh). Target: within 2 %. A case outside it is pinned below at its
 * measured error with the model difference that explains it (docs/flow.md, "Comparing with SimGrid
 * SMPI"), so a change that moves it, either way, fails here until the pin and the docs are updated.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { flowPreset, runCollectiveFlow, type CollectiveKind } from '../../src/index.js';
import { loadTopology } from '../../src/node/index.js';

const DIR = 'test/reference/simgrid';
/** The Meshwork topology of each SimGrid platform file (same hosts, links, bandwidth and latency). */
const TOPOLOGY: Record<string, string> = {
  'torus-4x4x4': 'torus:4x4x4,bw=10GBps,lat=100ns',
  'fattree-4-3': 'fattree:k=4,levels=3,bw=10GBps,lat=100ns',
  'dragonfly-4x4x4': `file:${DIR}/platforms/dragonfly-4x4x4.json`,
};
const TARGET = 2; // percent
/** How far a pinned error may move, in percentage points, before the pin must be revisited. */
const PIN_TOLERANCE = 0.5;

/**
 * Measured error (Meshwork / SMPI − 1, percent) of every case outside the target, and its model
 * difference: `latency-phase` = SimGrid holds a flow's bandwidth back for its route latency and then
 * transfers, Meshwork transfers at once and adds the latency on delivery, so at 1 KiB (transfer
 * 102 ns, routes 100–500 ns) flows that start together contend in Meshwork and pass one after
 * another in SimGrid (docs/flow.md, "Comparing with SimGrid SMPI", isolated run by run there).
 */
const PINNED: Record<string, [number, 'latency-phase']> = {
  'dragonfly-4x4x4 allgather:ring 1024': [20.0, 'latency-phase'],
  'dragonfly-4x4x4 bcast:binomial_tree 1024': [19.2, 'latency-phase'],
  'fattree-4-3 bcast:binomial_tree 1024': [33.9, 'latency-phase'],
  'torus-4x4x4 allgather:ring 1024': [5.8, 'latency-phase'],
  'torus-4x4x4 bcast:binomial_tree 1024': [17.8, 'latency-phase'],
};

interface ReferenceCase {
  simgrid: string;
  platform: string;
  collective: string;
  smpi_algorithm: string;
  meshwork: { collective: CollectiveKind; algorithm: string };
  rows: Array<{ size: number; makespan_s: number }>;
}

const cases = readdirSync(`${DIR}/cases`)
  .sort()
  .map((f) => JSON.parse(readFileSync(`${DIR}/cases/${f}`, 'utf8')) as ReferenceCase);
const preset = flowPreset('simgrid');

describe('the simgrid preset against SimGrid SMPI reference runs', () => {
  it('has every case the issue asks for: alltoall, allreduce, allgather, reduce, bcast on a torus, a fat tree and a dragonfly, 1 KiB to 16 MiB', () => {
    expect(cases.every((c) => c.simgrid === 'SimGrid version 3.32')).toBe(true);
    const platforms = new Set(cases.map((c) => c.platform.replace(/^platforms\/|\.xml$/g, '')));
    expect([...platforms].sort()).toEqual(Object.keys(TOPOLOGY).sort());
    for (const p of platforms) {
      const colls = new Set(cases.filter((c) => c.platform.includes(p)).map((c) => c.collective));
      expect([...colls].sort()).toEqual(['allgather', 'allreduce', 'alltoall', 'bcast', 'reduce']);
    }
    expect(cases.every((c) => c.rows.map((r) => r.size).join() === '1024,65536,1048576,16777216')).toBe(true);
  });

  for (const c of cases) {
    const platform = c.platform.replace(/^platforms\/|\.xml$/g, '');
    it(`${platform} ${c.collective}:${c.smpi_algorithm} = Meshwork ${c.meshwork.collective} ${c.meshwork.algorithm}`, () => {
      const topology = loadTopology(TOPOLOGY[platform]);
      for (const row of c.rows) {
        const result = runCollectiveFlow({
          topology,
          collective: c.meshwork.collective,
          algorithm: c.meshwork.algorithm,
          size: row.size,
          routingOptions: preset.routing,
          model: preset.model,
        });
        const error = (result.makespan_s / row.makespan_s - 1) * 100;
        const key = `${platform} ${c.collective}:${c.smpi_algorithm} ${row.size}`;
        const pin = PINNED[key];
        if (pin === undefined) expect(Math.abs(error), key).toBeLessThanOrEqual(TARGET);
        else expect(Math.abs(error - pin[0]), `${key}: pinned at ${pin[0]}% (${pin[1]}), now ${error.toFixed(2)}%`).toBeLessThanOrEqual(PIN_TOLERANCE);
      }
    });
  }

  it('with protocol mpi added (rendezvous from 64 KiB, as SMPI) the binomial broadcast from 64 KiB is within 2 % on all three platforms (eager: +48 to +250 %)', () => {
    for (const c of cases.filter((k) => k.collective === 'bcast')) {
      const platform = c.platform.replace(/^platforms\/|\.xml$/g, '');
      const topology = loadTopology(TOPOLOGY[platform]);
      for (const row of c.rows.filter((r) => r.size >= 65536)) {
        const model = { ...preset.model, protocol: 'mpi' as const };
        const result = runCollectiveFlow({ topology, collective: c.meshwork.collective, algorithm: c.meshwork.algorithm, size: row.size, routingOptions: preset.routing, model });
        expect(Math.abs(result.makespan_s / row.makespan_s - 1) * 100, `${platform} ${row.size}`).toBeLessThanOrEqual(TARGET);
      }
    }
  });

  it("the ring allreduce (SMPI lr) at 1 KiB and 64 KiB needs protocol smpi's rule that a sendrecv's send completes on delivery: under mpi it is 42 to 56 % fast", () => {
    // SMPI's lr step waits for its send's delivery, so every one of the 126 steps costs the ring's
    // longest route (3 hops on the torus: 303.2 ns at 16 B, measured with a 2-line MPI_Sendrecv ring
    // under smpirun, 126 steps = 38.21 µs = this case's makespan).
    for (const c of cases.filter((k) => k.collective === 'allreduce' && k.smpi_algorithm === 'lr')) {
      const platform = c.platform.replace(/^platforms\/|\.xml$/g, '');
      const topology = loadTopology(TOPOLOGY[platform]);
      for (const row of c.rows.filter((r) => r.size <= 65536)) {
        const run = (protocol: 'mpi' | 'smpi') =>
          runCollectiveFlow({ topology, collective: c.meshwork.collective, algorithm: c.meshwork.algorithm, size: row.size, routingOptions: preset.routing, model: { ...preset.model, protocol } });
        expect((run('mpi').makespan_s / row.makespan_s - 1) * 100, `${platform} ${row.size} mpi`).toBeLessThan(-40);
        expect(Math.abs(run('smpi').makespan_s / row.makespan_s - 1) * 100, `${platform} ${row.size} smpi`).toBeLessThanOrEqual(TARGET);
      }
    }
  });
});
