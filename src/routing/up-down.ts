/**
 * Up/down routing for fat trees and two-level (leaf/spine) networks: climb to a nearest common
 * ancestor, then descend. In these trees every shortest terminal-to-terminal path is an up*\/down*
 * path, so the route is the shortest path; the choice among parallel up-links is
 * destination-mod-k (default) or a per-flow hash (ECMP).
 */
import type { Topology } from '../topology/graph.js';
import { shortestPathRouting } from './shortest-path.js';
import type { RoutingEntry } from './registry.js';
import type { RoutingFunction } from './types.js';

export interface UpDownOptions {
  /** Per-flow hash over parallel up-links instead of destination-mod-k. */
  ecmp?: boolean;
  cacheBytes?: number;
}

export function upDownRouting(topology: Topology, opts: UpDownOptions = {}): RoutingFunction {
  const tie = opts.ecmp ? 'hash' : 'dmodk';
  // In these trees every shortest route climbs then descends: no cyclic channel dependency.
  const r = shortestPathRouting(topology, { tie, cacheBytes: opts.cacheBytes, name: `up-down(${opts.ecmp ? 'ecmp' : 'd-mod-k'})`, deadlockFree: true });
  return { ...r, route: r.route, params: { selection: opts.ecmp ? 'ecmp' : 'd-mod-k' } };
}

export const upDownEntry: RoutingEntry = {
  name: 'updown',
  description: 'up/down for fat trees and two-level networks, destination-mod-k over parallel up-links',
  create: (topology, opts) => upDownRouting(topology, { cacheBytes: opts.cacheBytes }),
};

export const ecmpEntry: RoutingEntry = {
  name: 'ecmp',
  description: 'up/down with a per-flow hash over parallel up-links (ECMP)',
  create: (topology, opts) => upDownRouting(topology, { ecmp: true, cacheBytes: opts.cacheBytes }),
};
