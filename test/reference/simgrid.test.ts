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
import { FlowProgramBuilder, flowPreset, runCollectiveFlow, runFlow, type CollectiveKind } from '../../src/index.js';
import { loadTopology } from '../../src/node/index.js';
import { SIMGRID_DIR as DIR, simgridCases } from '../helpers/simgrid-cases.js';

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
 * Measured error (Meshwork / SMPI − 1, percent) of every case outside the target: none now (docs/flow.md,
 * "Comparing with SimGrid SMPI"). The shift allgather `ring` at 1 KiB, once +17.1 % on the dragonfly and
 * +5.5 % on the torus, is within 0.4 % since a sendrecv's send below 64 KiB is detached, as in SMPI;
 * dragonfly `rab_rdb` at 1 KiB, once −2.1 %, within 0.3 % since each message carries SMPI's 16-byte
 * envelope (the preset's envelopeBytes).
 */
const PINNED: Record<string, [number, 'not isolated']> = {
};

const cases = simgridCases('cases');
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

  it("the binomial broadcast at 1 KiB needs latency 'before-transfer' (SimGrid holds a flow's bandwidth back for its route latency): with 'on-delivery' it is 17 to 34 % slow", () => {
    for (const c of cases.filter((k) => k.collective === 'bcast')) {
      const platform = c.platform.replace(/^platforms\/|\.xml$/g, '');
      const topology = loadTopology(TOPOLOGY[platform]);
      const row = c.rows[0];
      const run = (latency: 'on-delivery' | 'before-transfer') =>
        runCollectiveFlow({ topology, collective: c.meshwork.collective, algorithm: c.meshwork.algorithm, size: row.size, routingOptions: preset.routing, model: { ...preset.model, latencyRule: latency } }).makespan_s;
      expect((run('on-delivery') / row.makespan_s - 1) * 100, platform).toBeGreaterThan(17);
      expect(Math.abs(run('before-transfer') / row.makespan_s - 1) * 100, platform).toBeLessThanOrEqual(TARGET);
    }
  });

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

  it("the ring allreduce (SMPI lr) at 1 KiB and 64 KiB needs protocol smpi's rule that data moves only once the receive is posted: under mpi (small sends eager) it is 42 to 56 % fast", () => {
    // A rank posts step k's receive only when step k - 1's has arrived, so each step's message waits
    // for its receiver and every one of the 126 steps costs the ring's longest route (3 hops on the
    // torus: 303.2 ns at 16 B, measured with a 2-line MPI_Sendrecv ring under smpirun, 126 steps =
    // 38.21 µs = this case's makespan), though the sendrecv's own small send is detached.
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

/**
 * The barrier as SMPI runs it (barrier-cases/, made by generate.sh): MPI_Barrier alone with SMPI's
 * default algorithm (Open MPI basic linear), and an alltoall with a barrier between its steps (the
 * per-step-barrier schedule, on a 3x3x3 torus where no route ties). `linear` is the preset's barrier
 * model; `stages` the default one, for contrast.
 */
const BARRIER_TOPOLOGY: Record<string, string> = { ...TOPOLOGY, 'torus-3x3x3': 'torus:3x3x3,bw=10GBps,lat=100ns' };
interface BarrierCase {
  platform: string;
  ranks: number;
  program: string;
  meshwork: { program?: 'barrier'; collective?: CollectiveKind; algorithm?: string };
  rows: Array<{ size: number; makespan_s: number }>;
}

describe("the simgrid preset's barrier against SMPI (MPI_Barrier, default algorithm)", () => {
  const barrierCases = readdirSync(`${DIR}/barrier-cases`)
    .sort()
    .map((f) => JSON.parse(readFileSync(`${DIR}/barrier-cases/${f}`, 'utf8')) as BarrierCase);
  const run = (c: BarrierCase, size: number, barrier: 'linear' | 'stages'): number => {
    const topology = loadTopology(BARRIER_TOPOLOGY[c.platform.replace(/^platforms\/|\.xml$/g, '')]);
    const model = { ...preset.model, barrier };
    if (c.meshwork.program === 'barrier') {
      const b = new FlowProgramBuilder(c.ranks);
      for (let r = 0; r < c.ranks; r++) b.beginStream(r).barrier('all');
      return runFlow({ topology, program: b.build(), routingOptions: preset.routing, model }).makespan_s;
    }
    return runCollectiveFlow({ topology, collective: c.meshwork.collective!, algorithm: c.meshwork.algorithm!, size, routingOptions: preset.routing, model }).makespan_s;
  };

  it('has a barrier alone on each platform and a collective with barriers', () => {
    expect(barrierCases.map((c) => c.program).sort()).toEqual(['alltoall-barrier', 'barrier', 'barrier', 'barrier']);
  });

  for (const c of barrierCases) {
    const platform = c.platform.replace(/^platforms\/|\.xml$/g, '');
    it(`${platform} ${c.program}: within 2 % of SMPI`, () => {
      for (const row of c.rows) {
        const error = (run(c, row.size, 'linear') / row.makespan_s - 1) * 100;
        expect(Math.abs(error), `${platform} ${c.program} ${row.size}`).toBeLessThanOrEqual(TARGET);
      }
    });
  }

  it('the stage model instead is 12 % fast on the torus at 1 KiB with barriers and 50 % on the barrier alone (6 stages of one hop against 2 × 6 hops)', () => {
    const alltoall = barrierCases.find((c) => c.program === 'alltoall-barrier')!;
    expect((run(alltoall, 1024, 'stages') / alltoall.rows[0].makespan_s - 1) * 100).toBeCloseTo(-12.3, 0);
    const alone = barrierCases.find((c) => c.platform.includes('torus-4x4x4'))!;
    expect((run(alone, 0, 'stages') / alone.rows[0].makespan_s - 1) * 100).toBeCloseTo(-50.5, 0);
  });
});

