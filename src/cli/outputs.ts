/**
 * Output paths, checked before any work and written all together at the end (issue 16, items 2, 4,
 * 7, 15). What is at a path decides how it is written:
 * - a regular file or nothing: a temporary sibling renamed over it, so a failure never leaves half a
 *   file (the sibling lives next to the symlink's target when the path is a symlink, so the link
 *   itself survives and the file it points at is replaced);
 * - a character device, a FIFO, or a descriptor path (/dev/stdout, /dev/fd/N, /proc/self/fd/N):
 *   streamed, since renaming over a device would replace it with a regular file;
 * - a directory, a socket or a block device: refused.
 * - `-`: standard output (issue 28 item 8: `--out -` made a file named `-`), written
 *   after whatever the command printed before it.
 * Paths on /proc and /sys are refused with one statfs call: `mkdir -p` there never returns.
 * No directory is created for a file: a missing directory is refused, naming it.
 */
import { accessSync, closeSync, constants, lstatSync, openSync, readlinkSync, realpathSync, renameSync, rmSync, statfsSync, statSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../util/errors.js';
import { forgetOnExit, removeDeadEntries, removeOnExit } from './cleanup.js';

/** statfs magic numbers of kernel pseudo-filesystems, where files are not files (linux/magic.h). */
const PSEUDO_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, 'procfs'],
  [0x62656572, 'sysfs'],
  [0x64626720, 'debugfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x73636673, 'securityfs'],
  [0x74726163, 'tracefs'],
]);

/** Paths that name an open descriptor: writing must go through them, never replace them. */
const DESCRIPTOR_PATH = /^\/(dev\/(fd\/\d+|stdout|stderr)|proc\/(self|\d+)\/fd\/\d+)$/;

export interface PlannedOutput {
  readonly field: string;
  /** The path as the user gave it (for messages). */
  readonly given: string;
  /** Where the bytes end up: the symlink's target for a link, else the path itself. */
  readonly target: string;
  readonly kind: 'replace' | 'stream';
}

export type OutputData = string | Uint8Array | Iterable<string>;

function refuse(field: string, given: string, accepted: string): never {
  throw new InputError(field, given, accepted);
}

function statOrUndefined(path: string, follow: boolean): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'ELOOP') return undefined;
    throw err;
  }
}

/** Refuses a path whose nearest existing directory is on a pseudo-filesystem (one statfs call). */
function refusePseudoFilesystem(field: string, given: string, existingDir: string): void {
  let type: number;
  try {
    type = Number(statfsSync(existingDir).type);
  } catch {
    return;
  }
  const fs = PSEUDO_FILESYSTEMS.get(type);
  if (fs) refuse(field, given, `a path on a real filesystem (${existingDir} is on ${fs}, which holds no ordinary files)`);
}

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where a new file at `path` would go: its directory must exist, be a directory and be writable.
 * Nothing is created on the user's behalf: `--out /nonexist/x.json` creating /nonexist hid typos.
 * A report directory (report-dir.ts) is itself created, under an existing parent.
 */
export function checkParent(field: string, given: string, path: string): void {
  const parent = dirname(path);
  const parentStat = statOrUndefined(parent, true);
  if (!parentStat) {
    const grandparent = statOrUndefined(dirname(parent), true);
    if (grandparent?.isDirectory()) refusePseudoFilesystem(field, given, dirname(parent));
    refuse(field, given, `a path in an existing directory (${parent} does not exist; create it first)`);
  }
  if (!parentStat.isDirectory()) refuse(field, given, `a path whose parent is a directory (${parent} is not)`);
  refusePseudoFilesystem(field, given, parent);
  if (!isWritable(parent)) refuse(field, given, `a path in a writable directory (${parent} is not writable)`);
}

/** Follows a symlink chain to the path its last link names (which may not exist yet). */
function linkTarget(field: string, given: string, path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // A dangling link: the file will be created where the last link points.
    let p = path;
    for (let hops = 0; hops < 40; hops++) {
      const st = statOrUndefined(p, false);
      if (!st?.isSymbolicLink()) return p;
      p = resolve(dirname(p), readlinkSync(p));
    }
    return refuse(field, given, 'a path without a symlink loop');
  }
}

/** The path that means standard output wherever an output file is taken. */
export const STDOUT_PATH = '-';

