/**
 * Minimal routing with hop-indexed VC classes (Günther 1981; the scheme Slim Fly and PolarFly use):
 * shortest path, and the packet's i-th router-to-router hop uses VC class i. A channel of class i only
 * ever waits on channels of class i + 1 (or on an ejection channel, which always drains), so the
 * channel dependency graph is acyclic: deadlock free with as many classes as the router diameter.
 * Needs the family to declare its router diameter (`params.routerDiameter`): Slim Fly and PolarFly, 2.
 */
import { InputError } from '../util/errors.js';
import { NodeKind, type Topology } from '../topology/graph.js';
import type { RoutingEntry } from './registry.js';
import { shortestPathRouting, type ShortestPathTie } from './shortest-path.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export function hopVcRouting(topology: Topology, opts: { tie?: ShortestPathTie; cacheBytes?: number } = {}): RoutingFunction {
  const diameter = (topology.params as { routerDiameter?: unknown }).routerDiameter;
  if (typeof diameter !== 'number' || !(diameter >= 1)) {
    throw new InputError('routing', 'hop-vc', `a topology that declares its router diameter (slimfly, polarfly; ${topology.family} does not)`);
  }
  const tie = opts.tie ?? 'lowest';
  const base = shortestPathRouting(topology, { tie, cacheBytes: opts.cacheBytes, name: `hop-vc(tie=${tie})`, deadlockFree: true });
  const t = topology;
  return {
    ...base,
    params: { ...base.params, vcClasses: 'i-th router-to-router hop on class i', routerDiameter: diameter },
    vcClasses: diameter,
    deadlockFree: true,
    maxHops: diameter + 2,
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      const hops = base.route(src, dst, salt, out);
      let routerHops = 0;
      for (let i = 0; i < hops; i++) {
        const c = out.channels[i];
        const between = t.nodeKind[t.chSrc[c]] !== NodeKind.Terminal && t.nodeKind[t.chDst[c]] !== NodeKind.Terminal;
        out.vcClass[i] = Math.min(routerHops, diameter - 1);
        if (between) routerHops++;
      }
      if (routerHops > diameter) throw new Error(`hop-vc: route ${src} -> ${dst} takes ${routerHops} router hops, more than the declared diameter ${diameter}`);
      return hops;
    },
  };
}

export const hopVcEntry: RoutingEntry = {
  name: 'hop-vc',
  description: 'minimal routing, i-th router hop on VC class i (Slim Fly, PolarFly: 2 classes)',
  create: (topology, opts) => hopVcRouting(topology, { tie: opts.shortestTie, cacheBytes: opts.cacheBytes }),
};
