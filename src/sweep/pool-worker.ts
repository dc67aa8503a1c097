/** A pool thread: runs one sweep point through the adapter, or one seed of `reproduce --jobs`. */
import { workerData, type MessagePort } from 'node:worker_threads';
import type { SeedId, SeedReproduction } from '../analysis/reproduce/index.js';
import type { SweepKind } from './kinds.js';
import { executePoint, type PointOutcome } from './execute.js';
import type { Params } from './file.js';
import { loadCommand } from './commands.js';

// Start-up (issue 11): a thread loads the command of the sweep's kind while it starts, before its
// first point, and the reproductions only when it is given a seed.
const preload = (workerData as { preload?: SweepKind } | undefined)?.preload;
if (preload) await loadCommand(preload);

export type PoolTask =
  | { readonly type: 'point'; readonly kind: SweepKind; readonly params: Params }
  | { readonly type: 'seed'; readonly id: SeedId; readonly quick: boolean; readonly port: MessagePort };

export interface SeedProgressMessage {
  readonly fraction: number;
  readonly label: string;
}

export default function runTask(task: PoolTask): Promise<PointOutcome | SeedReproduction> {
  if (task.type === 'point') return executePoint(task.kind, task.params);
  const port = task.port;
  const progress = (fraction: number, label: string): void => port.postMessage({ fraction, label } satisfies SeedProgressMessage);
  return import('../analysis/reproduce/index.js')
    .then(({ getSeedModule }) => getSeedModule(task.id).run({ quick: task.quick, progress }))
    .finally(() => port.close());
}
