/**
 * Dragonfly routing: minimal (local, global, local: the shortest path) and a UGAL-style choice
 * between the minimal path and a Valiant path, made once per flow from the load the engine sees
 * (UGAL-L: compare hops × (1 + load of the first global channel) of both candidates).
 */
import type { Topology } from '../topology/graph.js';
import { shortestPathRouting } from './shortest-path.js';
import { InputError } from '../util/errors.js';
import { hash32 } from '../util/rng.js';
import type { RoutingEntry } from './registry.js';
import { LOAD_MEANING, loadOf, makeRouteBuffers, type RouteBuffers, type RouteContext, type RoutingFunction } from './types.js';
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
    // Class 0 before the one global channel, 1 after it: local channels never wait on a lower class.
    deadlockFree: true,
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

/**
 * A routing that reads network state (`RouteContext.load`): the packet engine routes each packet
 * once, at its first router (PacketConfig.adaptiveDecision), the flow engine each flow at its start.
 */
export interface AdaptiveRouting extends RoutingFunction {
  readonly adaptive: true;
}

/**
 * BookSim's `ugal` on `dragonflynew` (ugal_dragonflynew), decided at the source router: draw a random
 * intermediate terminal; unless it is in the source group, go minimal when
 * used(min first channel) <= 2·used(non-minimal first channel) + 30, else group-direct to the
 * intermediate terminal's router, then group-direct to the destination. VC classes are BookSim's
 * phases: 0 towards the intermediate router, 1 from it (or from the source when minimal), 2 from the
 * global channel into the destination group on; traffic inside a group uses 2. Needs 3 VCs.
 */
export function dragonflyUgalBookSimRouting(topology: Topology): AdaptiveRouting {
  const direct = dragonflyGroupDirectRouting(topology);
  const t = topology;
  const globalId = t.classNames.indexOf('global');
  const terminals = t.numEndpoints;
  const { a } = t.params as { a: number };
  const routerOf = (v: number): number => (v < terminals ? t.chDst[t.outChannels[t.outStart[v]]] : v);
  const groupOf = (v: number): number => Math.floor((routerOf(v) - terminals) / a);
  const leg = makeRouteBuffers(direct.maxHops);
  const append = (out: RouteBuffers, at: number, from: number, to: number, phase: number, skipFirst: boolean): number => {
    const n = direct.route(from, to, 0, leg);
    let hops = at;
    let ph = phase;
    for (let i = skipFirst ? 1 : 0; i < n; i++) {
      if (ph === 1 && t.chClass[leg.channels[i]] === globalId) ph = 2;
      out.channels[hops] = leg.channels[i];
      out.vcClass[hops++] = ph;
    }
    return hops;
  };
  const self: AdaptiveRouting = {
    name: 'dragonfly-ugal-booksim',
    // BookSim's three phases as VC classes: each leg only climbs in class.
    deadlockFree: true,
    params: { rule: 'min if used(min) <= 2*used(non-min) + 30, at the source router; phases 0/1/2 as VC classes', intermediate: 'random terminal per packet' },
    vcClasses: 3,
    maxHops: 2 * direct.maxHops,
    adaptive: true,
    drawsFromStream: true,
    // Within its group (its own terminal too) a packet is in phase 2 from the source router.
    selfSendClass: 2,
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      if (src === dst) return 0;
      if (groupOf(src) === groupOf(dst)) return append(out, 0, src, dst, 2, false);
      // BookSim's `RandomInt(_network_size − 1)`: a terminal by its BookSim id, the rank.
      const intm = t.endpoints[ctx?.stream ? ctx.stream.int(terminals) : hash32(salt, 0x1a7e) % terminals];
      if (groupOf(intm) !== groupOf(src)) {
        const rs = routerOf(src);
        const minFirst = direct.route(rs, routerOf(dst), 0, leg) > 0 ? leg.channels[0] : -1;
        const nonMinFirst = direct.route(rs, routerOf(intm), 0, leg) > 0 ? leg.channels[0] : -1;
        const minQueue = minFirst < 0 ? 0 : loadOf(ctx, minFirst);
        const nonMinQueue = nonMinFirst < 0 ? 0 : loadOf(ctx, nonMinFirst);
        if (minQueue > 2 * nonMinQueue + 30) {
          // Non-minimal: phase 0 to the intermediate terminal's router, then phase 1 on.
          let hops = append(out, 0, src, routerOf(intm), 0, false);
          hops = append(out, hops, routerOf(intm), dst, 1, false);
          return hops;
        }
      }
      return append(out, 0, src, dst, 1, false);
    },
  };
  return self;
}

/** Dragonfly UGAL: adaptive in both engines (the load it reads is the engine's, LOAD_MEANING). */
export type UgalRouting = AdaptiveRouting;

export function dragonflyUgalRouting(topology: Topology, opts: { seed?: number; cacheBytes?: number; globalClass?: string; engine?: 'flow' | 'packet' } = {}): UgalRouting {
  const minimal = dragonflyMinimalRouting(topology, opts);
  const valiant = valiantRouting(topology, minimal, { seed: opts.seed });
  const globalId = topology.classNames.indexOf(opts.globalClass ?? 'global');
  const a = makeRouteBuffers(valiant.maxHops);
  const b = makeRouteBuffers(valiant.maxHops);
  const firstGlobalLoad = (r: RouteBuffers, hops: number, ctx: RouteContext | undefined): number => {
    for (let i = 0; i < hops; i++) if (topology.chClass[r.channels[i]] === globalId) return loadOf(ctx, r.channels[i]);
    return hops > 0 ? loadOf(ctx, r.channels[0]) : 0;
  };
  const self: UgalRouting = {
    name: 'dragonfly-ugal',
    params: { seed: opts.seed ?? 1, rule: 'hops*(1+load of first global channel)', load: LOAD_MEANING[opts.engine ?? 'packet'] },
    vcClasses: valiant.vcClasses,
    deadlockFree: valiant.deadlockFree,
    maxHops: valiant.maxHops,
    adaptive: true,
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      const hm = minimal.route(src, dst, salt, a);
      const hv = valiant.route(src, dst, salt, b);
      const useMinimal = hm * (1 + firstGlobalLoad(a, hm, ctx)) <= hv * (1 + firstGlobalLoad(b, hv, ctx));
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
  description: 'UGAL on a dragonfly: minimal or Valiant per flow (flow engine) or packet (packet engine), by hops × load of the first global channel',
  create(topology, opts) {
    requireDragonfly(topology, 'ugal');
    return dragonflyUgalRouting(topology, { seed: opts.seed, cacheBytes: opts.cacheBytes, engine: opts.engine });
  },
};

function requireDragonfly(topology: Topology, name: string): void {
  if (!topology.classNames.includes('global')) throw new InputError('routing', name, `a routing that fits ${topology.family} (${name} needs a dragonfly's global channels)`);
}

export const groupDirectEntry: RoutingEntry = {
  name: 'group-direct',
  description: "BookSim's dragonflynew min: local, global, local over the direct group link",
  create(topology) {
    requireDragonfly(topology, 'group-direct');
    return dragonflyGroupDirectRouting(topology);
  },
};

export const ugalBookSimEntry: RoutingEntry = {
  name: 'ugal-booksim',
  description: "BookSim's dragonflynew ugal, decided per packet at the source router (packet engine)",
  create(topology) {
    requireDragonfly(topology, 'ugal-booksim');
    return dragonflyUgalBookSimRouting(topology);
  },
};
