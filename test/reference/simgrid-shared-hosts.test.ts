/**
 * Several ranks on one host against smpirun (test/reference/simgrid/shared-host-cases/, `generate.sh
 * shared-hosts`, SimGrid 3.32): hostfiles that list hosts twice (or `host:2`), so ranks of one host
 * message each other over its route to itself: a TORUS and a FAT_TREE cluster's loopbacks, a FLAT
 * cluster's link up and down, small_platform.xml's declared self routes over its FATPIPE loopback,
 * griffon.xml's FLAT cabinets in zones, and FLAT clusters with loopbacks inside a platform of zones;
 * under the CM02 configuration of cases/ (`--preset simgrid`) and, for two, smpirun's SMPI model
 * (`--preset simgrid-smpi`). docs/interop.md, "Hostfiles".
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flowPreset, runCollectiveFlow, type Topology } from '../../src/index.js';
import { loadTopology } from '../../src/node/index.js';
import { SIMGRID_DIR as DIR, simgridCases, type SimgridCase } from '../helpers/simgrid-cases.js';

/**
 * Within 0.5 %, or 25 ns: on the 1 KiB rows SMPI's 10 ns MPI_Wtime and a few ns more are the error
 * (binomial_tree at 1 KiB on flat-16.xml is 17 ns short with one rank per host too, −0.93 %).
 */
const TARGET = 0.5;
const TARGET_SECONDS = 25e-9;

const cases = simgridCases('shared-host-cases');

const loaded = new Map<string, Topology>();
function topologyOf(c: SimgridCase): Topology {
  const key = `${c.platform} ${c.hostfile}`;
  if (!loaded.has(key)) loaded.set(key, loadTopology(`simgrid:${DIR}/${c.platform}`, { mapping: `${DIR}/${c.hostfile}` }));
  return loaded.get(key)!;
}

const run = (c: SimgridCase, size: number): number => {
  const preset = flowPreset(c.config.includes('network/model:CM02') ? 'simgrid' : 'simgrid-smpi');
  return runCollectiveFlow({ topology: topologyOf(c), collective: c.meshwork.collective, algorithm: c.meshwork.algorithm, size, routingOptions: preset.routing, model: preset.model }).makespan_s;
};

describe('several ranks on one host against smpirun (SimGrid 3.32)', () => {
  it('has 49 cases of 3 sizes on 7 platform and hostfile pairs, 6 under the SMPI model, 8 of SMPI\'s default selectors', () => {
    expect(cases.length).toBe(49);
    expect(cases.filter((c) => c.meshwork.algorithm === 'default').length).toBe(8);
    expect(new Set(cases.map((c) => `${c.platform} ${c.hostfile}`)).size).toBe(7);
    expect(cases.filter((c) => !c.config.includes('network/model:CM02')).length).toBe(6);
    expect(cases.every((c) => c.simgrid === 'SimGrid version 3.32' && c.rows.map((r) => r.size).join() === '1024,65536,1048576')).toBe(true);
  });

  it('every hostfile puts some host under two ranks, and the rank count is smpirun -np', () => {
    for (const c of cases) {
      const t = topologyOf(c);
      expect(t.numEndpoints, c.name).toBe(c.ranks);
      expect(t.ranksShareHosts, c.name).toBe(true);
    }
  });

  for (const c of cases) {
    it(`${c.name}: within ${TARGET} % or 25 ns`, () => {
      for (const row of c.rows) {
        const seconds = run(c, row.size);
        const error = (seconds / row.makespan_s - 1) * 100;
        if (Math.abs(seconds - row.makespan_s) <= TARGET_SECONDS) continue;
        expect(Math.abs(error), `${row.size} B: ${error.toFixed(3)} %`).toBeLessThanOrEqual(TARGET);
      }
    });
  }

  it("the host's route to itself is timed: with a near-free loopback the torus alltoall is 6 % faster than smpirun", () => {
    const c = cases.find((x) => x.name === 'torus-loopback-twice-cm02-alltoall-pair')!;
    const row = c.rows.find((r) => r.size === 1048576)!;
    const dir = mkdtempSync(join(tmpdir(), 'meshwork-loopback-'));
    try {
      const platform = join(dir, 'fast-loopback.xml');
      writeFileSync(platform, readFileSync(`${DIR}/${c.platform}`, 'utf8').replace('loopback_bw="5GBps" loopback_lat="500ns"', 'loopback_bw="5000GBps" loopback_lat="0ns"'));
      const topology = loadTopology(`simgrid:${platform}`, { mapping: `${DIR}/${c.hostfile}` });
      const preset = flowPreset('simgrid');
      const fast = runCollectiveFlow({ topology, collective: 'alltoall', algorithm: 'pair', size: row.size, routingOptions: preset.routing, model: preset.model }).makespan_s;
      // The step whose partner shares the host moves 1 MiB over the 5 GBps loopback, the rest over 10 GBps links.
      expect(fast / row.makespan_s).toBeLessThan(0.95);
      expect(Math.abs(run(c, row.size) / row.makespan_s - 1)).toBeLessThan(1e-5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
