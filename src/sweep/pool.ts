/**
 * The local pool: piscina worker threads, one per core by default, one point at a time each. The
 * main thread owns the store; workers only compute.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { SweepKind } from './kinds.js';
import type { PointOutcome } from './execute.js';
import type { Params } from './file.js';

export function defaultJobs(): number {
  return availableParallelism();
}

export class PointPool {
  private readonly pool: Piscina;

  constructor(jobs: number) {
    this.pool = new Piscina({
      filename: new URL('./pool-worker.js', import.meta.url).href,
      minThreads: jobs,
      maxThreads: jobs,
      // Points are CPU-bound: one per thread, none waiting inside a thread.
      concurrentTasksPerWorker: 1,
      idleTimeout: 60_000,
    });
  }

  run(kind: SweepKind, params: Params): Promise<PointOutcome> {
    return this.pool.run({ kind, params }) as Promise<PointOutcome>;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
