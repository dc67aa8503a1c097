/**
 * `meshwork run --schedule FILE.json` without `--topology`: a Meshwork schedule JSON file records
 * the topology it was built for (`"topology": "torus:2x2"`), so the run takes it from there; a
 * `--topology` given is used instead (with the schedule's rank count), as `collective verify
 * --schedule` does. MSCCL-XML records none and still needs `--topology`.
 */
import { copyFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('run --schedule FILE: the topology the file records', () => {
  const dir = realpathSync(tempDir('schedule-topology'));
  const json = join(dir, 's.json');
  const xml = join(dir, 's.xml');
  const build = ['collective', 'export', '--topology', 'torus:2x2', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB'];
  beforeAll(() => {
    expect(runCli([...build, '--format', 'json', '--out', json]).code).toBe(0);
    expect(runCli([...build, '--format', 'msccl-xml', '--out', xml]).code).toBe(0);
  });

  it('runs without --topology, as with the recorded one typed; the request records it', () => {
    const alone = runCli(['run', '--schedule', json, '--json']);
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toBe(runCli(['run', '--schedule', json, '--topology', 'torus:2x2', '--json']).stdout);
    expect(JSON.parse(alone.stdout).request).toMatchObject({ topology: 'torus:2x2', workload: { kind: 'schedule', file: json } });
    expect(runCli(['run', '--schedule', json]).stdout).toMatch(/^topology {8}torus:2x2 \(4 endpoints, 8 channels\)\n/);
  });

  it('a --topology given is used instead, with the schedule\'s rank count', () => {
    const faster = JSON.parse(runCli(['run', '--schedule', json, '--topology', 'torus:2x2,bw=100Gbps', '--json']).stdout);
    const recorded = JSON.parse(runCli(['run', '--schedule', json, '--json']).stdout);
    expect(faster.request.topology).toBe('torus:2x2,bw=100Gbps');
    expect(faster.makespan_s).toBeLessThan(recorded.makespan_s);
    expect(expectOneLineError(runCli(['run', '--schedule', json, '--topology', 'ring:8']))).toBe('meshwork: error: topology: got "ring:8"; accepted: a topology with 4 endpoints (the schedule\'s rank count)');
  });

  it('MSCCL-XML records no topology: refused in one line naming --topology', () => {
    expect(expectOneLineError(runCli(['run', '--schedule', xml, '--size', '1KiB']))).toBe('meshwork: error: topology: got (nothing); accepted: a topology spec or file such as torus:8x8 (required: an MSCCL-XML schedule records none)');
    expect(runCli(['run', '--schedule', xml, '--size', '1KiB', '--topology', 'torus:2x2']).code).toBe(0);
  });

  it('a recorded topology file is read from the schedule\'s directory (run and collective verify), wherever they start', () => {
    const data = join(dir, 'data');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(data);
    mkdirSync(elsewhere);
    expect(runCli(['export', 'ring:4', '--format', 'json', '--out', 'g.json'], { cwd: data }).code).toBe(0);
    expect(runCli(['collective', 'export', '--topology', 'file:g.json', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB', '--format', 'json', '--out', 'sg.json'], { cwd: data }).code).toBe(0);
    const run = runCli(['run', '--schedule', '../data/sg.json'], { cwd: elsewhere });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`topology        file:${join(data, 'g.json')} (4 endpoints, 8 channels)\n`);
    // A schedule file without a .json suffix: its topology file is read as well (the graph reader loads for --schedule).
    copyFileSync(join(data, 'sg.json'), join(data, 'sg'));
    expect(runCli(['run', '--schedule', '../data/sg'], { cwd: elsewhere }).stdout).toContain(`topology        file:${join(data, 'g.json')} (4 endpoints`);
    const verify = runCli(['collective', 'verify', '--schedule', '../data/sg.json'], { cwd: elsewhere });
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/^PASS allreduce ring on file:g\.json: 4 ranks/);
  });
});

describe('run --schedule FILE: the rank mapping the file records', () => {
  const dir = realpathSync(tempDir('schedule-mapping'));
  const makespan = (args: string[]): number => {
    const r = runCli([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).makespan_s;
  };
  // The fan-out tree's route hints name mapped nodes: under another placement it times other links.
  const built = ['--topology', 'fullmesh:8', '--collective', 'broadcast', '--algorithm', 'fullmesh-multicast', '--size', '4KiB'];

  it('a named mapping: recorded, applied without --topology, replaced by a --mapping given', () => {
    const file = join(dir, 'random3.json');
    expect(runCli(['collective', 'export', ...built, '--mapping', 'random:seed=3', '--format', 'json', '--out', file]).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).mapping).toBe('random:seed=3');
    const mapped = makespan(['run', ...built, '--mapping', 'random:seed=3']);
    expect(makespan(['run', '--schedule', file])).toBe(mapped);
    expect(makespan(['run', '--schedule', file, '--mapping', 'identity'])).not.toBe(mapped);
  });

  it('a permutation file: recorded by its absolute path, so the schedule runs from another directory', () => {
    writeFileSync(join(dir, 'perm.txt'), '3 1 4 0 5 7 2 6\n');
    const file = join(dir, 'perm.json');
    expect(runCli(['collective', 'export', ...built, '--mapping', 'perm.txt', '--format', 'json', '--out', file], { cwd: dir }).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).mapping).toBe(join(dir, 'perm.txt'));
    expect(makespan(['run', '--schedule', file])).toBe(makespan(['run', ...built, '--mapping', join(dir, 'perm.txt')]));
  });

  it('a schedule built without one records none; a recorded mapping that is not text is refused', () => {
    const file = join(dir, 'plain.json');
    expect(runCli(['collective', 'export', ...built, '--format', 'json', '--out', file]).code).toBe(0);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect('mapping' in json).toBe(false);
    writeFileSync(file, JSON.stringify({ ...json, mapping: 5 }));
    expect(expectOneLineError(runCli(['run', '--schedule', file]))).toBe('meshwork: error: schedule.mapping: got 5; accepted: a rank mapping such as random:seed=3 or a permutation file');
  });
});
