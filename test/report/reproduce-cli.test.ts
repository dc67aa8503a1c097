import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'meshwork-repro-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('meshwork reproduce: bad input', () => {
  it('refuses an unknown seed id with one line and writes nothing', () => {
    const out = join(dir, 'unknown');
    expect(expectOneLineError(runCli(['reproduce', '007', '--out', out]))).toMatch(/seed: got "007"; accepted: one of 000, 001, 002, 003, 004 or all/);
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
