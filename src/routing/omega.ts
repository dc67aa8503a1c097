/**
 * Omega (shuffle-exchange multistage) networks: destination-tag self-routing. An Omega network has
 * exactly one path from each input to each output, and destination-tag routing follows it, so the
 * unique shortest path is the destination-tag path; we take it from the BFS distances rather than
 * from bit arithmetic so that any radix and any input/output numbering of the generator works.
 */
import type { Topology } from '../topology/graph.js';
import { shortestPathRouting } from './shortest-path.js';
import type { RoutingEntry } from './registry.js';
import type { RoutingFunction } from './types.js';

export function omegaRouting(topology: Topology, opts: { cacheBytes?: number } = {}): RoutingFunction {
  // A multistage network's routes only go forward a stage: no cyclic channel dependency.
  return shortestPathRouting(topology, { tie: 'lowest', cacheBytes: opts.cacheBytes, name: 'destination-tag', deadlockFree: true });
}

export const destinationTagEntry: RoutingEntry = {
  name: 'destination-tag',
  description: 'destination-tag self-routing for omega networks',
  create: (topology, opts) => omegaRouting(topology, { cacheBytes: opts.cacheBytes }),
};
