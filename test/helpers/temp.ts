/**
 * Temporary directories of tests, removed when the test file is done: the hook is registered when a
 * test file first imports this module (vitest evaluates it afresh for every file), so a directory
 * made anywhere (at the top, in a describe, a beforeAll or a test) goes. Tests then leave no
 * meshwork-* directories in the system's temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh `meshwork-PREFIX-XXXXXX` directory in the system's temporary directory, removed after the file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `meshwork-${prefix}-`));
  made.push(dir);
  return dir;
}
