/** Temporary directories of benchmarks, removed when the process exits (normally or by an error), so benches leave no meshwork-* directories behind. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh `meshwork-PREFIX-XXXXXX` directory in the system's temporary directory. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `meshwork-${prefix}-`));
  made.push(dir);
  return dir;
}
