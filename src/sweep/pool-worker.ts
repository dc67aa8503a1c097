/** A pool thread: runs one point at a time through the adapter. */
import type { SweepKind } from './kinds.js';
import { executePoint, type PointOutcome } from './execute.js';
import type { Params } from './file.js';

export default function runPoint(task: { kind: SweepKind; params: Params }): Promise<PointOutcome> {
  return executePoint(task.kind, task.params);
}
