/** A pool thread: runs one sweep point through the adapter, or one seed of `reproduce --jobs`. */
import { getHeapStatistics } from 'node:v8';
import { threadId, workerData, type MessagePort } from 'node:worker_threads';
import type { SeedId, SeedReproduction } from '../analysis/reproduce/index.js';
import type { SweepKind } from './kinds.js';
import { executePoint, type PointOutcome } from './execute.js';
import type { Params } from './file.js';
import { loadCommand } from './commands.js';
import { epochMs, gcMillis, observeGc, threadCpuSeconds, type TaskTrace } from './trace.js';

const options = (workerData ?? {}) as { preload?: SweepKind; trace?: boolean };
if (options.trace) observeGc();
// Start-up (issue 11): a thread loads the command of the sweep's kind while it starts, before its
// first point, and the reproductions only when it is given a seed. Not a top-level await: piscina
// first require()s this file, and on Node 20.19+ a require of a module graph with top-level await
// throws, so piscina import()s it instead; a second require racing that import aborts the whole
// process ("v8::Module::IsGraphAsync must be used on an instantiated module").
const preloaded: Promise<unknown> = options.preload ? loadCommand(options.preload) : Promise.resolve();
// A failed preload fails the thread's points (they await it), not the thread before its first one.
preloaded.catch(() => undefined);

export type PoolTask =
  | { readonly type: 'ready' }
  | { readonly type: 'point'; readonly kind: SweepKind; readonly params: Params }
  | { readonly type: 'seed'; readonly id: SeedId; readonly quick: boolean; readonly port: MessagePort };

export interface SeedProgressMessage {
  readonly fraction: number;
  readonly label: string;
}

/** A point's outcome, with its thread's timing when the pool traces (null otherwise). */
export interface PointReply {
  readonly outcome: PointOutcome;
  readonly trace: TaskTrace | null;
}

async function runPoint(kind: SweepKind, params: Params): Promise<PointReply> {
  if (!options.trace) return { outcome: await executePoint(kind, params), trace: null };
  const startedAt = epochMs();
  const cpuAtStart = threadCpuSeconds();
  const outcome = await executePoint(kind, params);
  const trace: TaskTrace = { thread: threadId, startedAt, finishedAt: epochMs(), cpuAtStart, cpuAtEnd: threadCpuSeconds(), gcMs: gcMillis(), heapUsed: getHeapStatistics().used_heap_size };
  return { outcome, trace };
}

// A thread given several tasks at once runs them one after another: executePoint captures the
// thread's stdout, so two points must never interleave.
let running: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const next = running.then(task, task);
  running = next.catch(() => undefined);
  return next;
}

export default function runTask(task: PoolTask): Promise<PointReply | SeedReproduction | undefined> {
  return oneAtATime(() => runOne(task));
}

async function runOne(task: PoolTask): Promise<PointReply | SeedReproduction | undefined> {
  // The pool closing before it ran anything waits for this: the thread has loaded (WorkerPool.close).
  if (task.type === 'ready') return preloaded.then(() => undefined, () => undefined);
  if (task.type === 'point') {
    await preloaded;
    return runPoint(task.kind, task.params);
  }
  const port = task.port;
  const progress = (fraction: number, label: string): void => port.postMessage({ fraction, label } satisfies SeedProgressMessage);
  return import('../analysis/reproduce/index.js')
    .then(({ getSeedModule }) => getSeedModule(task.id).run({ quick: task.quick, progress }))
    .finally(() => port.close());
}
