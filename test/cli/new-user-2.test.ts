/**
 * Issue 28 (a new user and a hostile tester, round 2): each finding through the built CLI.
 */
import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('issue 28: the built CLI', () => {
  it('item 6: dist/cli/main.js keeps its execute bit after npm run build, so `npx meshwork` runs it', () => {
    const bin = `${root}dist/cli/main.js`;
    expect(statSync(bin).mode & 0o111).toBe(0o111);
    const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('issue 28 item 3: deeply nested topology files', () => {
  const dir = tempDir('deep');
  const deep = (open: string, inner: string, close: string): string => `${open.repeat(100_000)}${inner}${close.repeat(100_000)}\n`;
  it.each([
    ['arrays.json', deep('[', '', ']'), 'meshwork: error: topology: got (an array nested too deeply to show); accepted: a JSON object with "nodes" and "links"'],
    ['links.json', `{"nodes":2,"links":${deep('[', '', ']')}}`, 'links[0]: got (an array nested too deeply to show); accepted: an array of {src, dst'],
    ['arrays.yaml', deep('[', '', ']'), 'accepted: a well-formed YAML file (nested too deeply to read)'],
  ])('%s: one line, exit 2, no stack overflow', (name, text, expected) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    const line = expectOneLineError(runCli(['topo', `file:${path}`], { timeoutMs: 30_000 }));
    expect(line.replace(path, 'topology').replace(`${path}`, '')).toContain(expected.replace('meshwork: error: topology: ', ''));
  });
});

describe('issue 28 items 4 and 5: sizes name `size` and its maximum; a lowercase b is asked about', () => {
  const run = (size: string, collective = 'alltoall'): string =>
    expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--collective', collective, '--algorithm', collective === 'alltoall' ? 'pairwise' : 'binomial', '--size', size]));
  it('1PiB alltoall on 16 ranks: size, and the largest block that fits', () => {
    expect(run('1PiB')).toBe(
      "meshwork: error: size: got 1125899906842624; accepted: at most 70368744177664 bytes = 64TiB for alltoall on 16 ranks: a rank's buffer of 16 blocks stays within 2^50 bytes",
    );
  });
  it('1e30: size and the largest size counted exactly', () => {
    expect(run('1e30')).toBe('meshwork: error: size: got "1e30"; accepted: at most 9007199254740991 bytes (2^53 − 1, about 8 PiB)');
  });
  it('4kb is refused with the question, not run as 500 B', () => {
    expect(run('4kb')).toBe('meshwork: error: size: got "4kb"; accepted: a size in bytes: did you mean 4KB or 4KiB? (a lowercase b reads as bits: write 4kbit for bits)');
    expect(run('8b', 'broadcast')).toContain('did you mean 8B?');
  });
  it('bits spelled out still parse: 8kbit is 1000 B', () => {
    const r = runCli(['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '8kbit']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('size 8kbit = 1000B (1000 B)');
  });
});

describe('issue 28 item 12: run --peer times a one-to-one transfer to a chosen rank', () => {
  const makespan = (peer: string): number => {
    const r = runCli(['run', '--topology', 'torus:4x4', '--collective', 'one-to-one', '--algorithm', 'direct', '--size', '64KiB', '--peer', peer, '--json']);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).makespan_s as number;
  };
  it('makespan = alpha + size / bandwidth + hops x link latency (defaults: 1 us, 25 Gbps, 100 ns)', () => {
    const base = 1e-6 + 65536 / (25e9 / 8);
    expect(makespan('1')).toBeCloseTo(base + 1 * 100e-9, 15); // rank 1 = (1,0): 1 hop
    expect(makespan('10')).toBeCloseTo(base + 4 * 100e-9, 15); // rank 10 = (2,2): 2 + 2 hops
  });
  it('the header names source and destination; --peer is refused for other collectives and for the source', () => {
    const r = runCli(['run', '--topology', 'torus:4x4', '--collective', 'one-to-one', '--algorithm', 'direct', '--size', '1KiB', '--peer', '5', '--root', '3']);
    expect(r.stdout).toContain('collective      one-to-one from rank 3 to rank 5, algorithm direct');
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB', '--peer', '3']))).toBe(
      'meshwork: error: peer: got "3"; accepted: nothing unless --collective one-to-one (the destination of the transfer)',
    );
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB', '--root', '3']))).toBe(
      'meshwork: error: root: got "3"; accepted: nothing unless a rooted collective (broadcast, reduce, scatter, gather, one-to-one): alltoall has no root',
    );
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--collective', 'one-to-one', '--algorithm', 'direct', '--size', '1KiB', '--peer', '0']))).toBe(
      'meshwork: error: peer: got 0; accepted: a rank from 0 to 15 other than the source 0',
    );
  });
});

describe('issue 28 item 13: a degraded network at packet level says it is routed on up*/down*', () => {
  const traffic = (extra: string[]): ReturnType<typeof runCli> =>
    runCli(['traffic', '--topology', 'torus:4x4', ...extra, '--pattern', 'uniform', '--rates', '0.1', '--horizon', '300', '--json']);
  it('a warning line on stderr and routingFallback in the result', () => {
    const r = traffic(['--fail', 'links=2,seed=1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      "meshwork: warning: the degraded network is routed on up*/down*(root=0) at packet level, not shortest-path(tie=lowest) (the intact family's routing no longer applies): expect longer routes and an earlier saturation than the intact network (docs/failures.md)\n",
    );
    expect(JSON.parse(r.stdout).routingFallback).toMatchObject({ replaced: 'shortest-path(tie=lowest)', by: 'up*/down*(root=0)', degraded: true });
  });
  it('the intact torus: no warning, routingFallback null', () => {
    const r = traffic([]);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).routingFallback).toBeNull();
  });
  it('run --engine packet on the degraded network warns too', () => {
    const r = runCli(['run', '--topology', 'torus:4x4', '--fail', 'links=2,seed=1', '--algorithm', 'pairwise', '--size', '1KiB', '--engine', 'packet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^meshwork: warning: the degraded network is routed on up\*\/down\*\(root=0\) at packet level/);
  });
});
