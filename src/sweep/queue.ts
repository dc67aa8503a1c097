/**
 * Scale-out on BullMQ (Redis). The submitter enqueues every point not yet stored, one job per point
 * with the point key as job id, and collects finished jobs into the store it owns; `sweep worker`
 * processes on any machine run the jobs in sandboxed processes (so BullMQ keeps renewing locks while
 * a point computes).
 *
 * Exactly once on top of BullMQ's at-least-once: the job id dedups enqueues, the store's key dedups
 * results (a stalled job that re-ran, a result collected twice), and a job leaves Redis only after
 * its row is committed, so a submitter killed at any moment loses nothing.
 */
import { hostname } from 'node:os';
import { Queue, Worker, type Job, type ConnectionOptions } from 'bullmq';
import { InputError } from '../util/errors.js';
import type { SweepKind } from './kinds.js';
import type { PointOutcome } from './execute.js';
import type { Params, Sweep } from './file.js';
import type { RunSummary, SweepProgress } from './local.js';
import type { StoredOutcome, SweepStore } from './store.js';
import { pendingPoints } from './order.js';

export const QUEUE_NAME = 'meshwork-sweep';

export interface PointJob {
  readonly kind: SweepKind;
  readonly params: Params;
  readonly sweep: string;
}

/** What a worker returns: the outcome and who computed it. */
export interface JobResult extends PointOutcome {
  readonly worker: string;
}

/** Retries of a point that throws (not of bad input, which fails at once), with backoff. */
export const JOB_ATTEMPTS = 3;
const BACKOFF_MS = 1000;

export function parseQueueUrl(text: string): ConnectionOptions {
  const m = /^redis:\/\/([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})(?:\/(\d+))?$/.exec(text.trim());
  const port = m ? Number(m[2]) : 0;
  if (!m || port < 1 || port > 65535) throw new InputError('queue', text, 'redis://HOST:PORT[/DB]');
  return { host: m[1].replace(/^\[|\]$/g, ''), port, db: m[3] === undefined ? 0 : Number(m[3]), maxRetriesPerRequest: null };
}

/**
 * Connects to the queue's Redis once, before `sweep run --queue` opens its store or enqueues:
 * unreachable, it is refused in one line (BullMQ would otherwise retry for ever, printing each
 * connection error with its stack). `url` is the text the user gave, for the message.
 */
export async function checkQueueReachable(connection: ConnectionOptions, url: string, timeoutMs = 10_000): Promise<void> {
  const queue = new Queue(QUEUE_NAME, { connection });
  let failure: Error | undefined;
  queue.on('error', (err: Error) => {
    failure ??= err;
  });
  try {
    const ready = queue.waitUntilReady().then(() => true);
    const deadline = Date.now() + timeoutMs;
    while (!(await Promise.race([ready, sleep(50).then(() => false)]))) {
      if (failure || Date.now() > deadline) throw new InputError('queue', url, `a reachable Redis server (${failure?.message.split('\n')[0] ?? `no answer in ${timeoutMs / 1000} s`})`);
    }
  } finally {
    // close() of a client still reconnecting can wait for ever; it has stopped it within a second.
    await Promise.race([queue.close().catch(() => undefined), sleep(1000)]);
  }
}

