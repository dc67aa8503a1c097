/**
 * SimGrid 3.32's own routes in its FAT_TREE and DRAGONFLY zones (topology/simgrid-zones.ts), read
 * from `FatTreeZone::get_local_route` and `DragonflyZone::get_local_route` and rewritten here (our
 * own code over our typed-array wiring), so that every flow crosses the links SimGrid's does:
 *
 * - fat tree: up from the source until the node's subtree holds the destination (its label agrees
 *   with the destination's from its level up), taking at a level-l node parent port
 *   (dst position / prod_{i<l} up[i]) mod (up[l]·links[l]) (d-mod-k); then down, at each node
 *   scanning child ports from (src position mod links) · down, taking each port whose index mod down
 *   is the destination's digit; SimGrid's scan keeps going with the node it has just reached, which
 *   we follow exactly (it decides which parallel link a multi-level descent takes).
 * - dragonfly: host to its router; to another group, first (if the router is not number y, y the
 *   target group) the green link to router y of its chassis, then (if not in chassis 0) the black
 *   link to chassis 0, the blue link to group y (arriving at router x of chassis 0, x the source
 *   group); then the green link to the target's router number, then the black link to the target's
 *   chassis; router to host. SimGrid tracks the router reached after a green link as the one of
 *   chassis 0 (routers_[group·C·R + blade]) whatever chassis it left from, so from a chassis c ≠ 0
 *   to another router and chassis of the same group its links are green in chassis c, then black
 *   from chassis 0: not a path, but the links it shares bandwidth on. The flow engine takes that
 *   list (what smpirun times); the packet engine, which moves packets hop by hop, takes the path
 *   SimGrid's route means (green, then black from the router reached). The routes differ only there.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import { simgridFatTreeWiring, type SimgridDragonflyShape, type SimgridFatTreeShape } from '../topology/simgrid-zones.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

function requireFamily(t: Topology, family: string, routing: string): void {
  if (t.family !== family) throw new InputError('routing', routing, `a ${family} topology (got ${t.family})`);
}

export function simgridFatTreeRouting(t: Topology): RoutingFunction {
  requireFamily(t, 'simgrid-fattree', 'simgrid-fattree');
  const shape = t.params as unknown as SimgridFatTreeShape;
  const w = simgridFatTreeWiring(shape);
  const L = shape.levels;
  const { up, down, links } = shape;
  const { level, position, label, parentPortStart, parentPortLink, childPortStart, childPortLink, linkChild, linkParent } = w;
  /** Every ancestor level's label digits agree with the destination's (hosts: level 0). */
  const holds = (v: number, dst: number): boolean => {
    if (level[v] === 0) return false;
    for (let i = level[v]; i < L; i++) if (label[v * L + i] !== label[dst * L + i]) return false;
    return true;
  };
  return {
    name: 'simgrid-fattree',
    params: { rule: 'SimGrid 3.32 FatTreeZone: d-mod-k up to the nearest common ancestor, then down' },
    vcClasses: 1,
    deadlockFree: true,
    maxHops: 2 * L,
    route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      let hops = 0;
      let v = src;
      while (!holds(v, dst)) {
        let d = position[dst];
        for (let i = 0; i < level[v]; i++) d = Math.floor(d / up[i]);
        d %= up[level[v]] * links[level[v]];
        const link = parentPortLink[parentPortStart[v] + d];
        out.channels[hops] = 2 * link;
        out.vcClass[hops++] = 0;
        v = linkParent[link];
      }
      while (v !== dst) {
        // SimGrid's scan: its bound and modulus read the node reached so far, not the one it started at.
        for (let i = (position[src] % links[level[v] - 1]) * down[level[v] - 1]; i < childPortStart[v + 1] - childPortStart[v]; i++) {
          if (i % down[level[v] - 1] === label[dst * L + level[v] - 1]) {
            const link = childPortLink[childPortStart[v] + i];
            out.channels[hops] = 2 * link + 1;
            out.vcClass[hops++] = 0;
            v = linkChild[link];
          }
        }
      }
      return hops;
    },
  };
}

