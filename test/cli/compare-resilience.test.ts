/**
 * Issue 28 item 1: a comparison is never taken down by one algorithm, and exit 2 is for bad input
 * only. `compare --collective alltoall --preset simgrid` ended with `error: schedule: got "deadlock
 * at rank 0 stream 0 op 1"`, exit 2, no table: the linear alltoall's blocking rendezvous sends
 * wait for receives posted after them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerAlgorithm, SEND, RECV } from '../../src/index.js';
import { register as registerCompare } from '../../src/cli/commands/compare.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('compare');

describe('a valid input the model cannot run exits 3, not 2 (built CLI)', () => {
  it('run --schedule of a schedule whose blocking sends all come first, under rendezvous: exit 3, "cannot run"', () => {
    const file = join(dir, 'sends-first.json');
    expect(runCli(['collective', 'verify', '--topology', 'torus:4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '16', '--out', file]).code).toBe(0);
    const s = JSON.parse(readFileSync(file, 'utf8'));
    // Every rank sends before it receives: fine when sends are eager, a deadlock under rendezvous.
    for (const p of s.programs) p.ops.sort((a: unknown[], b: unknown[]) => (a[0] === 'send' ? -1 : 0) - (b[0] === 'send' ? -1 : 0));
    writeFileSync(file, JSON.stringify(s));
    const eager = runCli(['run', '--topology', 'torus:4', '--schedule', file]);
    expect(eager.code, eager.stderr).toBe(0);
    const r = runCli(['run', '--topology', 'torus:4', '--schedule', file, '--protocol', 'mpi', '--eager-threshold', '0']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^meshwork: cannot run: schedule: got "deadlock at rank \d+ stream 0 op 0"; accepted: a schedule whose every operation completes \(rendezvous send to rank \d+ tag \d+ never matched by a receive\)\n$/);
  });
});

describe("compare: the request's own error is bad input, exit 2, never a reason to skip every algorithm (built CLI)", () => {
  it('meshwork compare exits 2 with the one line for the request\'s own error (reduce-scatter of 100 B, dor on a fat tree)', () => {
    expect(expectOneLineError(runCli(['compare', '--topology', 'torus:4x4', '--collective', 'reduce-scatter', '--size', '100']))).toBe('meshwork: error: size: got 100; accepted: a multiple of 64 bytes (16 ranks x 4-byte int32) for reduce-scatter');
    expect(expectOneLineError(runCli(['compare', '--topology', 'fattree:k=4,levels=2', '--size', '4KiB', '--routing', 'dor']))).toBe('meshwork: error: routing: got "dimension-order on fattree"; accepted: a mesh or torus topology');
  });
});

describe('compare lists a failed algorithm and shows the rest (the compare command in process)', () => {
  // An algorithm written the way the linear alltoall was: every blocking send before any receive.
  registerAlgorithm({
    name: 'sends-first-test',
    collective: 'alltoall',
    description: 'test only: all blocking sends, then all receives',
    supportsText: 'any rank count',
    source: 'user',
    params: [],
    supports: () => undefined,
    build(ctx, newBuilder) {
      const b = newBuilder();
      b.copy(0, b.region(SEND, 0, ctx.size), b.region(RECV, 0, ctx.size));
      for (let r = 0; r < ctx.ranks; r++) {
        for (let k = 1; k < ctx.ranks; k++) b.on(r).send((r + k) % ctx.ranks, b.region(SEND, ((r + k) % ctx.ranks) * ctx.size, ctx.size));
        for (let k = 1; k < ctx.ranks; k++) b.on(r).recv((r - k + ctx.ranks) % ctx.ranks, b.region(RECV, ((r - k + ctx.ranks) % ctx.ranks) * ctx.size, ctx.size));
      }
      return b.finish();
    },
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = 0;
  });

  async function compare(args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
    let stdout = '';
    let stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
    const program = new Command().exitOverride();
    registerCompare(program);
    await program.parseAsync(['compare', ...args], { from: 'user' });
    const exitCode = Number(process.exitCode ?? 0);
    return { stdout, stderr, exitCode };
  }

  it('under rendezvous the sends-first algorithm is listed as failed with its reason; the table holds the others', async () => {
    const r = await compare(['--topology', 'torus:4x4', '--collective', 'alltoall', '--size', '4KiB', '--protocol', 'mpi', '--eager-threshold', '0']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/\nfailed sends-first-test: schedule: got "deadlock at rank \d+ stream 0 op \d+"; accepted: a schedule whose every operation completes \(rendezvous send/);
    for (const name of ['pairwise', 'ring', 'bruck', 'hop-grouped']) expect(r.stdout).toMatch(new RegExp(`\\n${name} +\\d`));
    expect(r.stderr).toMatch(/^meshwork: \d of \d+ algorithms could not run \([a-z, -]*sends-first-test[a-z, -]*\); the others are shown\n$/);
    const json = JSON.parse((await compare(['--topology', 'torus:4x4', '--collective', 'alltoall', '--size', '4KiB', '--protocol', 'mpi', '--eager-threshold', '0', '--json'])).stdout);
    expect(json.failed.map((f: { algorithm: string }) => f.algorithm)).toContain('sends-first-test');
    expect(json.runs.length).toBeGreaterThanOrEqual(6);
  });

  it('with eager sends it runs and nothing fails: exit 0', async () => {
    const r = await compare(['--topology', 'torus:4x4', '--collective', 'alltoall', '--size', '4KiB']);
    expect(r.stdout).toMatch(/\nsends-first-test +\d/);
    expect(r.stdout).not.toContain('failed ');
    expect(r.exitCode).toBe(0);
  });
});

describe('compare orders tied algorithms the same in every locale (built CLI)', () => {
  it('two identical schedule files tie: aalborg.json before zurich.json under en_US and da_DK (where "aa" sorts after "z")', () => {
    const made = join(dir, 'tie.json');
    expect(runCli(['collective', 'verify', '--topology', 'torus:4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '16', '--out', made]).code).toBe(0);
    const text = readFileSync(made, 'utf8');
    writeFileSync(join(dir, 'aalborg.json'), text);
    writeFileSync(join(dir, 'zurich.json'), text);
    const outputs = ['en_US.UTF-8', 'da_DK.UTF-8'].map((lang) => {
      const r = runCli(['compare', '--topology', 'torus:4', '--collective', 'alltoall', '--size', '16', '--schedule', join(dir, 'zurich.json'), '--schedule', join(dir, 'aalborg.json'), '--json'], { env: { LANG: lang, LC_ALL: lang } });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    });
    expect(outputs[1]).toBe(outputs[0]);
    const files = [...outputs[0].matchAll(/"file": "[^"]*\/(\w+)\.json"/g)].map((m) => m[1]);
    expect(files.indexOf('aalborg')).toBeLessThan(files.indexOf('zurich'));
  });
});
