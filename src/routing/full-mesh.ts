/**
 * Full mesh: every pair has its own direct channel (seed 001). Routes are the direct channel; the
 * 1-hop path through a turnaround node is stated by the schedule's route hint (see hints.ts), not
 * chosen here, because which node turns data around is the algorithm's decision.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export function fullMeshRouting(topology: Topology): RoutingFunction {
  const t = topology;
  return {
    name: 'full-mesh-direct',
    params: {},
    vcClasses: 1,
    deadlockFree: true,
    maxHops: 2,
    route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      const c = t.channelBetween(src, dst);
      if (c < 0) throw new InputError('route', `${src} -> ${dst}`, `a pair joined by a direct channel in ${t.spec}`);
      out.channels[0] = c;
      out.vcClass[0] = 0;
      return 1;
    },
  };
}

export const directEntry: RoutingEntry = {
  name: 'direct',
  description: 'one hop over the direct channel of a full mesh',
  create: (topology) => fullMeshRouting(topology),
};
