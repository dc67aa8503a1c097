/**
 * The local pool: piscina worker threads, one per core by default, one task at a time each. The
 * main thread owns the store and the report; workers only compute. Two kinds of task share it: a
 * sweep point, and one seed of `meshwork reproduce --jobs`.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { SeedId, SeedReproduction } from '../analysis/reproduce/index.js';
import type { SweepKind } from './kinds.js';
import type { PointOutcome } from './execute.js';
import type { Params } from './file.js';
import type { PointReply, PoolTask, SeedProgressMessage } from './pool-worker.js';
import { epochMs, type TaskTrace } from './trace.js';

export function defaultJobs(): number {
  return availableParallelism();
}

export interface PoolOptions {
  /** The sweep kind every thread loads as it starts (sweeps run one kind). */
  readonly preload?: SweepKind;
  /** Keep every point's thread timing in `traces` (the bench; off by default: a trace per point). */
  readonly trace?: boolean;
  /**
   * Tasks given to a thread at once; it runs them one after another. 2 for sweep points: the next
   * point already waits in the thread when one ends, instead of waiting for the main thread to be
   * scheduled to hand it out (40–55 ms per point on a loaded machine, bench/sweep.bench.mjs). 1 for
   * reproduce's seeds, whose lengths differ too much to queue one behind another.
   */
  readonly tasksPerThread?: number;
}

export class WorkerPool {
  private readonly pool: Piscina;
  private readonly jobs: number;
  private used = false;
  readonly createdAt = epochMs();
  readonly traces: TaskTrace[] = [];

  constructor(jobs: number, options: PoolOptions = {}) {
    this.jobs = jobs;
    this.pool = new Piscina({
      filename: new URL('./pool-worker.js', import.meta.url).href,
      workerData: { preload: options.preload, trace: options.trace === true },
      minThreads: jobs,
      maxThreads: jobs,
      // Tasks are CPU-bound: the thread runs them one at a time (pool-worker.ts), the rest wait there.
      concurrentTasksPerWorker: options.tasksPerThread ?? 1,
      idleTimeout: 60_000,
    });
  }

  async run(kind: SweepKind, params: Params): Promise<PointOutcome> {
    this.used = true;
    const task: PoolTask = { type: 'point', kind, params };
    const reply = (await this.pool.run(task)) as PointReply;
    if (reply.trace) this.traces.push(reply.trace);
    return reply.outcome;
  }

  /** One seed's reproduction on a pool thread; its progress comes back over a message port. */
  async runSeed(id: SeedId, quick: boolean, progress: (fraction: number, label: string) => void): Promise<SeedReproduction> {
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (m: SeedProgressMessage) => progress(m.fraction, m.label));
    this.used = true;
    const task: PoolTask = { type: 'seed', id, quick, port: port2 };
    try {
      // piscina types its transfer list from @types/node's postMessage overloads, which no longer infer to an array.
      const transferList = [port2] as unknown as NonNullable<Parameters<Piscina['run']>[1]>['transferList'];
      return (await this.pool.run(task, { transferList })) as SeedReproduction;
    } finally {
      port1.close();
    }
  }

  async close(): Promise<void> {
    // A pool closed before its first task (sweep run refusing its store) lets every thread finish
    // loading first: a thread terminated while piscina loads its module aborts the whole process
    // ("v8::Module::IsGraphAsync must be used on an instantiated module"). One task per thread: the
    // pool hands each to the least busy thread.
    if (!this.used) await Promise.all(Array.from({ length: this.jobs }, () => this.pool.run({ type: 'ready' } satisfies PoolTask).catch(() => undefined)));
    await this.pool.destroy();
  }
}
