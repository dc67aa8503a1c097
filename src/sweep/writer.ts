/**
 * Batches outcomes into store transactions: a flush every `maxRows` outcomes or `maxDelayMs`,
 * one at a time, so the pool never waits on the disk and a kill loses at most the unflushed batch
 * (those points have no row and run again).
 *
 * Why 10 s: a DuckDB commit costs 20-35 ms of CPU however few its rows (the statement and the
 * WAL's fsync run on libuv's and DuckDB's threads, beside the pool's), against about 1.5 ms per row.
 * Flushed every 200 ms, a sweep of 0.3 s points committed nearly every point alone; every 2 s, on a
 * loaded machine where points take 2 s of wall time, still 40 commits for 64 points. At 10 s a kill
 * loses at most 10 s of each thread's work, which re-runs (docs/sweeps.md).
 */
import type { SweepStore, StoredOutcome } from './store.js';

export class BatchWriter {
  private pending: StoredOutcome[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: SweepStore,
    private readonly maxRows = 64,
    private readonly maxDelayMs = 10_000,
  ) {}

  add(outcome: StoredOutcome): void {
    this.pending.push(outcome);
    if (this.pending.length >= this.maxRows) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.maxDelayMs);
  }

  /** Writes everything added so far; resolves when it is committed. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => this.store.write(batch));
    return this.flushing;
  }
}
