/**
 * SimGrid's own configuration items (`--simgrid-cfg`, src/sim/flow/simgrid-cfg.ts) against smpirun
 * run with them: test/reference/simgrid/cfg-cases/, made by `generate.sh cfg` (SimGrid 3.32; LV08 and
 * CM02 as network/model with cross-traffic left on, CM02's scalar factors and weight-S, SMPI's
 * piecewise factors with another weight-S, a smaller TCP-gamma on millisecond routes, SMPI's
 * software overheads smpi/os, smpi/ois and smpi/or, smpi/async-small-thresh; 4 hosts on a
 * Full zone of unequal links, and LV08 on the 64-host 4x4x4 torus). docs/flow.md, "SimGrid's
 * configuration items".
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { flowPreset, resolveFlowModel, runCollectiveFlow, simgridCfgModel, simgridTopology, type Topology } from '../../src/index.js';
import { loadMapping, loadTopology } from '../../src/node/index.js';
import { SIMGRID_DIR as DIR, simgridCases, type SimgridCase } from '../helpers/simgrid-cases.js';

/** Percent: as the smpi-model cases, SMPI's 10 ns MPI_Wtime is the largest error, on the 1 KiB rows. */
const TARGET = 0.5;

const cases = simgridCases('cfg-cases');
const preset = flowPreset('simgrid-smpi');

const topologies = new Map<string, Topology>();
function topologyOf(c: SimgridCase): Topology {
  if (!topologies.has(c.platform)) {
    const t = c.platform === 'platforms/torus-4x4x4.xml'
      ? loadTopology('torus:4x4x4,bw=10GBps,lat=100ns')
      : loadMapping(simgridTopology(readFileSync(`${DIR}/${c.platform}`, 'utf8'), c.platform), `${DIR}/${c.hostfile}`);
    topologies.set(c.platform, t);
  }
  return topologies.get(c.platform)!;
}

/** The case's --cfg items as a user passes them, less the algorithm (Meshwork's --algorithm). */
const items = (c: SimgridCase): string => c.config.split(' ').filter((i) => !i.startsWith(`--cfg=smpi/${c.collective}:`)).join(' ');

const run = (c: SimgridCase, size: number, withItems = true) =>
  runCollectiveFlow({
    topology: topologyOf(c),
    collective: c.meshwork.collective,
    algorithm: c.meshwork.algorithm,
    size,
    routingOptions: preset.routing,
    model: { ...preset.model, ...(withItems ? simgridCfgModel(items(c), 'simgrid-smpi').model : {}) },
  }).makespan_s;

describe('--simgrid-cfg against smpirun run with the same configuration items', () => {
  it('has 47 cases of 4 sizes, SimGrid 3.32, each with network items or software overheads', () => {
    expect(cases.length).toBe(47);
    expect(cases.every((c) => c.simgrid === 'SimGrid version 3.32' && /--cfg=(network\/|smpi\/os:)/.test(c.config))).toBe(true);
    expect(cases.filter((c) => c.config.includes('--cfg=smpi/or:')).length).toBe(10);
    expect(cases.every((c) => c.rows.map((r) => r.size).join() === '1024,65536,1048576,16777216')).toBe(true);
  });

  for (const c of cases) {
    it(`${c.name}: within ${TARGET} %, and the items are what close it`, () => {
      let worstWithout = 0;
      for (const row of c.rows) {
        const error = (run(c, row.size) / row.makespan_s - 1) * 100;
        expect(Math.abs(error), `${row.size} B: ${error.toFixed(3)} %`).toBeLessThanOrEqual(TARGET);
        worstWithout = Math.max(worstWithout, Math.abs(run(c, row.size, false) / row.makespan_s - 1) * 100);
      }
      // smpirun's defaults alone (the simgrid-smpi preset) miss each case by 2 % or more at some size.
      expect(worstWithout).toBeGreaterThan(2);
    });
  }
});

