/**
 * Dragonfly routing: minimal (local, global, local: the shortest path) and a UGAL-style choice
 * between the minimal path and a Valiant path, made once per flow from the load the engine sees
 * (UGAL-L: compare hops × (1 + load of the first global channel) of both candidates).
 */
import type { Topology } from '../topology/graph.js';
import { shortestPathRouting } from './shortest-path.js';
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

/**
 * BookSim's `min` on `dragonflynew` (min_dragonflynew): always local, global, local over the global
 * link that joins the two groups directly (the first one in port order where groups share several),
 * even where a shorter path exists through another group. VC class 0 before the global channel and
 * 1 from it on (BookSim's "optical dateline": out_vc = ph, set to 1 at the global port).
 */
export function dragonflyGroupDirectRouting(topology: Topology): RoutingFunction {
  const { a, g } = topology.params as { a: number; g: number };
  const terminals = topology.numEndpoints;
  const t = topology;
  const groupOf = (router: number): number => Math.floor((router - terminals) / a);
  const globalId = t.classNames.indexOf('global');
  // Global channel from group x to group y: the lowest id, i.e. the first router and port in order.
  const link = new Int32Array(g * g).fill(-1);
  for (let c = 0; c < t.numChannels; c++) {
    const k = groupOf(t.chSrc[c]) * g + groupOf(t.chDst[c]);
    if (t.chClass[c] === globalId && link[k] < 0) link[k] = c;
  }
  const channelTo = (u: number, w: number): number => {
    for (let i = t.outStart[u]; i < t.outStart[u + 1]; i++) if (t.chDst[t.outChannels[i]] === w) return t.outChannels[i];
    throw new Error(`dragonfly: no channel ${u} -> ${w}`);
  };
  const routerOf = (v: number): number => (v < terminals ? t.chDst[t.outChannels[t.outStart[v]]] : v);
  return {
    name: 'dragonfly-group-direct',
    params: { path: 'local-global-local over the direct group link (BookSim min)', vcClasses: '0 before the global channel, 1 from it on' },
    vcClasses: 2,
    maxHops: 5,
    route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      let hops = 0;
      let cls = 0;
      const push = (c: number): void => {
        if (t.chClass[c] === globalId) cls = 1;
        out.channels[hops] = c;
        out.vcClass[hops++] = cls;
      };
      const rs = routerOf(src);
      const rd = routerOf(dst);
      if (src !== rs) push(t.outChannels[t.outStart[src]]);
      let v = rs;
      if (groupOf(rs) !== groupOf(rd)) {
        const gc = link[groupOf(rs) * g + groupOf(rd)];
        if (gc < 0) throw new Error(`dragonfly: groups ${groupOf(rs)} and ${groupOf(rd)} share no global link`);
        if (t.chSrc[gc] !== v) push(channelTo(v, t.chSrc[gc]));
        push(gc);
        v = t.chDst[gc];
      }
      if (v !== rd) push(channelTo(v, rd));
      if (dst !== rd) push(channelTo(rd, dst));
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
