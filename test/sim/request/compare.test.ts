/** compareAlgorithms (sim/compare.ts): the one compare behind `meshwork compare` and the Studio's Compare view. */
import { describe, expect, it } from 'vitest';
import { compareAlgorithms } from '../../../src/sim/compare.js';
import { simulate } from '../../../src/sim/simulate.js';
import { listAlgorithms } from '../../../src/collectives/registry.js';
import { runCli } from '../../helpers/cli.js';

const base = { topology: 'torus:4x4', workload: { kind: 'collective' as const, collective: 'alltoall' as const, algorithm: 'compared', size: 4096 } };

describe('compareAlgorithms', () => {
  it('runs every registered alltoall that fits, sorted, each equal to its own simulate(request); the rest skipped with the reason', () => {
    const r = compareAlgorithms(base);
    expect(r.runs.length + r.skipped.length).toBe(listAlgorithms('alltoall').length);
    const times = r.runs.map((x) => x.makespan_s);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const best = simulate({ ...base, workload: { ...base.workload, algorithm: r.best! } });
    expect(best.kind === 'meshwork-run-result' && best.makespan_s).toBe(r.runs[0].makespan_s);
    for (const s of r.skipped) expect(s.reason.length).toBeGreaterThan(0);
  });

  it('is what meshwork compare prints: the same best and the same makespans', () => {
    const cli = JSON.parse(runCli(['compare', '--topology', 'torus:4x4', '--size', '4KiB', '--json']).stdout);
    const lib = compareAlgorithms(base);
    expect(cli.best).toBe(lib.best);
    expect(cli.runs.map((x: { makespan_s: number }) => x.makespan_s)).toEqual(lib.runs.map((x) => x.makespan_s));
    expect(cli.skipped).toEqual(lib.skipped);
  });

  it('refuses the whole comparison on a size limit, naming it', () => {
    expect(() => compareAlgorithms({ topology: 'torus:32x32x32', workload: { ...base.workload, size: 1 << 20 } })).toThrow(/2\^28/);
  });
});