describe('simgridCfgModel: SimGrid 3.32 configuration items as model options', () => {
  const torus = loadTopology('torus:4x4x4,bw=10GBps,lat=100ns');
  const resolved = (text: string, on = 'simgrid-smpi') => resolveFlowModel({ ...flowPreset(on).model, ...simgridCfgModel(text, on).model }, torus, undefined);

  it("network/model sets the model's defaults (surf_network_model_init_*), and an item given wins whatever its order", () => {
    const lv08 = resolved('network/model:LV08');
    expect([lv08.networkModel, lv08.weightS, lv08.tcpGamma, lv08.crossTraffic, lv08.rateUpdate]).toEqual(['lv08', 20537, 4194304, 0.05, 'full']);
    expect([lv08.latencyFactors, lv08.bandwidthFactors]).toEqual([{ thresholds: [-1], values: [13.01] }, { thresholds: [-1], values: [0.97] }]);
    const set = resolved('network/weight-S:5 network/model:LV08 network/TCP-gamma:0');
    expect([set.weightS, set.tcpGamma]).toEqual([5, null]);
  });

  it('applies on top of the preset as smpirun on top of its defaults: simgrid is CM02 without cross-traffic, simgrid-smpi the SMPI model with it', () => {
    expect([resolved('network/weight-S:10', 'simgrid').networkModel, resolved('network/weight-S:10', 'simgrid').crossTraffic]).toEqual(['cm02', 0]);
    expect([resolved('network/model:CM02').networkModel, resolved('network/model:CM02').crossTraffic]).toEqual(['cm02', 0.05]);
    expect(resolved('network/crosstraffic:no').crossTraffic).toBe(0);
    // A pasted smpirun argument keeps its --cfg= prefix; the send-is-detached threshold is the smpi protocol's.
    expect(resolved('--cfg=smpi/send-is-detached-thresh:1024').eagerThreshold).toBe(1024);
  });

  it("names the factor items the chosen model does not read, and the items that change no timing", () => {
    const cm02 = simgridCfgModel('network/model:CM02 smpi/lat-factor:0:2 tracing:yes smpi/simulate-computation:no', 'simgrid-smpi');
    expect(cm02.noEffect).toEqual([
      "smpi/lat-factor: SimGrid's CM02 model reads network/latency-factor instead",
      'tracing: changes no collective timing Meshwork computes',
      'smpi/simulate-computation: changes no collective timing Meshwork computes',
    ]);
    expect(cm02.model.latencyFactor).toBeUndefined();
    expect(simgridCfgModel('network/latency-factor:3', 'simgrid-smpi').noEffect).toEqual(["network/latency-factor: SimGrid's SMPI model reads smpi/lat-factor instead"]);
    // How SimGrid updates its sharing: Meshwork is its Full update (smpi-cases/*-optim-full), whatever the item says.
    expect(simgridCfgModel('network/optim:Lazy', 'simgrid').noEffect).toEqual([
      "network/optim: Meshwork always shares as SimGrid's network/optim:Full does (CM02's default Lazy can oversubscribe a link when a flow leaves its latency phase)",
    ]);
  });

  it('refuses what it cannot honour, in one line naming the item', () => {
    const refusal = (text: string, on: string | null = 'simgrid-smpi') => {
      try {
        simgridCfgModel(text, on ?? undefined);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(refusal('network/model:IB')).toMatch(/^simgrid-cfg\.network\/model: got "IB"; accepted: CM02, LV08, SMPI/);
    expect(refusal('smpi/allreduce:lr')).toMatch(/^simgrid-cfg\.smpi\/allreduce: got "lr"; accepted: nothing here: give the algorithm with --algorithm/);
    expect(refusal('network/weight-S:-1')).toMatch(/^simgrid-cfg\.network\/weight-S: got "-1"/);
    expect(refusal('network/crosstraffic:maybe')).toMatch(/^simgrid-cfg\.network\/crosstraffic: got "maybe"; accepted: a boolean/);
    expect(refusal('smpi/bw-factor:65472:x')).toMatch(/^simgrid-cfg\.smpi\/bw-factor: got "65472:x"/);
    expect(refusal('smpi/os:0:1e-6')).toMatch(/^simgrid-cfg\.smpi\/os: got "0:1e-6"/);
    expect(refusal('network/loopback-bw:1e9')).toMatch(/^simgrid-cfg: got "network\/loopback-bw:1e9"; accepted: a SimGrid 3.32 configuration item Meshwork reads/);
    expect(refusal('weight-S')).toMatch(/^simgrid-cfg: got "weight-S"; accepted: SimGrid configuration items KEY:VALUE/);
    expect(refusal('network/model:LV08', null)).toMatch(/^simgrid-cfg: got "network\/model:LV08"; accepted: SimGrid configuration items with --preset simgrid-smpi or simgrid \(the SimGrid run they change; got no preset\)/);
    expect(refusal('network/model:LV08', 'astra')).toMatch(/got --preset astra/);
  });

  it('the model options they set refuse a model without SimGrid corrections, and cross-traffic outside the full update', () => {
    expect(() => resolveFlowModel({ weightS: 10 }, torus, undefined)).toThrow(/^model\.weightS: got 10; accepted: a term of a SimGrid network model/);
    expect(() => resolveFlowModel({ sharing: 'cm02', networkModel: 'cm02', crossTraffic: 0.05, rateUpdate: 'exact' }, torus, undefined)).toThrow(/^model\.rateUpdate: got "exact"; accepted: full with cross-traffic/);
    expect(() => resolveFlowModel({ sharing: 'cm02', networkModel: 'cm02', latencyFactor: 'x' }, torus, undefined)).toThrow(/^model\.latencyFactor: got "x"/);
    expect(resolveFlowModel({ sharing: 'cm02', networkModel: 'cm02', crossTraffic: 0.05 }, torus, undefined).rateUpdate).toBe('full');
  });
});
