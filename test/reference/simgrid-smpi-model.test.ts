/**
 * Meshwork's `simgrid-smpi` flow preset (model.networkModel 'smpi', src/sim/program/network-model.ts)
 * against SimGrid 3.32 SMPI run as a user runs it, with smpirun's default SMPI network model (no
 * --cfg=network/model:CM02, no --cfg=network/crosstraffic:0): test/reference/simgrid/smpi-model-cases/,
 * made by `generate.sh smpi-model` (64 ranks on the 4x4x4 torus and the 4-ary 3-tree, 7 collective
 * algorithms; 4 ranks on a Full zone of unequal links and on the same with millisecond latencies;
 * 1 KiB to 16 MiB). docs/flow.md, "SMPI's default network model".
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { FlowProgramBuilder, flowPreset, runCollectiveFlow, runFlow, simgridTopology, type CollectiveKind, type Topology } from '../../src/index.js';
import { loadMapping, loadTopology } from '../../src/node/index.js';
import { SIMGRID_DIR as DIR, simgridCases, type SimgridCase } from '../helpers/simgrid-cases.js';
import { parseSizeFactors, sizeFactor, SMPI_BW_FACTOR, SMPI_LAT_FACTOR } from '../../src/sim/program/network-model.js';

const TOPOLOGY: Record<string, string> = {
  'torus-4x4x4': 'torus:4x4x4,bw=10GBps,lat=100ns',
  'fattree-4-3': 'fattree:k=4,levels=3,bw=10GBps,lat=100ns',
};
/** Percent. The largest error is SMPI's 10 ns MPI_Wtime cost (smpi/wtime) on the shortest runs. */
const TARGET = 0.5;

const cases = simgridCases('smpi-model-cases');
const preset = flowPreset('simgrid-smpi');
const cm02 = flowPreset('simgrid');

const loaded = new Map<string, Topology>();
function topologyOf(c: SimgridCase): Topology {
  const name = c.platform.replace(/^platforms\/|\.xml$/g, '');
  if (!loaded.has(name)) {
    const t = TOPOLOGY[name] ? loadTopology(TOPOLOGY[name]) : loadMapping(simgridTopology(readFileSync(`${DIR}/${c.platform}`, 'utf8'), c.platform), `${DIR}/${c.hostfile}`);
    loaded.set(name, t);
  }
  return loaded.get(name)!;
}

const run = (c: SimgridCase, size: number, model = preset.model) =>
  runCollectiveFlow({ topology: topologyOf(c), collective: c.meshwork.collective, algorithm: c.meshwork.algorithm, size, routingOptions: preset.routing, model }).makespan_s;

describe("the simgrid-smpi preset against smpirun with SimGrid's default SMPI network model", () => {
  it('has 24 cases of 4 sizes, all run without the CM02 and cross-traffic settings', () => {
    expect(cases.length).toBe(24);
    expect(cases.every((c) => c.simgrid === 'SimGrid version 3.32' && !c.config.includes('network/'))).toBe(true);
    expect(cases.every((c) => c.rows.map((r) => r.size).join() === '1024,65536,1048576,16777216')).toBe(true);
  });

  for (const c of cases) {
    it(`${c.platform} ${c.collective}:${c.smpi_algorithm} = Meshwork ${c.meshwork.collective} ${c.meshwork.algorithm}: within ${TARGET} %`, () => {
      for (const row of c.rows) {
        const error = (run(c, row.size) / row.makespan_s - 1) * 100;
        expect(Math.abs(error), `${row.size} B: ${error.toFixed(3)} %`).toBeLessThanOrEqual(TARGET);
      }
    });
  }

  it('the plain simgrid preset (CM02, no corrections) misses every one of these runs by 5 % or more: the SMPI model is what closes them', () => {
    for (const c of cases) for (const row of c.rows) expect(Math.abs(run(c, row.size, cm02.model) / row.makespan_s - 1) * 100, `${c.platform} ${c.collective}:${c.smpi_algorithm} ${row.size}`).toBeGreaterThan(5);
  });
});

