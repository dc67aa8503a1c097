/** Runs a sweep on this machine: the points not yet stored, on the pool, into the store. */
import { hostname } from 'node:os';
import type { Sweep } from './file.js';
import { WorkerPool } from './pool.js';
import type { StoredOutcome, SweepStore } from './store.js';
import { pendingPoints } from './order.js';
import { BatchWriter } from './writer.js';

export interface SweepProgress {
  readonly done: number;
  readonly total: number;
}

export interface LocalRunOptions {
  readonly jobs: number;
  readonly onOutcome?: (outcome: StoredOutcome, progress: SweepProgress) => void;
  /** Stops handing out points; the ones running finish and are stored. */
  readonly signal?: AbortSignal;
  /**
   * A pool started before the store was opened, so its threads load while DuckDB opens (the caller
   * made it with this sweep's kind); closed here like one made here.
   */
  readonly pool?: WorkerPool;
}

export interface RunSummary {
  readonly total: number;
  readonly alreadyStored: number;
  readonly ran: number;
  readonly failed: number;
  readonly interrupted: boolean;
}

export async function runSweepLocal(store: SweepStore, sweep: Sweep, options: LocalRunOptions): Promise<RunSummary> {
  await store.prepare(sweep.kind, sweep.paramNames);
  const todo = pendingPoints(sweep.points, await store.doneKeys());
  const alreadyStored = sweep.points.length - todo.length;
  const summary = { total: sweep.points.length, alreadyStored, ran: 0, failed: 0, interrupted: false };
  if (todo.length === 0) {
    await options.pool?.close();
    return summary;
  }
  const pool = options.pool ?? new WorkerPool(options.jobs, { preload: sweep.kind, tasksPerThread: 2 });
  const writer = new BatchWriter(store);
  const worker = `${hostname()}:${process.pid}`;
  let next = 0;
  // Two points per thread (one running, one waiting in the thread) keep every core busy without a
  // promise per point up front.
  const feed = async (): Promise<void> => {
    while (next < todo.length && !options.signal?.aborted) {
      const point = todo[next++];
      const outcome = await pool.run(point.kind, point.params);
      const stored: StoredOutcome = { ...outcome, key: point.key, kind: point.kind, sweep: sweep.name, params: point.params, worker };
      writer.add(stored);
      summary.ran++;
      if (outcome.status === 'failed') summary.failed++;
      options.onOutcome?.(stored, { done: alreadyStored + summary.ran, total: summary.total });
    }
  };
  try {
    await Promise.all(Array.from({ length: options.jobs * 2 }, feed));
  } finally {
    await writer.flush();
    await pool.close();
  }
  summary.interrupted = summary.ran < todo.length;
  return summary;
}
