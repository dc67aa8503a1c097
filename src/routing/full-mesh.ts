/**
 * Full mesh: every pair has its own direct channel (seed 001). Routes are the direct channel; the
 * 1-hop path through a turnaround node is stated by the schedule's route hint (see hints.ts), not
 * chosen here, because which node turns data around is the algorithm's decision.
 *
 * With M parallel channels per pair (`fullmesh:N,mult=M`, the 7th embodiment's M switch planes,
 * [0128]) the salt picks the plane, salt mod M. With two planes (`split: 'halves'`, as the torus
 * tie-break does) the flow engine sends each flow in exact halves, one per plane, and the packet
 * engine alternates a message's packets between them (even and odd salts); with more planes a
 * packet's hashed salt picks.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export function fullMeshRouting(topology: Topology): RoutingFunction {
  const t = topology;
  const planes = Number(t.params.mult ?? 1);
  return {
    name: planes > 1 ? `full-mesh-direct(planes=${planes})` : 'full-mesh-direct',
    params: planes > 1 ? { planes, ...(planes === 2 ? { split: 'halves' } : {}) } : {},
    vcClasses: 1,
    deadlockFree: true,
    maxHops: 2,
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      const c = planes > 1 ? planeChannel(t, src, dst, salt) : t.channelBetween(src, dst);
      if (c < 0) throw new InputError('route', `${src} -> ${dst}`, `a pair joined by a direct channel in ${t.spec}`);
      out.channels[0] = c;
      out.vcClass[0] = 0;
      return 1;
    },
  };
}

/** Of the channels from u to v (one per plane still present), the one salt mod their count picks; -1 if none. */
function planeChannel(t: Topology, u: number, v: number, salt: number): number {
  let copies = 0;
  for (let i = t.outStart[u]; i < t.outStart[u + 1]; i++) if (t.chDst[t.outChannels[i]] === v) copies++;
  if (copies === 0) return -1;
  let pick = (salt >>> 0) % copies;
  for (let i = t.outStart[u]; i < t.outStart[u + 1]; i++) {
    const c = t.outChannels[i];
    if (t.chDst[c] === v && pick-- === 0) return c;
  }
  return -1;
}

export const directEntry: RoutingEntry = {
  name: 'direct',
  description: 'one hop over the direct channel of a full mesh',
  create: (topology) => fullMeshRouting(topology),
};
