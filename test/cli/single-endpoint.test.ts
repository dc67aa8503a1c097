/**
 * A topology of one endpoint has one rule (src/topology/endpoint-count.ts): every command refuses it
 * with the same line, exit 2. `meshwork run --topology torus:1x1` used to run (a makespan of 0 s
 * against a bound of 0 s; at packet level a refusal naming cycleSeconds) while `meshwork topo torus:1x1` refused.
 */
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { prepare } from '../../src/sim/prepare.js';
import { simulate, simulateCollective } from '../../src/sim/simulate.js';
import { buildSchedule } from '../../src/collectives/registry.js';
import { buildTopology } from '../../src/topology/registry.js';
import '../../src/topology/families.js';

const COMMANDS: Record<string, (spec: string) => string[]> = {
  topo: (spec) => ['topo', spec],
  run: (spec) => ['run', '--topology', spec, '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB'],
  'run --engine packet': (spec) => ['run', '--topology', spec, '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB', '--engine', 'packet'],
  perf: (spec) => ['perf', '--topology', spec],
  compare: (spec) => ['compare', '--topology', spec, '--collective', 'alltoall', '--size', '1KiB'],
  traffic: (spec) => ['traffic', '--topology', spec, '--pattern', 'uniform', '--rates', '0.1'],
  'workload run': (spec) => ['workload', 'run', '--generate', 'tp=1,dp=1,layers=1', '--topology', spec],
  'collective verify': (spec) => ['collective', 'verify', '--topology', spec, '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB'],
  export: (spec) => ['export', spec, '--format', 'json'],
};

describe('a single-endpoint topology: one rule, one line, in every command', () => {
  it.each(['torus:1x1', 'mesh:1'])('%s', (spec) => {
    const lines = Object.entries(COMMANDS).map(([name, args]) => [name, expectOneLineError(runCli(args(spec)))]);
    const expected = `meshwork: error: topology: got "${spec}"; accepted: a topology with at least 2 endpoints (this one has 1)`;
    expect(Object.fromEntries(lines)).toEqual(Object.fromEntries(Object.keys(COMMANDS).map((name) => [name, expected])));
  });

  it('families sized by one number refuse 1 (or hypercube 0) at their parameter, the same line in topo and run', () => {
    for (const [spec, line] of [
      ['ring:1', 'topology.n: got "1"; accepted: an integer from 2 to 16777216'],
      ['fullmesh:1', 'topology.n: got "1"; accepted: an integer from 2 to 16777216'],
      ['hypercube:0', 'topology.d: got "0"; accepted: an integer from 1 to 64'],
    ]) {
      for (const args of [COMMANDS.topo(spec), COMMANDS.run(spec)]) expect(expectOneLineError(runCli(args))).toBe(`meshwork: error: ${line}`);
    }
  });

  it('the library refuses it in prepare(), a request without files too', () => {
    const request = { topology: 'mesh:1x1x1', workload: { kind: 'collective', collective: 'allreduce', algorithm: 'ring', size: 1024 } } as const;
    expect(() => prepare(request)).toThrow('topology: got "mesh:1x1x1"; accepted: a topology with at least 2 endpoints (this one has 1)');
  });

  it('the library refuses it in simulate() of a built topology and simulateCollective, with the same line (both ran: 0 s against 0 s)', () => {
    const line = 'topology: got "torus:1x1"; accepted: a topology with at least 2 endpoints (this one has 1)';
    const one = buildTopology('torus:1x1');
    const build = { topology: one, collective: 'allreduce', algorithm: 'ring', size: 1024 } as const;
    expect(() => simulate({ topology: one, schedule: buildSchedule(build) })).toThrow(line);
    expect(() => simulateCollective(build)).toThrow(line);
  });
});
