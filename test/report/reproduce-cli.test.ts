import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('repro');

describe('meshwork reproduce: bad input', () => {
  it('refuses an unknown seed id with one line and writes nothing', () => {
    const out = join(dir, 'unknown');
    expect(expectOneLineError(runCli(['reproduce', '007', '--out', out]))).toMatch(/seed: got "007"; accepted: one of 000, 001, 002, 003, 004, a comma-separated list of them, or all/);
    expect(expectOneLineError(runCli(['reproduce', '001,9', '--out', out]))).toMatch(/seed: got "001,9"/);
    expect(expectOneLineError(runCli(['reproduce', '001', '--jobs', '0', '--out', out]))).toMatch(/jobs: got "0"; accepted: an integer from 1 to 256/);
    expect(readdirSync(dir)).not.toContain('unknown');
  });
  it('refuses an unwritable --out', () => {
    const blocker = join(dir, 'file');
    writeFileSync(blocker, 'x');
    expect(expectOneLineError(runCli(['reproduce', '004', '--quick', '--out', join(blocker, 'sub')]))).toMatch(/^meshwork: error: out: /);
    expect(expectOneLineError(runCli(['reproduce', '004', '--quick', '--out', blocker]))).toMatch(/^meshwork: error: out: /);
    expect(readFileSync(blocker, 'utf8')).toBe('x');
  });
  it('refuses to overwrite an existing report without --force, and replaces it with --force', () => {
    const out = join(dir, 'report');
    expect(runCli(['reproduce', '002', '--quick', '--out', out]).code).toBe(0);
    const before = readFileSync(join(out, 'results.json'), 'utf8');
    expect(expectOneLineError(runCli(['reproduce', '003', '--quick', '--out', out]))).toMatch(/--force/);
    expect(readFileSync(join(out, 'results.json'), 'utf8')).toBe(before);
    const r = runCli(['reproduce', '003', '--quick', '--out', out, '--force']);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).seeds.map((s: { id: string }) => s.id)).toEqual(['003']);
    // No temporary directories are left behind.
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });
  it('never replaces a directory holding other files, even with --force', () => {
    const out = join(dir, 'mine');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'keep me');
    expect(expectOneLineError(runCli(['reproduce', '004', '--quick', '--out', out, '--force']))).toMatch(/never deletes/);
    expect(expectOneLineError(runCli(['demo', '--out', out]))).toMatch(/never deletes/);
    expect(readdirSync(out)).toEqual(['notes.txt']);
  });
});

describe('meshwork reproduce --jobs', () => {
  it('runs a seed list on worker threads with results byte-identical to one thread, in seed order', () => {
    const one = join(dir, 'jobs1');
    const two = join(dir, 'jobs2');
    const a = runCli(['reproduce', '003,001,002', '--quick', '--jobs', '1', '--out', one]);
    const b = runCli(['reproduce', '003,001,002', '--quick', '--jobs', '2', '--out', two]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const results = readFileSync(join(two, 'results.json'), 'utf8');
    expect(JSON.parse(results).seeds.map((s: { id: string }) => s.id)).toEqual(['001', '002', '003']);
    expect(results).toBe(readFileSync(join(one, 'results.json'), 'utf8'));
    expect(readFileSync(join(two, 'report.html'), 'utf8')).toBe(readFileSync(join(one, 'report.html'), 'utf8'));
    expect(b.stdout.replace(two, one)).toBe(a.stdout);
  }, 300_000);
});
