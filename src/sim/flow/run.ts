/**
 * One timed run at flow level, packaged by the shared assembler (sim/assemble.ts) as the RunResult
 * both engines return.
 */
import type { Topology } from '../../topology/graph.js';
import { resolveRouting, type RoutingOptions } from '../../routing/registry.js';
import type { RoutingFunction } from '../../routing/types.js';
import type { CollectiveDemand } from '../bounds/index.js';
import type { RunResult } from '../result.js';
import { assembleResult } from '../assemble.js';
import { simulateFlow, type FlowEngineOptions, type FlowRunOutput } from './engine.js';
import { type FlowProgram } from '../program/program.js';
import { withBarrierLatency } from '../program/route-latency.js';

export interface FlowRunRequest {
  readonly topology: Topology;
  readonly program: FlowProgram;
  /** Routing; default: resolveRouting(topology, routingOptions) for the flow engine (exact split halves). */
  readonly routing?: RoutingFunction;
  readonly routingOptions?: RoutingOptions;
  readonly model?: FlowEngineOptions;
  /** What ran, recorded in the result (collective, algorithm, size...). */
  readonly workload?: Readonly<Record<string, unknown>> | null;
  /** The collective's demand (one per part), for the topology bounds; without it only the schedule bound is given. */
  readonly demands?: readonly CollectiveDemand[];
  /** Per rank, the op whose end starts its timed region (`--barriers`, sim/program/barriers.ts). */
  readonly timeOrigin?: Int32Array;
}

export function runFlow(req: FlowRunRequest): RunResult & { readonly raw: FlowRunOutput } {
  const t = req.topology;
  const routing = req.routing ?? resolveRouting(t, { ...req.routingOptions, engine: 'flow' });
  const program = withBarrierLatency(req.program, req.model ?? {}, t, routing);
  const out = simulateFlow(t, routing, program, req.model ?? {});
  const result = assembleResult(
    {
      topology: t,
      routing,
      program: req.program,
      model: out.model,
      workload: req.workload,
      demands: req.demands,
      timeOrigin: req.timeOrigin,
      modelRecord: {
        engine:
          out.model.sharing === 'cm02'
            ? "flow-level, SimGrid CM02 weighted progressive filling (each flow's share ∝ 1 / its route latency)"
            : 'flow-level, max-min fair progressive filling',
        rateUpdateRule:
          out.model.rateUpdate === 'exact'
            ? 'batched exact: all events at one instant (within the simultaneity tolerance) are applied, then the flows of every component of the flow-resource graph the batch touched are re-solved together (max-min; the other components keep their rates)'
            : out.model.rateUpdate === 'full'
              ? 'batched exact, full: all events at one instant (within the simultaneity tolerance) are applied, then every active flow is re-rated once (max-min)'
              : 'batched local: all events at one instant are applied, then only the flows sharing a channel with a started or finished flow are re-rated, within what the others leave (feasible, may be below max-min)',
        latency:
          out.model.latencyRule === 'before-transfer'
            ? 'α (sender busy) + Σ channel latency + hops × router latency + turnaround extra, holding no bandwidth (SimGrid), then bytes at the max-min rate'
            : 'α (sender busy) + bytes at the max-min rate + Σ channel latency + hops × router latency + turnaround extra',
        pacing: 'a send after pace(g) is capped at 1/(g+1) of its bottleneck channel bandwidth',
      },
    },
    {
      engine: 'flow',
      makespan: out.makespan,
      rankFinish: out.rankFinish,
      channelBytes: out.channelBytes,
      rateTime: out.rateTime,
      rateValue: out.rateValue,
      opStart: out.opStart,
      opEnd: out.opEnd,
      opPred: out.opPred,
      stats: { messages: out.stats.messages, flows: out.stats.flows, bytes: out.stats.bytes, events: out.stats.events, rate_updates: out.stats.rateUpdates },
    },
  );
  Object.defineProperty(result, 'raw', { value: out, enumerable: false });
  return result as RunResult & { raw: FlowRunOutput };
}
