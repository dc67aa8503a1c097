/**
 * Time a named collective algorithm at flow level: build its schedule (collectives registry),
 * lower it, run it, and record what ran. The library entry behind `meshwork run` and `compare`.
 */
import type { Topology } from '../../topology/graph.js';
import { buildSchedule } from '../../collectives/registry.js';
import type { Schedule } from '../../collectives/schedule.js';
import type { CollectiveKind } from '../../collectives/types.js';
import { sizeMeaning } from '../../collectives/types.js';
import { scheduleDemands } from '../../analysis/bounds/demand.js';
import type { DefaultRoutingOptions } from '../../routing/general.js';
import type { RoutingFunction } from '../../routing/types.js';
import type { RunResult } from '../result.js';
import type { FlowEngineOptions, FlowRunOutput } from './engine.js';
import { lowerSchedule } from './from-schedule.js';
import type { FlowProgram } from './program.js';
import { runFlow } from './run.js';
import { LimitError } from '../../util/errors.js';

/**
 * Most alltoall blocks (ranks × (ranks − 1)) the flow level attempts. Every direct alltoall
 * schedule lists one destination entry per block and the engine runs one flow per block; at 2^27
 * (about 11,600 ranks) the schedule's destination list reaches V8's largest array, and a 32×32×32
 * torus (2^30 blocks) would need tens of GiB and hours. Checked before the schedule is built.
 */
export const MAX_ALLTOALL_BLOCKS = 2 ** 27;

/** Throws LimitError for a collective too large for the flow level (call before buildSchedule). */
export function checkFlowCollectiveSize(collective: CollectiveKind, topology: Topology): void {
  const ranks = topology.numEndpoints;
  const blocks = ranks * (ranks - 1);
  if (collective === 'alltoall' && blocks > MAX_ALLTOALL_BLOCKS) {
    const maxRanks = Math.floor((1 + Math.sqrt(1 + 4 * MAX_ALLTOALL_BLOCKS)) / 2);
    throw new LimitError('topology', `${topology.spec}: alltoall over ${ranks} ranks (${blocks} blocks)`, `${MAX_ALLTOALL_BLOCKS} alltoall blocks (2^27, ${maxRanks} ranks) at flow level`);
  }
}

export interface CollectiveRunRequest {
  readonly topology: Topology;
  readonly collective: CollectiveKind;
  /** Algorithm spec, e.g. "hop-grouped:dir=shortest". */
  readonly algorithm: string;
  readonly size: number;
  readonly root?: number;
  readonly routing?: RoutingFunction;
  readonly routingOptions?: DefaultRoutingOptions;
  readonly model?: FlowEngineOptions;
}

export function workloadOf(schedule: Schedule): Record<string, unknown> {
  const part = schedule.parts[0];
  return {
    collective: schedule.collective,
    algorithm: schedule.algorithm,
    algorithm_spec: schedule.algorithmSpec,
    ranks: schedule.numRanks,
    size_bytes: part.size,
    size_meaning: sizeMeaning(part.collective),
    root: part.root,
    streams: schedule.streams,
    parts: schedule.parts.length,
  };
}

/** Runs an already built schedule. */
export function runScheduleFlow(
  topology: Topology,
  schedule: Schedule,
  opts: { routing?: RoutingFunction; routingOptions?: DefaultRoutingOptions; model?: FlowEngineOptions } = {},
): RunResult & { readonly raw: FlowRunOutput; readonly program: FlowProgram } {
  const program = lowerSchedule(schedule);
  const result = runFlow({ topology, program, routing: opts.routing, routingOptions: opts.routingOptions, model: opts.model, workload: workloadOf(schedule), demands: scheduleDemands(schedule) });
  Object.defineProperty(result, 'program', { value: program, enumerable: false });
  return result as RunResult & { raw: FlowRunOutput; program: FlowProgram };
}

export function runCollectiveFlow(req: CollectiveRunRequest): RunResult & { readonly raw: FlowRunOutput; readonly program: FlowProgram } {
  checkFlowCollectiveSize(req.collective, req.topology);
  const schedule = buildSchedule({ collective: req.collective, algorithm: req.algorithm, topology: req.topology, size: req.size, root: req.root });
  return runScheduleFlow(req.topology, schedule, req);
}