/**
 * CM02's TCP-gamma bound, which `--preset simgrid` applies (networkModel 'cm02'): smpirun under the
 * plain CM02 configuration of cases/ on the millisecond Full zone (`generate.sh cm02-wan`), where
 * 4 MiB / (2 × route latency) is below the links' bandwidth.
 */
const wanCases = simgridCases('cm02-wan-cases');

describe('the simgrid preset (CM02) against smpirun on routes of milliseconds, where the TCP-gamma bound binds', () => {
  it('has 5 cases of 4 sizes, all run with the CM02 configuration of cases/', () => {
    expect(wanCases.length).toBe(5);
    expect(wanCases.every((c) => c.config.includes('--cfg=network/model:CM02 --cfg=network/crosstraffic:0'))).toBe(true);
  });

  for (const c of wanCases) {
    it(`${c.collective}:${c.smpi_algorithm} within ${TARGET} %, and at 16 MiB only with the bound`, () => {
      for (const row of c.rows) {
        const error = (run(c, row.size, cm02.model) / row.makespan_s - 1) * 100;
        expect(Math.abs(error), `${row.size} B: ${error.toFixed(3)} %`).toBeLessThanOrEqual(TARGET);
      }
      // Without the bound (networkModel ideal) 16 MiB is 8-27 % fast; basic_linear's three concurrent
      // transfers per host share its links below the bound, so there it never binds.
      const largest = c.rows[c.rows.length - 1];
      const unbound = run(c, largest.size, { ...cm02.model, networkModel: 'ideal' }) / largest.makespan_s;
      if (c.smpi_algorithm === 'basic_linear') expect(unbound).toBeCloseTo(1, 6);
      else expect(unbound, 'without the bound').toBeLessThan(0.95);
    });
  }
});

describe("SMPI's model with limiter links: a limiter is a link of the route, so its weight-S / bandwidth is in the CM02 penalty", () => {
  // smpirun -np 64 -platform platforms/dragonfly-2x2x4x4-limiter.xml -hostfile <node-0 .. node-63>
  // --cfg=smpi/simulate-computation:no --cfg=smpi/allreduce:rab_rdb coll allreduce 1048576 (SimGrid 3.32,
  // its default SMPI model): 1.151122270125 ms; and pair alltoall at 1 MiB: 186.6846208276 ms. Without the
  // limiters' terms Meshwork was +0.56 % and +0.04 % (the routes cross 2 to 5 limiters: unequal penalties).
  const t = simgridTopology(readFileSync(`${DIR}/platforms/dragonfly-2x2x4x4-limiter.xml`, 'utf8'), 'dragonfly-2x2x4x4-limiter.xml');
  const time = (collective: CollectiveKind, algorithm: string) =>
    runCollectiveFlow({ topology: t, collective, algorithm, size: 1048576, routingOptions: preset.routing, model: preset.model }).makespan_s;
  it('rab_rdb allreduce and pair alltoall at 1 MiB within 0.01 % of smpirun', () => {
    expect(Math.abs(time('allreduce', 'rab_rdb') / 1.151122270125e-3 - 1)).toBeLessThan(1e-4);
    expect(Math.abs(time('alltoall', 'pair') / 186.6846208276e-3 - 1)).toBeLessThan(1e-4);
  });
});