export function simgridDragonflyRouting(t: Topology, engine: 'flow' | 'packet' = 'packet'): RoutingFunction {
  requireFamily(t, 'simgrid-dragonfly', 'simgrid-dragonfly');
  const { chassis: C, routers: R, nodes: P } = t.params as unknown as SimgridDragonflyShape;
  const hosts = (t.params as { terminals: number }).terminals;
  const simgridList = engine === 'flow';
  const channel = (u: number, v: number): number => {
    const c = t.channelBetween(u, v);
    if (c < 0) throw new Error(`simgrid-dragonfly: no channel ${u} -> ${v}`);
    return c;
  };
  return {
    name: 'simgrid-dragonfly',
    params: {
      rule: 'SimGrid 3.32 DragonflyZone: green to the router of the target group, black to chassis 0, blue, green, black',
      links: simgridList ? "SimGrid's link list (flow engine)" : 'the path it means (packet engine)',
    },
    vcClasses: 1,
    deadlockFree: false,
    maxHops: 7,
    route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      let hops = 0;
      const take = (from: number, to: number): void => {
        out.channels[hops] = channel(from, to);
        out.vcClass[hops++] = 0;
      };
      const [sr, tr] = [Math.floor(src / P), Math.floor(dst / P)];
      const [sg, tg] = [Math.floor(sr / (C * R)), Math.floor(tr / (C * R))];
      const [tc, tb] = [Math.floor(tr / R) % C, tr % R];
      take(src, hosts + sr);
      // Router index r = (g·C + c)·R + b; `at` is the router SimGrid's route is at.
      let at = sr;
      const blade = (r: number): number => r % R;
      const chassisOf = (r: number): number => Math.floor(r / R) % C;
      if (at !== tr) {
        if (tg !== sg) {
          if (blade(at) !== tg) {
            const next = at - blade(at) + tg;
            take(hosts + at, hosts + next);
            at = next;
          }
          if (chassisOf(at) !== 0) {
            const next = sg * C * R + blade(at);
            take(hosts + at, hosts + next);
            at = next;
          }
          const next = tg * C * R + sg;
          take(hosts + at, hosts + next);
          at = next;
        }
        if (blade(at) !== tb) {
          const physical = at - blade(at) + tb;
          take(hosts + at, hosts + physical);
          at = simgridList ? tg * C * R + tb : physical;
        }
        if (chassisOf(at) !== tc) take(hosts + at, hosts + at + (tc - chassisOf(at)) * R);
      }
      take(hosts + tr, dst);
      return hops;
    },
  };
}

/**
 * The routes a SimGrid platform of zones declares (interop/simgrid-platform.ts: Topology.explicitRoutes,
 * one flat link-id array with per-pair offsets): the flow engine takes each pair's SimGrid link list
 * as it is, as for the dragonfly above. The packet engine moves packets along paths: it takes the
 * lists only when every one is a directed path of the inferred graph (and, as for any routing not
 * deadlock free, replaces them by up*\/down* where the graph allows), and refuses the platform otherwise.
 */
export function simgridZoneRouting(t: Topology, engine: 'flow' | 'packet' = 'packet'): RoutingFunction {
  const routes = t.explicitRoutes;
  if (!routes) throw new InputError('routing', 'simgrid-zone', 'a topology read from a SimGrid platform of zones (its routes are kept as loaded; failures remove them)');
  if (engine === 'packet' && routes.notPaths) throw new InputError('engine', 'packet', `the flow engine on this SimGrid platform (its routes are link lists, not paths: ${routes.notPaths})`);
  const { hosts, start, channels } = routes;
  return {
    name: 'simgrid-zone',
    params: { rule: "the platform's routes, per host pair, as SimGrid 3.32 computes them", entries: channels.length },
    vcClasses: 1,
    deadlockFree: false,
    maxHops: Math.max(1, routes.maxHops),
    route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      if (!(src < hosts && dst < hosts)) throw new InputError('routing', 'simgrid-zone', `routes between the platform's ${hosts} hosts (got nodes ${src} -> ${dst})`);
      const from = start[src * hosts + dst];
      const hops = start[src * hosts + dst + 1] - from;
      out.channels.set(channels.subarray(from, from + hops));
      out.vcClass.fill(0, 0, hops);
      return hops;
    },
  };
}

export const simgridZoneEntry: RoutingEntry = {
  name: 'simgrid-zone',
  description: "the routes of a SimGrid platform of zones, per host pair as SimGrid 3.32 computes them; simgrid-zone topologies",
  create: (topology, opts) => simgridZoneRouting(topology, opts.engine ?? 'packet'),
};

export const simgridFatTreeEntry: RoutingEntry = {
  name: 'simgrid-fattree',
  description: "SimGrid 3.32's fat-tree routes (d-mod-k up to the nearest common ancestor, then down); simgrid-fattree topologies",
  create: (topology) => simgridFatTreeRouting(topology),
};

export const simgridDragonflyEntry: RoutingEntry = {
  name: 'simgrid-dragonfly',
  description: "SimGrid 3.32's dragonfly routes (green, black, blue, green, black); simgrid-dragonfly topologies",
  create: (topology, opts) => simgridDragonflyRouting(topology, opts.engine ?? 'packet'),
};
