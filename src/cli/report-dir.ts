/**
 * Node adapter: writes a report directory whole or not at all. Files go into a temporary sibling
 * directory which is renamed into place at the end, so an interrupted or failed run never leaves a
 * half-written report, and an existing report is only replaced once the new one is complete.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { RESULTS_FORMAT } from '../analysis/reproduce/index.js';
import { InputError } from '../util/errors.js';
import { forgetOnExit, forgetRelease, pidAlive, releaseOnExit, removeDeadEntries, removeOnExit } from './cleanup.js';
import { checkParent } from './outputs.js';

export interface ReportDir {
  /** Absolute path of the final directory. */
  readonly path: string;
  /** Temporary sibling being filled. */
  readonly tmp: string;
  /** Releases the lock on `path`. */
  readonly unlock: () => void;
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
 * Checks `out` before any work, takes the lock on it and creates the temporary sibling.
 * - missing or empty: fine (only the last level is created, under an existing parent);
 * - holds a Meshwork report: replaced only if `replace` (the user's --force, or demo's own directory);
 * - anything else (a file, a directory with other content): refused, never deleted;
 * - a symlink to a directory: the report goes into the directory it names;
 * - another live meshwork run writing to it: refused (two runs would each replace the other's report).
 */
export function openReportDir(out: string, opts: { replace: boolean; field?: string }): ReportDir {
  const field = opts.field ?? 'out';
  if (out.trim() === '') throw new InputError(field, out, 'a directory path');
  // `-` means standard output for a file; a report is a directory of files (issue 28 item 8).
  if (out === '-') throw new InputError(field, out, 'a directory path (a report is several files: - means standard output only for a single file)');
  const given = resolve(out);
  const path = existsSync(given) ? realpathSync(given) : given;
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
  // Bounded checks on the parent (refuses /proc and /sys; only `path` itself is ever created).
  const parent = dirname(path);
  checkParent(field, out, path);
  sweepStaleTemps(parent, basename(path));
  const lock = takeLock(path, field, out);
  const tmp = join(parent, `.${basename(path)}.tmp-${process.pid}`);
  removeOnExit(tmp);
  try {
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp);
  } catch (err) {
    lock();
    forgetOnExit(tmp);
    throw new InputError(field, out, `a writable directory (${(err as Error).message.split('\n')[0]})`);
  }
  return { path, tmp, unlock: lock };
}

/** Removes `.NAME.tmp-PID` (and `-old`) siblings left by runs whose process is gone (a kill -9, a crash). */
function sweepStaleTemps(parent: string, name: string): void {
  const pattern = new RegExp(`^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.tmp-(\\d+)(-old)?$`);
  removeDeadEntries(parent, (entry) => {
    const m = pattern.exec(entry);
    return m ? Number(m[1]) : undefined;
  });
}

/**
 * A lock file `.NAME.lock` next to the report directory (the directory itself is replaced by a
 * rename, so it cannot hold the lock), created exclusively and holding the owner's PID. A lock whose
 * process is gone is taken over. Returns the release function.
 */
function takeLock(path: string, field: string, out: string): () => void {
  const lockPath = join(dirname(path), `.${basename(path)}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
      let held = true;
      const release = (): void => {
        if (!held) return;
        held = false;
        forgetRelease(release);
        rmSync(lockPath, { force: true });
      };
      releaseOnExit(release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new InputError(field, out, `a directory in a writable parent (${(err as Error).message.split('\n')[0]})`);
      }
      let owner = NaN;
      try {
        owner = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      } catch {
        // vanished between the two calls: try again
      }
      if (pidAlive(owner)) throw new InputError(field, out, `a directory no other meshwork run is writing (process ${owner} is writing a report there; wait for it or choose another --out)`);
      rmSync(lockPath, { force: true });
    }
  }
  throw new InputError(field, out, 'a directory no other meshwork run is writing (its lock could not be taken)');
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
    forgetOnExit(dir.tmp);
    dir.unlock();
  } catch (err) {
    abandonReportDir(dir);
    throw new InputError(field, dir.path, `a writable directory (${(err as Error).message.split('\n')[0]})`);
  }
}

export function abandonReportDir(dir: ReportDir): void {
  rmSync(dir.tmp, { recursive: true, force: true });
  forgetOnExit(dir.tmp);
  dir.unlock();
}