export interface SubmitOptions {
  readonly onOutcome?: (outcome: StoredOutcome, progress: SweepProgress) => void;
  readonly signal?: AbortSignal;
  /** How often the submitter looks for finished jobs when none were waiting. */
  readonly pollMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function storedOf(job: Job<PointJob>, outcome: PointOutcome, worker: string): StoredOutcome {
  return { ...outcome, key: job.id!, kind: job.data.kind, sweep: job.data.sweep, params: job.data.params, worker };
}

/**
 * This sweep's finished jobs. The whole completed and failed lists are read page by page: other
 * sweeps' finished jobs may sit in the same queue, and are left for their own submitters.
 */
async function finishedJobs(queue: Queue<PointJob>, wanted: ReadonlySet<string>): Promise<Array<Job<PointJob>>> {
  const found: Array<Job<PointJob>> = [];
  for (const state of ['completed', 'failed'] as const) {
    for (let start = 0; ; start += PAGE) {
      const page = await queue.getJobs([state], start, start + PAGE - 1);
      for (const job of page) if (job?.id !== undefined && wanted.has(job.id)) found.push(job);
      if (page.length < PAGE) break;
    }
  }
  return found;
}

const PAGE = 1000;

/** Enqueues the sweep's missing points and collects their results until all are stored. */
export async function submitSweep(store: SweepStore, sweep: Sweep, connection: ConnectionOptions, options: SubmitOptions = {}): Promise<RunSummary> {
  await store.prepare(sweep.kind, sweep.paramNames);
  const todo = pendingPoints(sweep.points, await store.doneKeys());
  const alreadyStored = sweep.points.length - todo.length;
  const summary = { total: sweep.points.length, alreadyStored, ran: 0, failed: 0, interrupted: false };
  if (todo.length === 0) return summary;
  const queue = new Queue<PointJob>(QUEUE_NAME, { connection });
  try {
    for (let i = 0; i < todo.length; i += 1000) {
      await queue.addBulk(
        todo.slice(i, i + 1000).map((p) => ({
          name: sweep.name,
          data: { kind: p.kind, params: p.params, sweep: sweep.name },
          opts: { jobId: p.key, attempts: JOB_ATTEMPTS, backoff: { type: 'exponential', delay: BACKOFF_MS }, removeOnComplete: false, removeOnFail: false },
        })),
      );
    }
    const remaining = new Set(todo.map((p) => p.key));
    while (remaining.size > 0 && !options.signal?.aborted) {
      const finished = await finishedJobs(queue, remaining);
      const batch: StoredOutcome[] = [];
      for (const job of finished) {
        if (job.finishedOn === undefined) continue;
        if (job.returnvalue) {
          const r = job.returnvalue as unknown as JobResult;
          batch.push(storedOf(job, r, r.worker));
        } else {
          // Failed for good: every attempt used, or bad input (no retry can help).
          batch.push(storedOf(job, { status: 'failed', result: null, figures: {}, error: job.failedReason ?? 'failed', permanent: true, elapsed_s: 0 }, 'queue'));
        }
      }
      if (batch.length === 0) {
        await sleep(options.pollMs ?? 100);
        continue;
      }
      // The row first, then the job: a kill between the two leaves a job whose result is dropped as a duplicate.
      await store.write(batch);
      for (const o of batch) {
        remaining.delete(o.key);
        summary.ran++;
        if (o.status === 'failed') summary.failed++;
        options.onOutcome?.(o, { done: alreadyStored + summary.ran, total: summary.total });
      }
      await Promise.all(finished.map((j) => j.remove().catch(() => undefined)));
    }
    summary.interrupted = remaining.size > 0;
    return summary;
  } finally {
    await queue.close();
  }
}

export interface WorkerOptions {
  readonly jobs: number;
  /** How long a job's lock lasts without renewal: a dead worker's job is taken over after about this. */
  readonly lockDurationMs?: number;
  readonly onEvent?: (event: { event: 'started' | 'finished' | 'failed'; key: string; error?: string }) => void;
}

/** A queue worker: runs points until closed (SIGINT/SIGTERM finish the running points first). */
export function startQueueWorker(connection: ConnectionOptions, options: WorkerOptions): Worker<PointJob, JobResult> {
  const lockDuration = options.lockDurationMs ?? 30_000;
  const worker = new Worker<PointJob, JobResult>(QUEUE_NAME, new URL('./queue-processor.js', import.meta.url), {
    connection,
    concurrency: options.jobs,
    lockDuration,
    stalledInterval: Math.max(500, Math.floor(lockDuration / 2)),
    // A job whose worker died is retried once more from scratch before it counts as failed.
    maxStalledCount: 2,
  });
  worker.on('active', (job) => options.onEvent?.({ event: 'started', key: job.id! }));
  worker.on('completed', (job) => options.onEvent?.({ event: 'finished', key: job.id! }));
  worker.on('failed', (job, err) => options.onEvent?.({ event: 'failed', key: job?.id ?? '', error: err.message }));
  return worker;
}

export function workerName(): string {
  return `${hostname()}:${process.pid}`;
}
