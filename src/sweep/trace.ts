/**
 * Where a parallel sweep loses time (issue 11): each pool task reports when its thread started and
 * finished it, the thread's own CPU and GC time so far, and the main thread records when it handed
 * the task out. `summarisePool` turns that into start-up, busy, idle-between-points and tail time per
 * thread; bench/sweep.bench.mjs prints it. Thread CPU comes from /proc/thread-self (Linux); elsewhere
 * it is null and the wall figures remain.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

export interface TaskTrace {
  readonly thread: number;
  /** Epoch milliseconds (performance.timeOrigin + now(): comparable across threads). */
  readonly startedAt: number;
  readonly finishedAt: number;
  /** This thread's CPU seconds since it started, at the task's start and end (null off Linux). */
  readonly cpuAtStart: number | null;
  readonly cpuAtEnd: number | null;
  /** This thread's garbage-collection pauses so far, milliseconds. */
  readonly gcMs: number;
  /** This isolate's V8 heap in use after the task, bytes. */
  readonly heapUsed: number;
}

/** Wall-clock milliseconds since the epoch, the same clock in every thread. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

const TICKS_PER_SECOND = 100; // Linux's USER_HZ, fixed at 100 on every architecture

/** CPU seconds (user + system) of the calling thread, or null where /proc/thread-self is missing. */
export function threadCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

let gcMs = 0;
let observing = false;

/** Starts summing this thread's GC pauses (once per thread). */
export function observeGc(): void {
  if (observing) return;
  observing = true;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });
}

export const gcMillis = (): number => gcMs;

export interface ThreadSummary {
  readonly thread: number;
  readonly points: number;
  /** From the pool's creation to this thread's first task, seconds (module loading). */
  readonly startupS: number;
  /** This thread's CPU before its first task: isolate and module start-up. */
  readonly startupCpuS: number | null;
  readonly busyS: number;
  /** Time between one task's end and the next one's start on this thread (dispatch latency). */
  readonly gapS: number;
  /** From this thread's last task to the end of the sweep: the other thread still working. */
  readonly tailS: number;
  readonly cpuS: number | null;
  readonly gcS: number;
  readonly heapMB: number;
}

export function summarisePool(traces: readonly TaskTrace[], createdAt: number, endedAt: number): ThreadSummary[] {
  const byThread = new Map<number, TaskTrace[]>();
  for (const t of traces) byThread.set(t.thread, [...(byThread.get(t.thread) ?? []), t]);
  return [...byThread.entries()]
    .sort(([a], [b]) => a - b)
    .map(([thread, tasks]) => {
      tasks.sort((a, b) => a.startedAt - b.startedAt);
      const first = tasks[0];
      const last = tasks[tasks.length - 1];
      let busy = 0;
      let gap = 0;
      tasks.forEach((t, i) => {
        busy += t.finishedAt - t.startedAt;
        if (i > 0) gap += t.startedAt - tasks[i - 1].finishedAt;
      });
      return {
        thread,
        points: tasks.length,
        startupS: (first.startedAt - createdAt) / 1000,
        startupCpuS: first.cpuAtStart,
        busyS: busy / 1000,
        gapS: gap / 1000,
        tailS: (endedAt - last.finishedAt) / 1000,
        cpuS: last.cpuAtEnd,
        gcS: last.gcMs / 1000,
        heapMB: last.heapUsed / 2 ** 20,
      };
    });
}
