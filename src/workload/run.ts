/**
 * One workload run: a Chakra trace lowered into a Program (lower.ts), timed by either engine
 * through the shared `simulate`, and read back as a timeline (analyze.ts).
 */
import type { Topology } from '../topology/graph.js';
import { simulate, type SimulateRequest, type SimulateResult } from '../sim/simulate.js';
import type { ChakraTrace } from './chakra/trace.js';
import { lowerWorkload, type LowerOptions, type LoweredWorkload } from './lower.js';
import { analyzeWorkload, type WorkloadReport } from './analyze.js';

export interface WorkloadRunRequest extends Omit<LowerOptions, 'topology'>, Pick<SimulateRequest, 'engine' | 'model' | 'routing' | 'routingOptions' | 'packet' | 'progress'> {
  readonly topology: Topology;
  readonly trace: ChakraTrace;
}

export interface WorkloadRun {
  readonly result: SimulateResult;
  readonly report: WorkloadReport;
  readonly lowered: LoweredWorkload;
}

export function runWorkload(req: WorkloadRunRequest): WorkloadRun {
  const { topology, trace, engine, model, routing, routingOptions, packet, progress, ...lowerOptions } = req;
  const lowered = lowerWorkload(trace, { topology, ...lowerOptions });
  const workload = {
    kind: 'chakra',
    ranks: trace.ranks.length,
    files: trace.ranks.map((r) => r.file),
    nodes: trace.ranks.reduce((s, r) => s + r.nodes.length, 0),
    collectives: trace.collectives.length,
    ...lowered.model,
  };
  const result = simulate({ topology, program: lowered.program, engine, model, routing, routingOptions, packet, progress, workload });
  return { result, report: analyzeWorkload(lowered, result, topology), lowered };
}
