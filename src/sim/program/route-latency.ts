/**
 * Rank-to-rank latency over a run's routes (Σ channel latency + hops × router latency), for the
 * barrier 'linear' model where a barrier cannot be run as messages (a key used by several streams of
 * one rank, program/barriers.ts), which times its zero-byte messages without moving them. The
 * engines answer it from the topology and routing they run (`StreamHost.routeLatency`); a program
 * never stores it.
 */
import { loopbackOf, type Topology } from '../../topology/graph.js';
import { selfRouteOf } from '../../topology/registry.js';
import { makeRouteBuffers, type RoutingFunction } from '../../routing/types.js';

/** Seconds a zero-byte message takes from one rank to another, without bandwidth. */
export type RankLatency = (srcRank: number, dstRank: number) => number;

/**
 * Two ranks on one host (an SMPI hostfile listing it twice) cross the host's loopback (its latency)
 * or its self route (selfRouteOf), as the flow engine moves them; a rank to itself takes 0.
 */
export function routeLatency(topology: Topology, routing: RoutingFunction, routerLatency: number): RankLatency {
  const selfRoute = selfRouteOf(topology);
  const loopback = loopbackOf(topology);
  // The engine's bound on a self route too (FlowEngine's route buffers).
  const buf = makeRouteBuffers(2 * routing.maxHops + 2);
  return (src, dst) => {
    if (src === dst) return 0;
    const [a, b] = [topology.endpoints[src], topology.endpoints[dst]];
    if (a === b && loopback) return loopback.latency;
    const hops = a === b ? (selfRoute?.(topology, a, buf.channels) ?? 0) : routing.route(a, b, 0, buf);
    let seconds = hops * routerLatency;
    for (let i = 0; i < hops; i++) seconds += topology.chLatency[buf.channels[i]];
    return seconds;
  };
}