describe("SMPI's network model, term by term (SimGrid 3.32 source)", () => {
  it('looks factors up as network_smpi.cpp does: 1 up to the first threshold, then each value above its threshold', () => {
    const bw = parseSizeFactors(SMPI_BW_FACTOR, 'bw');
    const lat = parseSizeFactors(SMPI_LAT_FACTOR, 'lat');
    expect([0, 1, 257, 258, 1040, 65472, 65473, 1 << 24].map((s) => sizeFactor(bw, s))).toEqual([1, 0.812084, 0.812084, 0.338112, 0.341987, 0.697866, 0.940694, 0.940694]);
    expect([0, 16, 1040, 65552].map((s) => sizeFactor(lat, s))).toEqual([1, 2.01467, 1.9503, 11.6436]);
    expect(() => parseSizeFactors('65472:x', 'smpi/bw-factor')).toThrow(/^smpi\/bw-factor: got "65472:x"/);
  });

  // One message of S bytes (plus the 16-byte envelope) from rank 0 to rank 1 on torus:4x4x4 at
  // 10 GBps: one channel of 100 ns.
  const torus = loadTopology('torus:4x4x4,bw=10GBps,lat=100ns');
  // With `exchange`, rank 1 sends the same to rank 0 at the same time.
  const message = (bytes: number, exchange: boolean, topology = torus) => {
    const b = new FlowProgramBuilder(2);
    if (exchange) {
      b.beginStream(0).isend(1, bytes).irecv(1, bytes).waitall();
      b.beginStream(1).irecv(0, bytes).isend(0, bytes).waitall();
    } else {
      b.beginStream(0).send(1, bytes);
      b.beginStream(1).recv(0, bytes);
    }
    return runFlow({ topology, program: b.build(), routingOptions: preset.routing, model: preset.model }).makespan_s;
  };

  it('a message waits route latency × lat-factor, then moves at bw-factor × bandwidth', () => {
    const S = 1 << 20;
    const wire = S + 16;
    const L = 100e-9;
    expect(message(S, false)).toBeCloseTo(L * 11.6436 + wire / (0.940694 * 10e9), 15);
    expect(message(1024, false)).toBeCloseTo(L * 1.9503 + 1040 / (0.341987 * 10e9), 15);
  });

  it("cross-traffic: two opposite messages on one link pair each load the other's links with 0.05 of their rate, so each moves at bandwidth / 1.05", () => {
    const S = 1 << 20;
    const wire = S + 16;
    const L = 100e-9;
    expect(message(S, true)).toBeCloseTo(L * 11.6436 + (wire * 1.05) / (0.940694 * 10e9), 15);
  });

  it('TCP-gamma bounds a message to 4 MiB / (2 × its route latency) on a route of milliseconds', () => {
    const slow = loadTopology('torus:4x4x4,bw=10GBps,lat=1ms');
    const S = 1 << 24;
    const wire = S + 16;
    const L = 1e-3;
    const rate = 4194304 / (2 * L); // 2.1 GB/s, below the link's 10 GB/s
    expect(message(S, false, slow)).toBeCloseTo(L * 11.6436 + wire / (0.940694 * rate), 12);
  });

  it('needs CM02 sharing and the full rate update, and says so in one line', () => {
    const b = new FlowProgramBuilder(2);
    b.beginStream(0).send(1, 8);
    b.beginStream(1).recv(0, 8);
    const program = b.build();
    expect(() => runFlow({ topology: torus, program, model: { ...preset.model, sharing: 'maxmin' } })).toThrow(/^model\.sharing: got "maxmin"; accepted: cm02 with networkModel smpi/);
    expect(() => runFlow({ topology: torus, program, model: { ...preset.model, rateUpdate: 'exact' } })).toThrow(/^model\.rateUpdate: got "exact"; accepted: full with cross-traffic \(networkModel smpi's/);
    expect(() => runFlow({ topology: torus, program, model: { networkModel: 'smpi' } })).toThrow(/^model\.networkModel: got "smpi"; accepted: ideal, or smpi with sharing cm02/);
  });

  it("records every correction in the result, and explicit networkModel 'ideal' gives the simgrid preset's run bit for bit", () => {
    const c = cases.find((k) => k.platform.includes('torus') && k.collective === 'alltoall')!;
    const result = runCollectiveFlow({ topology: topologyOf(c), collective: c.meshwork.collective, algorithm: c.meshwork.algorithm, size: 65536, routingOptions: preset.routing, model: preset.model });
    expect(result.model).toMatchObject({ preset: 'simgrid-smpi', networkModel: 'smpi', weightS: 8775, tcpGamma: 4194304, crossTraffic: 0.05, rateUpdate: 'full', sharing: 'cm02' });
    expect((result.model as { bandwidthFactors: { thresholds: number[] } }).bandwidthFactors.thresholds).toEqual([0, 257, 732, 1426, 3484, 5776, 9376, 15424, 65472]);
    const ideal = run(c, 65536, { ...preset.model, networkModel: 'ideal', rateUpdate: 'exact' });
    expect(ideal).toBe(run(c, 65536, cm02.model));
  });
});
