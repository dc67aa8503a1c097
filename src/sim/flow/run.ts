/**
 * One timed run at flow level, packaged by the shared assembler (sim/assemble.ts) as the RunResult
 * both engines return.
 */
import { describeCorrections } from '../program/network-model.js';
import type { Topology } from '../../topology/graph.js';
import { resolveRouting, type RoutingOptions } from '../../routing/registry.js';
import type { RoutingFunction } from '../../routing/types.js';
import type { CollectiveDemand } from '../bounds/index.js';
import type { RunResult } from '../result.js';
import { assembleResult, type RawRun } from '../assemble.js';
import { simulateFlow, type FlowEngineOptions, type FlowRunOutput } from './engine.js';
import { type FlowProgram } from '../program/program.js';
import { resolveFlowModel } from '../program/model.js';
import { programForBarrierModel } from '../program/barriers.js';
import { findQuotient, type DeclaredQuotient, type QuotientRun } from './symmetry.js';

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
  const options = req.model ?? {};
  const model = resolveFlowModel(options, t, routing.params.split);
  // Barrier 'linear' runs as its messages (program/barriers.ts): the result's ops are theirs.
  const { program, timeOrigin } = programForBarrierModel(req.program, req.timeOrigin, model.barrier);
  const sym = findQuotient(t, routing, program, model, { trace: options.trace !== undefined });
  const quotientOut = sym.used ? simulateFlow(t, routing, sym.program, { ...options, quotient: sym.maps }) : undefined;
  const out = sym.used ? expandQuotient(quotientOut!, sym, program.numRanks, t, { program, opOrigin: sym.opOrigin, streamOf: sym.streamOf }) : simulateFlow(t, routing, program, options);
  return packageFlow({ ...req, timeOrigin }, routing, program, out, sym, quotientOut);
}

/**
 * A run from a declared quotient alone (symmetry.ts `declaredQuotient`, sim/representatives.ts):
 * the full program was never built, so the result's per-op times of every op are not available
 * (reading them throws); the critical path and the schedule bound come from the representatives.
 */
export function runFlowDeclared(req: Omit<FlowRunRequest, 'program' | 'timeOrigin'> & { readonly routing: RoutingFunction }, sym: DeclaredQuotient): RunResult & { readonly raw: FlowRunOutput } {
  const t = req.topology;
  const quotientOut = simulateFlow(t, req.routing, sym.program, { ...req.model, quotient: sym.maps });
  const out = expandQuotient(quotientOut, sym, sym.program.numRanks, t, undefined);
  return packageFlow({ ...req, timeOrigin: undefined }, req.routing, sym.program, out, sym, quotientOut);
}

/** What a declared quotient's result says of the declaration (sim/representatives.ts). */
function declaredRule(action: DeclaredQuotient['action']): string {
  if (action === 'xor') return 'the algorithm declared its rank symmetry (peers XORed with the rank)';
  if (action === 'rotation') return 'the algorithm declared its rank-rotation symmetry';
  return `the algorithm declared its rank symmetry (peers translated with the rank on the ${action.translation.join('x')} coordinates)`;
}

