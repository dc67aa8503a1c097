/**
 * Rank-to-rank latency over a run's routes (Σ channel latency + hops × router latency), for the
 * barrier 'linear' model where a barrier cannot be run as messages (a key used by several streams of
 * one rank, program/barriers.ts), which times its zero-byte messages without moving them. The
 * engines answer it from the topology and routing they run (`StreamHost.routeLatency`); a program
 * never stores it.
 */
import type { Topology } from '../../topology/graph.js';
import { makeRouteBuffers, type RoutingFunction } from '../../routing/types.js';

/** Seconds a zero-byte message takes from one rank to another, without bandwidth. */
export type RankLatency = (srcRank: number, dstRank: number) => number;

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