/** Checks an output file path without writing anything; call it before any work. */
export function planOutput(given: string, field: string): PlannedOutput {
  if (given.trim() === '') refuse(field, given, 'a file path');
  if (given === STDOUT_PATH) return { field, given, target: STDOUT_PATH, kind: 'stream' };
  const path = resolve(given);
  if (DESCRIPTOR_PATH.test(path)) {
    if (!statOrUndefined(path, true)) refuse(field, given, 'an open descriptor');
    return { field, given, target: path, kind: 'stream' };
  }
  const own = statOrUndefined(path, false);
  const target = own?.isSymbolicLink() ? linkTarget(field, given, path) : path;
  const st = statOrUndefined(target, true);
  if (!st) {
    checkParent(field, given, target);
    return { field, given, target, kind: 'replace' };
  }
  if (st.isDirectory()) refuse(field, given, 'a file path, not a directory');
  if (st.isCharacterDevice() || st.isFIFO()) {
    if (!isWritable(target)) refuse(field, given, 'a writable device or FIFO');
    return { field, given, target: path, kind: 'stream' };
  }
  if (!st.isFile()) refuse(field, given, 'a regular file, a character device or a FIFO (not a socket or block device)');
  refusePseudoFilesystem(field, given, dirname(target));
  if (!isWritable(target) || !isWritable(dirname(target))) refuse(field, given, `a writable file in a writable directory`);
  return { field, given, target, kind: 'replace' };
}

/** Plans every output of a command at once; undefined paths are skipped. */
export function planOutputs(paths: Record<string, string | undefined>): PlannedOutput[] {
  const planned: PlannedOutput[] = [];
  for (const [field, given] of Object.entries(paths)) if (given !== undefined) planned.push(planOutput(given, field));
  const seen = new Map<string, string>();
  for (const p of planned) {
    const other = seen.get(p.target);
    if (other !== undefined && (p.kind === 'replace' || p.target === STDOUT_PATH)) refuse(p.field, p.given, `a path other than --${other}'s`);
    seen.set(p.target, p.field);
  }
  return planned;
}

/** One open descriptor for the whole write: a FIFO's reader would see end-of-file at each reopen. */
function writeData(path: string, data: OutputData, flag: string): void {
  // Standard output (a pipe, a socket, a file or a terminal: writes to it are synchronous on Linux).
  if (path === STDOUT_PATH) {
    if (typeof data === 'string' || data instanceof Uint8Array) process.stdout.write(data);
    else for (const chunk of data) process.stdout.write(chunk);
    return;
  }
  const fd = openSync(path, flag);
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) writeAll(fd, data);
    else for (const chunk of data) writeAll(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * Removes `.NAME.PID.tmp` siblings of these targets whose process is gone: Ctrl-C or kill while a
 * command wrote them (signals keep their default action, cleanup.ts). One directory read per directory.
 */
function sweepStaleTemps(targets: readonly string[]): void {
  const byDir = new Map<string, Set<string>>();
  for (const t of targets) byDir.set(dirname(t), (byDir.get(dirname(t)) ?? new Set()).add(basename(t)));
  for (const [dir, names] of byDir) {
    removeDeadEntries(dir, (entry) => {
      const m = /^\.(.+)\.(\d+)\.tmp$/.exec(entry);
      return m && names.has(m[1]) ? Number(m[2]) : undefined;
    });
  }
}

/**
 * Writes every planned output or none of the files: each file goes to a temporary sibling first, and
 * the renames happen only once all of them are written; streams (devices, FIFOs) are written last.
 */
export function writeOutputs(outputs: ReadonlyArray<readonly [PlannedOutput, OutputData]>): void {
  const temps: Array<[string, PlannedOutput]> = [];
  const fail = (p: PlannedOutput, err: unknown): never => {
    for (const [tmp] of temps) {
      rmSync(tmp, { force: true });
      forgetOnExit(tmp);
    }
    throw new InputError(p.field, p.given, `a writable path (${(err as Error).message.split('\n')[0]})`);
  };
  sweepStaleTemps(outputs.filter(([p]) => p.kind === 'replace').map(([p]) => p.target));
  for (const [p, data] of outputs) {
    if (p.kind !== 'replace') continue;
    try {
      const tmp = join(dirname(p.target), `.${basename(p.target)}.${process.pid}.tmp`);
      removeOnExit(tmp);
      temps.push([tmp, p]);
      writeData(tmp, data, 'w');
    } catch (err) {
      fail(p, err);
    }
  }
  for (const [tmp, p] of temps) {
    try {
      renameSync(tmp, p.target);
      forgetOnExit(tmp);
    } catch (err) {
      fail(p, err);
    }
  }
  for (const [p, data] of outputs) {
    if (p.kind !== 'stream') continue;
    try {
      writeData(p.target, data, 'w');
    } catch (err) {
      throw new InputError(p.field, p.given, `a writable device or FIFO (${(err as Error).message.split('\n')[0]})`);
    }
  }
}

/** One output, checked and written at once (for commands whose only work is producing it). */
export function writeOutputNow(given: string, field: string, data: OutputData): void {
  writeOutputs([[planOutput(given, field), data]]);
}
