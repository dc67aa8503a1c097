/**
 * Rank-to-rank latency over a run's routes (Σ channel latency + hops × router latency), for the
 * barrier 'linear' model, which times a barrier's zero-byte messages without moving them.
 */
import type { Topology } from '../../topology/graph.js';
import { makeRouteBuffers, type RoutingFunction } from '../../routing/types.js';
import type { FlowProgram, RankLatency } from './program.js';

export function routeLatency(topology: Topology, routing: RoutingFunction, routerLatency: number): RankLatency {
  const buf = makeRouteBuffers(routing.maxHops);
  return (src, dst) => {
    if (src === dst) return 0;
    const hops = routing.route(topology.endpoints[src], topology.endpoints[dst], 0, buf);
    let seconds = hops * routerLatency;
    for (let i = 0; i < hops; i++) seconds += topology.chLatency[buf.channels[i]];
    return seconds;
  };
}

/**
 * The program with its run's route latencies when the model times barriers as 'linear'; else itself.
 * The engines no longer use it (they answer `StreamHost.routeLatency`); kept for library callers that
 * run a program through the StreamRunner themselves.
 */
export function withBarrierLatency(program: FlowProgram, model: { barrier?: string; routerLatency?: number }, topology: Topology, routing: RoutingFunction): FlowProgram {
  return model.barrier === 'linear' ? program.withRankLatency(routeLatency(topology, routing, model.routerLatency ?? 0)) : program;
}