function packageFlow(
  req: Omit<FlowRunRequest, 'program'>,
  routing: RoutingFunction,
  program: FlowProgram,
  out: FlowRunOutput,
  sym: QuotientRun | DeclaredQuotient | { used: false; reason: string },
  quotientOut: FlowRunOutput | undefined,
): RunResult & { readonly raw: FlowRunOutput } {
  const t = req.topology;
  const declared = sym.used && !('opOrigin' in sym);
  const result = assembleResult(
    {
      topology: t,
      routing,
      program,
      model: out.model,
      workload: req.workload,
      demands: req.demands,
      timeOrigin: req.timeOrigin,
      quotient: sym.used ? { program: sym.program, maps: sym.maps, times: quotientOut! } : undefined,
      modelRecord: {
        engine:
          out.model.sharing === 'cm02'
            ? [
                `flow-level, SimGrid CM02 weighted progressive filling (each flow's share ∝ 1 / its route latency${out.model.weightS > 0 ? ' + weight-S / bandwidth per channel' : ''})`,
                ...(out.model.networkModel === 'ideal' ? [] : [`network model ${out.model.networkModel}: ${describeCorrections(out.model).join(', ') || 'no corrections'}`]),
              ].join('; ')
            : out.model.sharing === 'none'
              ? "flow-level, no sharing (ASTRA-sim's congestion-unaware analytical backend): every flow at its route's bottleneck bandwidth, as if alone"
              : out.model.sharing === 'store-forward'
                ? "flow-level, store-and-forward links (ASTRA-sim's congestion-aware analytical backend): a message crosses its route link by link, each link sending one whole message at a time, first come first served, at its full bandwidth"
                : 'flow-level, max-min fair progressive filling',
        rateUpdateRule:
          out.model.sharing === 'none'
            ? 'none: without sharing every flow keeps its route\'s bottleneck rate from start to finish (no solve)'
            : out.model.sharing === 'store-forward'
            ? 'none: a link sends one message at a time at its full bandwidth (no rates are shared, no solve)'
            : out.model.rateUpdate === 'exact'
            ? 'batched exact: all events at one instant (within the simultaneity tolerance) are applied, then the flows the batch can move are filled again within what the others leave (max-min: in the components of the flow-resource graph the batch touched, the flows frozen at or above the lowest level of a finished flow or at which a started flow saturates a resource; every other flow keeps its rate)'
            : out.model.rateUpdate === 'full'
              ? 'batched exact, full: all events at one instant (within the simultaneity tolerance) are applied, then every active flow is re-rated once (max-min)'
              : 'batched local: all events at one instant are applied, then only the flows sharing a channel with a started or finished flow are re-rated, within what the others leave (feasible, may be below max-min)',
        latency:
          out.model.sharing === 'store-forward'
            ? 'α (sender busy), then per link: the wait for the link, bytes / its bandwidth, its latency + the router latency'
            : out.model.latencyRule === 'before-transfer'
            ? 'α (sender busy) + Σ channel latency + hops × router latency + turnaround extra, holding no bandwidth (SimGrid), then bytes at the max-min rate'
            : 'α (sender busy) + bytes at the max-min rate + Σ channel latency + hops × router latency + turnaround extra',
        pacing: 'a send after pace(g) is capped at 1/(g+1) of its bottleneck channel bandwidth',
        symmetry: {
          mode: out.model.symmetry,
          ...(sym.used
            ? {
                ...sym.record,
                ...(declared
                  ? {
                      representatives_only: true,
                      representatives_rule:
                        declaredRule(sym.action) +
                        ", so only the representatives' streams were generated (the schedule was never built, lowered or checked); per-op times of every op, the Gantt view and the schedule's byte-exact verification are not available on this path (run a smaller size or --symmetry off for them)",
                    }
                  : {}),
                rule: 'one representative rank per orbit of the group; a flow per orbit of flows, on channel orbits of capacity bandwidth × |orbit| / order; ranks, channels and counts of messages, flows and bytes are expanded to every rank; events and rate updates are the quotient run\'s; the critical path runs through representatives (each op stands for its images)',
              }
            : sym),
        },
      },
    },
    // Per-op times read through: a quotient's are expanded (or, declared, refused) only when a view asks.
    Object.defineProperties(
      {
        engine: 'flow' as const,
        makespan: out.makespan,
        rankFinish: out.rankFinish,
        channelBytes: out.channelBytes,
        rateTime: out.rateTime,
        rateValue: out.rateValue,
        stats: { messages: out.stats.messages, flows: out.stats.flows, bytes: out.stats.bytes, events: out.stats.events, rate_updates: out.stats.rateUpdates },
      },
      { opStart: { get: () => out.opStart, enumerable: true }, opEnd: { get: () => out.opEnd, enumerable: true }, opPred: { get: () => out.opPred, enumerable: true } },
    ) as unknown as RawRun,
  );
  Object.defineProperty(result, 'raw', { value: out, enumerable: false });
  return result as RunResult & { raw: FlowRunOutput };
}

/**
 * The full run's outputs from a quotient run's: every rank finishes with its representative, a
 * channel carries |H| / |O| of its orbit's bytes, counts are |H| times the representatives', and
 * per-op times (expanded on first read) are the representative's op at the same place, its wait
 * the representative's (the critical path runs through representatives).
 */
function expandQuotient(
  q: FlowRunOutput,
  sym: QuotientRun | DeclaredQuotient,
  numRanks: number,
  t: Topology,
  fullOps: { readonly program: FlowProgram; readonly opOrigin: Int32Array; readonly streamOf: Int32Array } | undefined,
): FlowRunOutput {
  const { repOf, order, channelOrbit, orbitSize } = sym.maps;
  const rankFinish = new Float64Array(numRanks);
  for (let r = 0; r < numRanks; r++) rankFinish[r] = q.rankFinish[repOf[r]];
  const channelBytes = new Float64Array(t.numChannels);
  for (let c = 0; c < t.numChannels; c++) {
    const o = channelOrbit[c];
    channelBytes[c] = (q.channelBytes[o] * order) / orbitSize[o];
  }
  const stats = { ...q.stats, messages: q.stats.messages * order, flows: q.stats.flows * order, bytes: q.stats.bytes * order };
  // Per-op times of every op (20 bytes an op: 0.7 GiB at 32³ hop-grouped) only when a view reads them.
  let times: { opStart: Float64Array; opEnd: Float64Array; opPred: Int32Array } | undefined;
  const expand = (): NonNullable<typeof times> => {
    if (times) return times;
    if (fullOps === undefined) throw new Error('per-op times of every op are not available: the run was timed from its representatives alone (model.symmetry.representatives_only); run a smaller size or --symmetry off');
    const { program: full, opOrigin, streamOf } = fullOps;
    const opStart = new Float64Array(full.numOps);
    const opEnd = new Float64Array(full.numOps);
    const opPred = new Int32Array(full.numOps);
    for (let s = 0; s < full.numStreams; s++) {
      const shift = sym.program.opStart[streamOf[s]] - full.opStart[s];
      for (let o = full.opStart[s]; o < full.opStart[s + 1]; o++) {
        opStart[o] = q.opStart[o + shift];
        opEnd[o] = q.opEnd[o + shift];
        const pred = q.opPred[o + shift];
        opPred[o] = pred < 0 ? pred : opOrigin[pred];
      }
    }
    return (times = { opStart, opEnd, opPred });
  };
  // Every representative flow stands for `order` flows at its rate, as its bytes stand for order × its bytes.
  const rateValue = Float64Array.from(q.rateValue, (v) => v * order);
  const base = { makespan: q.makespan, model: q.model, rankFinish, channelBytes, rateTime: q.rateTime, rateValue, stats };
  return Object.defineProperties(base, {
    opStart: { get: () => expand().opStart, enumerable: true },
    opEnd: { get: () => expand().opEnd, enumerable: true },
    opPred: { get: () => expand().opPred, enumerable: true },
  }) as FlowRunOutput;
}
