import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('coll');

describe('meshwork collective', () => {
  it('list shows algorithms per collective with parameters and defaults', () => {
    const r = runCli(['collective', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/broadcast:\n[\s\S]*chain .*\n\s+segments=4 \(1\.\.1048576\)/);
    expect(r.stdout).toMatch(/allgather:[\s\S]*neighbor-exchange .*supports an even rank count/);
    const json = JSON.parse(runCli(['collective', 'list', '--json']).stdout);
    expect(json.find((a: { name: string; collective: string }) => a.name === 'pairwise' && a.collective === 'alltoall').params[0]).toMatchObject({ key: 'order', default: 'auto' });
  });

  it('verify prints PASS, steps and the per-rank table; --out writes a schedule that verifies again', () => {
    const out = join(dir, 's.json');
    const r = runCli(['collective', 'verify', '--topology', 'torus:5', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '16', '--steps', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS alltoall pairwise on torus:5: 5 ranks, 16B per block/);
    expect(r.stdout).toContain('steps 4: max sends per rank 1, max receives per rank 1, deferred sends 0');
    // rank 0 sends 4 blocks of 16 B; peak = send + recv buffers = 2 x 80 B.
    expect(r.stdout).toMatch(/\n\s+0\s+64\s+64\s+4\s+4\s+0\s+160\n/);
    expect(existsSync(out)).toBe(true);
    const again = runCli(['collective', 'verify', '--schedule', out, '--json']);
    expect(again.code).toBe(0);
    const rep = JSON.parse(again.stdout);
    expect(rep.pass).toBe(true);
    expect(rep.perRank.sentBytes).toEqual([64, 64, 64, 64, 64]);
  });

  it('verify of a deadlocking user schedule reports and exits 1, never hangs', () => {
    const file = join(dir, 'dead.json');
    const s = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    // Make every rank receive before it sends.
    for (const p of s.programs) p.ops.sort((a: unknown[], b: unknown[]) => (a[0] === 'recv' ? -1 : 0) - (b[0] === 'recv' ? -1 : 0));
    writeFileSync(file, JSON.stringify(s));
    const r = runCli(['collective', 'verify', '--schedule', file], { timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL/);
    expect(r.stdout).toContain('deadlock: 5 program(s) blocked; rank 0 stream 0');
  });

  it('show prints one rank program', () => {
    const r = runCli(['collective', 'show', '--topology', 'torus:4', '--collective', 'broadcast', '--algorithm', 'binomial', '--size', '8', '--rank', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('stream 0: 2 ops');
    expect(r.stdout).toMatch(/0 {2}recv from 0 recv\[0..7\] tag 0\n\s+1 {2}send to 3 recv\[0..7\] tag 0/);
  });

  it('refuses bad input with one line and exit code 2', () => {
    const base = ['collective', 'verify', '--topology', 'torus:6'];
    expect(expectOneLineError(runCli([...base, '--collective', 'alltoall', '--algorithm', 'pairwise:order=xor', '--size', '8']))).toMatch(/power-of-two/);
    expect(expectOneLineError(runCli([...base, '--collective', 'reduce-scatter', '--algorithm', 'ring', '--size', '20']))).toMatch(/size: got 20; accepted: a multiple of 24 bytes/);
    expect(expectOneLineError(runCli([...base, '--collective', 'alltoall', '--algorithm', 'pairwise:colour=red', '--size', '8']))).toMatch(/algorithm\.colour/);
    expect(expectOneLineError(runCli([...base, '--collective', 'alltoal', '--algorithm', 'pairwise', '--size', '8']))).toMatch(/collective: got "alltoal"/);
    expect(expectOneLineError(runCli([...base, '--collective', 'broadcast', '--algorithm', 'binomial', '--size', '8', '--root', '9']))).toMatch(/root/);
    expect(expectOneLineError(runCli([...base, '--collective', 'alltoall', '--algorithm', 'pairwise']))).toMatch(/size/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format":"meshwork-schedule","version":1,"ranks":2,"streams":1,"parts":[{"collective":"alltoall","ranks":[0,1],"size":4}],"buffers":[{"name":"send"},{"name":"recv"}],"regions":[[[0,0,4]]],"programs":[{"rank":0,"stream":0,"ops":[["send",5,0,0]]}]}');
    expect(expectOneLineError(runCli(['collective', 'verify', '--schedule', bad]))).toMatch(/schedule\.programs\[0\]\.ops\[0\]\[1\]: got 5/);
    writeFileSync(bad, '{not json');
    expect(expectOneLineError(runCli(['collective', 'verify', '--schedule', bad]))).toMatch(/a JSON file/);
    expect(expectOneLineError(runCli(['collective', 'verify', '--schedule', join(dir, 'missing.json')]))).toMatch(/a readable file/);
  });
});
