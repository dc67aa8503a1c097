/**
 * BullMQ's sandboxed processor (a child process of `meshwork sweep worker`): runs one point through
 * the adapter. A point that throws is retried by BullMQ; bad input fails at once.
 */
import { hostname } from 'node:os';
import { UnrecoverableError, type SandboxedJob } from 'bullmq';
import { executePoint } from './execute.js';
import type { JobResult, PointJob } from './queue.js';

export default async function processPoint(job: SandboxedJob<PointJob, JobResult>): Promise<JobResult> {
  const outcome = await executePoint(job.data.kind, job.data.params);
  if (outcome.status === 'failed') {
    if (outcome.permanent) throw new UnrecoverableError(outcome.error ?? 'failed');
    throw new Error(outcome.error ?? 'failed');
  }
  // The worker is the parent process: the one a user starts, and kills.
  return { ...outcome, worker: `${hostname()}:${process.ppid}` };
}
