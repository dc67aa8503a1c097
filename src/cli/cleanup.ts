/**
 * Temporary files and directories a command is filling, removed if the process exits before it
 * renames them into place (an error, process.exit). Signals are left to their default action: a
 * JavaScript SIGINT handler only runs when the event loop is free, and a reproduction computes for
 * minutes without yielding, so a handler would make Ctrl-C wait for the whole run. What a signal
 * leaves behind (.NAME.tmp-PID, .NAME.lock) names a dead PID and is swept by the next run
 * (report-dir.ts), so nothing accumulates (issue 16, item 9).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const pending = new Set<string>();
const releases = new Set<() => void>();
let installed = false;

function cleanUp(): void {
  for (const path of pending) rmSync(path, { recursive: true, force: true });
  pending.clear();
  for (const release of releases) release();
  releases.clear();
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', cleanUp);
}

/** Removes `path` (recursively) if the process ends before `forgetOnExit(path)`. */
export function removeOnExit(path: string): void {
  install();
  pending.add(path);
}

export function forgetOnExit(path: string): void {
  pending.delete(path);
}

/** Runs `release` (e.g. dropping a lock) when the process ends, unless `forgetRelease` came first. */
export function releaseOnExit(release: () => void): void {
  install();
  releases.add(release);
}

export function forgetRelease(release: () => void): void {
  releases.delete(release);
}

/** True while process `pid` exists (EPERM: it exists, owned by another user). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the entries of `dir` that `ownerPid` says a process wrote, when that process is gone. */
export function removeDeadEntries(dir: string, ownerPid: (entry: string) => number | undefined): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = ownerPid(entry);
    if (pid !== undefined && pid !== process.pid && !pidAlive(pid)) rmSync(join(dir, entry), { recursive: true, force: true });
  }
}
