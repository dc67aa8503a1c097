/**
 * How large a collective schedule the engines attempt: checked before the schedule is built.
 * Timed runs themselves go through `simulate` (sim/simulate.ts).
 */
import { buildSchedule, estimateSchedule, type BuildRequest, type ScheduleEstimate } from '../../collectives/registry.js';
import type { Schedule } from '../../collectives/schedule.js';

import { LimitError } from '../../util/errors.js';

/**
 * Most schedule ops the flow level attempts. Each op costs about 120 bytes end to end (schedule
 * columns, FlowProgram columns, engine state per op; measured: 36.8 M ops of hop-grouped on
 * torus:32x32x32 peak at 4.5 GiB), so 2^28 ops is about 30 GiB. A direct alltoall lists a send
 * and a receive per block: the limit is reached at 11,586 ranks (the former 2^27-block limit),
 * while an axis-phase alltoall on 32×32×32 (37 M ops) runs. Checked before the schedule is built.
 */
export const MAX_FLOW_OPS = 2 ** 28;

/**
 * The size of the schedule a request would build: the algorithm's own estimate, else for an
 * alltoall that declares none one send and one receive per block (what direct alltoalls list);
 * undefined for other collectives without an estimate.
 */
export function flowScheduleEstimate(req: BuildRequest): ScheduleEstimate | undefined {
  const declared = estimateSchedule(req);
  if (declared) return declared;
  const ranks = req.topology.numEndpoints;
  const blocks = ranks * (ranks - 1);
  return req.collective === 'alltoall' ? { ops: 2 * blocks, messages: blocks } : undefined;
}

/** Throws LimitError, before anything is allocated, for a schedule too large for the flow level. */
export function checkFlowCollectiveSize(req: BuildRequest): void {
  const est = flowScheduleEstimate(req);
  if (est && est.ops > MAX_FLOW_OPS) {
    throw new LimitError(
      'algorithm',
      `${est.ops} schedule ops (${req.algorithm}, ${req.topology.numEndpoints} ranks)`,
      `${MAX_FLOW_OPS} schedule ops (2^28, about 30 GiB) at flow level${smallerAlternative(req)}`,
    );
  }
}

/** What to run instead of a schedule too large: an algorithm with fewer ops, or fewer ranks. */
function smallerAlternative(req: BuildRequest): string {
  if (/^(hop-grouped|dimension-ordered)\b/.test(req.algorithm)) return '; use fewer ranks';
  if (req.collective === 'alltoall') return '; an axis-phase algorithm such as hop-grouped needs far fewer on a torus';
  if (req.collective === 'allreduce' || req.collective === 'reduce') return '; recursive-doubling or rabenseifner need n log n ops';
  return '; a logarithmic algorithm (recursive-doubling, bruck, binomial) needs n log n ops';
}

/** checkFlowCollectiveSize, then buildSchedule: the schedule behind a timed run (flow or packet). */
export function buildFlowSchedule(req: BuildRequest): Schedule {
  checkFlowCollectiveSize(req);
  return buildSchedule(req);
}
