/**
 * Issue 28 (a new user and a hostile tester, round 2): each finding through the built CLI.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
