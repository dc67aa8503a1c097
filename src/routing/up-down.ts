/**
 * Up/down routing for fat trees and two-level (leaf/spine) networks: climb to a nearest common
 * ancestor, then descend. In these trees every shortest terminal-to-terminal path is an up*\/down*
 * path, so the route is the shortest path; the choice among parallel up-links is
 * destination-mod-k (default) or a per-flow hash (ECMP).
 */
import type { Topology } from '../topology/graph.js';
import { familyOf } from '../topology/registry.js';
import { shortestPathRouting } from './shortest-path.js';
import type { RoutingEntry } from './registry.js';
import type { RoutingFunction } from './types.js';

export interface UpDownOptions {
  /** Per-flow hash over parallel up-links instead of destination-mod-k. */
  ecmp?: boolean;
  /**
   * BookSim's `nca` (fattree_nca): an up-port drawn at random at every up hop. The draw hashes the
   * route salt, which the packet engine makes per packet, so it is a fresh choice per packet.
   */
  nca?: boolean;
  cacheBytes?: number;
}

export function upDownRouting(topology: Topology, opts: UpDownOptions = {}): RoutingFunction {
  const selection = opts.nca ? 'nca' : opts.ecmp ? 'ecmp' : 'd-mod-k';
  const tie = selection === 'd-mod-k' ? 'dmodk' : 'hash';
  // In the trees whose family routes up/down by default (fat tree, two-level) every shortest route
  // climbs then descends: no cyclic channel dependency. Named on any other graph (a torus, a
  // degraded tree) it is plain shortest-path routing, so the packet engine must not trust it.
  const tree = familyOf(topology)?.defaultRouting === 'updown';
  const r = shortestPathRouting(topology, { tie, cacheBytes: opts.cacheBytes, name: `up-down(${selection})`, deadlockFree: tree });
  return { ...r, route: r.route, params: { selection } };
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

export const ncaEntry: RoutingEntry = {
  name: 'nca',
  description: "BookSim's fat-tree nca: a random up-port per packet (hashed per packet), then down",
  create: (topology, opts) => upDownRouting(topology, { nca: true, cacheBytes: opts.cacheBytes }),
};
