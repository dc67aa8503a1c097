/** The CLI over SimGrid platforms of zones (built dist/, as npm test runs it): runs with a hostfile of names, refusals exit 2 in one line. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const Z = 'test/reference/simgrid';
const tmp = tempDir('zones');

describe('meshwork over SimGrid platforms of zones', () => {
  test('run on griffon.xml with a hostfile of 64 host names: the simgrid-zone routing, 64 endpoints', () => {
    const r = runCli(['run', '--topology', `simgrid:${Z}/examples/griffon.xml`, '--mapping', `${Z}/platforms/zones/hosts-griffon-64.txt`, '--collective', 'allreduce', '--algorithm', 'rab_rdb', '--size', '64KiB', '--preset', 'simgrid', '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { topology: { family: string; endpoints: number }; routing: { name: string }; makespan_s: number };
    expect([result.topology.family, result.topology.endpoints, result.routing.name]).toEqual(['simgrid-zone', 64, 'simgrid-zone']);
    // SMPI 3.32 on the same platform and hostfile: 3.985 ms (test/reference/simgrid/zone-cases.json); within 2 %.
    expect(Math.abs(result.makespan_s / 3.9851876e-3 - 1)).toBeLessThan(0.02);
  });

  test('a construct not modelled is one line naming it, exit 2', () => {
    const file = join(tmp, 'trace.xml');
    writeFileSync(file, `<platform version="4.1"><zone id="z" routing="Full"><host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><link id="l" bandwidth="1GBps" latency="1us" state_file="s.txt"/></zone></platform>`);
    const line = expectOneLineError(runCli(['topo', `simgrid:${file}`]));
    expect(line).toBe(`meshwork: error: topology(${file}).link(l).state_file: got "s.txt"; accepted: the attributes id, bandwidth, latency, sharing_policy (SimGrid 3.32's state_file is not modelled)`);
  });

  test('the packet engine on a platform whose routes are not paths is refused in one line, exit 2', () => {
    const line = expectOneLineError(runCli(['run', '--topology', `simgrid:${Z}/examples/griffon.xml`, '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB', '--engine', 'packet']));
    expect(line).toMatch(/^meshwork: error: engine: got "packet"; accepted: the flow engine on this SimGrid platform \(its routes are link lists, not paths: /);
  });
});

describe('meshwork export --format simgrid --simgrid-zone, and back', () => {
  test('a 4x4x4 torus exported as an explicit zone along SimGrid\'s tie-break runs with the makespan of the torus itself', () => {
    const file = join(tmp, 't444.xml');
    expect(runCli(['export', 'torus:4x4x4,bw=10GBps,lat=100ns', '--format', 'simgrid', '--simgrid-zone', '--tie', 'simgrid', '--out', file]).code).toBe(0);
    const makespan = (topology: string): number => {
      const r = runCli(['run', '--topology', topology, '--collective', 'alltoall', '--algorithm', 'pair', '--size', '64KiB', '--preset', 'simgrid', '--json']);
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as { makespan_s: number }).makespan_s;
    };
    expect(makespan(`simgrid:${file}`)).toBe(makespan('torus:4x4x4,bw=10GBps,lat=100ns'));
  });
  test('--seed only with --tie random', () => {
    expect(expectOneLineError(runCli(['export', 'torus:4x4', '--format', 'simgrid', '--simgrid-zone', '--tie', 'positive', '--seed', '2']))).toBe('meshwork: error: seed: got "2"; accepted: only with --tie random (no other route listed makes a random choice)');
  });

  test('--tie split is refused (a zone lists one route per pair), and --simgrid-zone needs --format simgrid', () => {
    expect(expectOneLineError(runCli(['export', 'torus:4x4', '--format', 'simgrid', '--tie', 'split']))).toMatch(/^meshwork: error: tie: got "split"; accepted: positive, negative, parity, random, simgrid/);
    expect(expectOneLineError(runCli(['export', 'torus:4x4', '--format', 'anynet', '--simgrid-zone']))).toMatch(/^meshwork: error: format: got "anynet"; accepted: simgrid with --simgrid-zone and --tie/);
  });
});
