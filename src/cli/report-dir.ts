/**
 * Node adapter: writes a report directory whole or not at all. Files go into a temporary sibling
 * directory which is renamed into place at the end, so an interrupted or failed run never leaves a
 * half-written report, and an existing report is only replaced once the new one is complete.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { RESULTS_FORMAT } from '../analysis/reproduce/index.js';
import { InputError } from '../util/errors.js';

export interface ReportDir {
  /** Absolute path of the final directory. */
  readonly path: string;
  /** Temporary sibling being filled. */
  readonly tmp: string;
}

/** A directory holds a Meshwork report if its results.json says so. */
export function holdsMeshworkReport(dir: string): boolean {
  try {
    const json = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { format?: unknown };
    return json.format === RESULTS_FORMAT;
  } catch {
    return false;
  }
}

/**
 * Checks `out` before any work is done and creates the temporary sibling.
 * - missing or empty: fine;
 * - holds a Meshwork report: replaced only if `replace` (the user's --force, or demo's own directory);
 * - anything else (a file, a directory with other content): refused, never deleted.
 */
export function openReportDir(out: string, opts: { replace: boolean; field?: string }): ReportDir {
  const field = opts.field ?? 'out';
  const path = resolve(out);
  if (existsSync(path)) {
    let entries: string[];
    try {
      if (!statSync(path).isDirectory()) throw new Error('not a directory');
      entries = readdirSync(path);
    } catch {
      throw new InputError(field, out, 'a directory that does not exist yet, is empty, or holds a Meshwork report');
    }
    if (entries.length > 0) {
      if (!holdsMeshworkReport(path)) {
        throw new InputError(field, out, 'a directory that does not exist yet, is empty, or holds a Meshwork report (this one holds other files, which Meshwork never deletes)');
      }
      if (!opts.replace) throw new InputError(field, out, 'a directory without a report; it already holds one, pass --force to replace it');
    }
  }
  const tmp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp);
  } catch (err) {
    throw new InputError(field, out, `a writable directory (${(err as Error).message.split('\n')[0]})`);
  }
  return { path, tmp };
}

/** Writes the files into the temporary directory and renames it into place. */
export function commitReportDir(dir: ReportDir, files: ReadonlyArray<readonly [string, string]>, field = 'out'): void {
  const old = `${dir.tmp}-old`;
  try {
    for (const [name, content] of files) {
      const file = join(dir.tmp, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
    if (existsSync(dir.path)) {
      renameSync(dir.path, old);
      try {
        renameSync(dir.tmp, dir.path);
      } catch (err) {
        renameSync(old, dir.path);
        throw err;
      }
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(dir.tmp, dir.path);
    }
  } catch (err) {
    abandonReportDir(dir);
    throw new InputError(field, dir.path, `a writable directory (${(err as Error).message.split('\n')[0]})`);
  }
}

export function abandonReportDir(dir: ReportDir): void {
  rmSync(dir.tmp, { recursive: true, force: true });
}
