/**
 * FATPIPE links against smpirun (test/reference/simgrid/fatpipe-cases/, `generate.sh fatpipe`, SimGrid
 * 3.32): a Full zone whose routes between {h0,h1} and {h2,h3} cross one FATPIPE link, those to h3
 * also a 50 µs link, so the flows on it have unequal CM02 penalties (platforms/zones/four-full-fatpipe.xml),
 * and a FLAT cluster with bb_sharing_policy="FATPIPE" (platforms/flat-16-bb-fatpipe.xml), each under the
 * CM02 configuration of cases/ (`--preset simgrid`) and smpirun's SMPI model (`--preset simgrid-smpi`).
 * docs/flow.md, "FATPIPE links".
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { flowPreset, runCollectiveFlow, simgridTopology, type Topology } from '../../src/index.js';
import { loadMapping } from '../../src/node/index.js';
import { SIMGRID_DIR as DIR, simgridCases, type SimgridCase } from '../helpers/simgrid-cases.js';

/** Percent: SMPI's 10 ns MPI_Wtime is the largest error, on the 1 KiB rows (as the other SimGrid cases). */
const TARGET = 0.5;

const cases = simgridCases('fatpipe-cases');

/** Each platform read once (per sharing policy it is read with), not once per row. */
const loaded = new Map<string, Topology>();
function topologyOf(c: SimgridCase, sharing?: string): Topology {
  const key = `${c.platform} ${sharing ?? ''}`;
  if (!loaded.has(key)) {
    let text = readFileSync(`${DIR}/${c.platform}`, 'utf8');
    if (sharing) text = text.replaceAll('"FATPIPE"', `"${sharing}"`);
    const t = simgridTopology(text, c.platform);
    loaded.set(key, c.ranks === 4 ? loadMapping(t, `${DIR}/${c.hostfile}`) : t);
  }
  return loaded.get(key)!;
}

const run = (c: SimgridCase, size: number, sharing?: string): number => {
  const preset = flowPreset(c.config.includes('network/model:CM02') ? 'simgrid' : 'simgrid-smpi');
  return runCollectiveFlow({ topology: topologyOf(c, sharing), collective: c.meshwork.collective, algorithm: c.meshwork.algorithm, size, routingOptions: preset.routing, model: preset.model }).makespan_s;
};

describe('FATPIPE links against smpirun (SimGrid 3.32)', () => {
  it('has 16 cases of 4 sizes: 10 on the Full zone, 6 on the FLAT cluster, half under CM02', () => {
    expect(cases.length).toBe(16);
    expect(cases.filter((c) => c.platform.includes('four-full-fatpipe')).length).toBe(10);
    expect(cases.filter((c) => c.config.includes('network/model:CM02')).length).toBe(8);
    expect(cases.every((c) => c.simgrid === 'SimGrid version 3.32' && c.rows.map((r) => r.size).join() === '1024,65536,1048576,16777216')).toBe(true);
  });

  for (const c of cases) {
    it(`${c.name}: within ${TARGET} %`, () => {
      for (const row of c.rows) {
        const error = (run(c, row.size) / row.makespan_s - 1) * 100;
        expect(Math.abs(error), `${row.size} B: ${error.toFixed(3)} %`).toBeLessThanOrEqual(TARGET);
      }
    });
  }

  it('read as a SHARED link instead, the FLAT cluster\'s backbone alltoall is several times slower than smpirun', () => {
    const c = cases.find((x) => x.name === 'flat-16-bb-fatpipe-cm02-alltoall-pair')!;
    const row = c.rows.find((r) => r.size === 1048576)!;
    // 16 flows share 4 GBps instead of each crossing it alone.
    expect(run(c, row.size, 'SHARED') / row.makespan_s).toBeGreaterThan(4);
  });
});

