/** Node adapters for the CLI: files are written whole or not at all. */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { InputError } from '../util/errors.js';

/** Writes to a temporary sibling, then renames, so a failure never leaves a half-written file. */
export function writeFileAtomic(path: string, data: string | Uint8Array, field = 'out'): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new InputError(field, path, `a writable path (${(err as Error).message})`);
  }
  const tmp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new InputError(field, path, `a writable path (${(err as Error).message})`);
  }
}

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
