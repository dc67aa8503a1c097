import { describe, expect, it } from 'vitest';
import { summarisePool, threadCpuSeconds, type TaskTrace } from '../../src/sweep/trace.js';

const task = (thread: number, startedAt: number, finishedAt: number, cpuAtEnd: number): TaskTrace => ({ thread, startedAt, finishedAt, cpuAtStart: 0.25, cpuAtEnd, gcMs: 40, heapUsed: 8 * 2 ** 20 });

describe('pool timing summary (bench/sweep.bench.mjs: where a parallel sweep loses time)', () => {
  it('splits each thread into start-up, busy, idle between points and tail, from the timestamps', () => {
    // Pool created at t = 1000 ms, sweep ended at 4000 ms. Thread 1: points 1500-2000 and 2100-3900
    // (idle 100 ms between them, tail 100 ms); thread 2: one point 1200-2500 (tail 1500 ms).
    const traces = [task(1, 2100, 3900, 3), task(2, 1200, 2500, 1.5), task(1, 1500, 2000, 1)];
    const [one, two] = summarisePool(traces, 1000, 4000);
    expect(one).toEqual({ thread: 1, points: 2, startupS: 0.5, startupCpuS: 0.25, busyS: 2.3, gapS: 0.1, tailS: 0.1, cpuS: 3, gcS: 0.04, heapMB: 8 });
    expect(two).toMatchObject({ thread: 2, points: 1, startupS: 0.2, busyS: 1.3, gapS: 0, tailS: 1.5 });
  });

  it("reads the calling thread's CPU, which grows with work done on this thread", () => {
    const before = threadCpuSeconds();
    if (before === null) return; // not Linux: no /proc/thread-self, the wall figures remain
    let x = 0;
    const until = performance.now() + 300;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    // 300 ms of spinning is at least 0.02 s of CPU even on a loaded machine (USER_HZ ticks of 10 ms).
    expect(threadCpuSeconds()! - before).toBeGreaterThanOrEqual(0.02);
  });
});
