/**
 * Dragonfly routing: minimal (local, global, local: the shortest path) and a UGAL-style choice
 * between the minimal path and a Valiant path, made once per flow from the load the engine sees
 * (UGAL-L: compare hops × (1 + load of the first global channel) of both candidates).
 */
import type { Topology } from '../topology/graph.js';
import { shortestPathRouting } from './shortest-path.js';
import { InputError } from '../util/errors.js';
import type { RoutingEntry } from './registry.js';
import { makeRouteBuffers, type RouteBuffers, type RoutingFunction } from './types.js';
import { valiantRouting } from './valiant.js';

/**
 * VC classes of minimal dragonfly routes (packet engine): hop-indexed by the global channels crossed
 * before the hop. Groups are fully connected, so a minimal route never takes two local hops in a row
 * and within one class a route goes (terminal →) local → global and nothing follows a global in the
 * same class: no dependency cycle. A minimal route crosses at most 2 global channels (l-g-l, or g-l-g
 * where groups share several global links), hence 3 classes.
 */
export const DRAGONFLY_MINIMAL_VC_CLASSES = 3;

export function dragonflyMinimalRouting(topology: Topology, opts: { cacheBytes?: number } = {}): RoutingFunction {
  const base = shortestPathRouting(topology, { tie: 'lowest', cacheBytes: opts.cacheBytes, name: 'dragonfly-minimal' });
  const globalId = topology.classNames.indexOf('global');
  return {
    ...base,
    params: { ...base.params, vcClasses: 'hop-indexed: global channels crossed before the hop' },
    vcClasses: DRAGONFLY_MINIMAL_VC_CLASSES,
    deadlockFree: true,
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      const hops = base.route(src, dst, salt, out);
      let crossed = 0;
      for (let i = 0; i < hops; i++) {
        if (crossed >= DRAGONFLY_MINIMAL_VC_CLASSES) throw new Error(`minimal dragonfly route ${src} -> ${dst} crosses more than ${crossed} global channels`);
        out.vcClass[i] = crossed;
        if (topology.chClass[out.channels[i]] === globalId) crossed++;
      }
      return hops;
    },
  };
}

export interface UgalRouting extends RoutingFunction {
  /** Load estimate per channel (e.g. active flows); the flow engine binds it. Default: none (always minimal). */
  load: (channel: number) => number;
}

export function dragonflyUgalRouting(topology: Topology, opts: { seed?: number; cacheBytes?: number; globalClass?: string } = {}): UgalRouting {
  const minimal = dragonflyMinimalRouting(topology, opts);
  const valiant = valiantRouting(topology, minimal, { seed: opts.seed });
  const globalId = topology.classNames.indexOf(opts.globalClass ?? 'global');
  const a = makeRouteBuffers(valiant.maxHops);
  const b = makeRouteBuffers(valiant.maxHops);
  const firstGlobalLoad = (r: RouteBuffers, hops: number, load: (c: number) => number): number => {
    for (let i = 0; i < hops; i++) if (topology.chClass[r.channels[i]] === globalId) return load(r.channels[i]);
    return hops > 0 ? load(r.channels[0]) : 0;
  };
  const self: UgalRouting = {
    name: 'dragonfly-ugal',
    params: { seed: opts.seed ?? 1, rule: 'hops*(1+load of first global channel)' },
    vcClasses: valiant.vcClasses,
    deadlockFree: valiant.deadlockFree,
    maxHops: valiant.maxHops,
    load: () => 0,
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      const hm = minimal.route(src, dst, salt, a);
      const hv = valiant.route(src, dst, salt, b);
      const useMinimal = hm * (1 + firstGlobalLoad(a, hm, self.load)) <= hv * (1 + firstGlobalLoad(b, hv, self.load));
      const src2 = useMinimal ? a : b;
      const hops = useMinimal ? hm : hv;
      out.channels.set(src2.channels.subarray(0, hops));
      out.vcClass.set(src2.vcClass.subarray(0, hops));
      return hops;
    },
  };
  return self;
}

export const dragonflyMinimalEntry: RoutingEntry = {
  name: 'minimal',
  description: 'minimal dragonfly routing, VC class = global channels crossed so far',
  create: (topology, opts) => dragonflyMinimalRouting(topology, { cacheBytes: opts.cacheBytes }),
};

export const ugalEntry: RoutingEntry = {
  name: 'ugal',
  description: 'UGAL on a dragonfly: minimal or Valiant per flow, by hops × load of the first global channel',
  create(topology, opts) {
    if (!topology.classNames.includes('global')) throw new InputError('routing', 'ugal', `a routing that fits ${topology.family} (ugal needs a dragonfly's global channels)`);
    return dragonflyUgalRouting(topology, { seed: opts.seed, cacheBytes: opts.cacheBytes });
  },
};
