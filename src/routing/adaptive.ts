/**
 * Adaptive routings for any family with a minimal path set: adaptive minimal and UGAL-L / UGAL-G.
 *
 * The packet engine routes at the source (docs/packet.md): an adaptive routing is asked for the
 * whole path when its head is routed at its first router (or as it leaves its source queue:
 * PacketConfig.adaptiveDecision), reading the credits in use on any channel at that instant
 * (AdaptiveRouting.load). So these are source-adaptive routings: adaptive minimal picks,
 * hop by hop along the way, the minimal next channel with the fewest credits in use (the credit
 * counts the routers would see, read at the first router rather than as the packet arrives); UGAL
 * compares the minimal route with a Valiant route by hops × queue (plus BookSim's threshold 2), with the queue of the first
 * network channel (UGAL-L, what the source router sees) or the sum over the whole path (UGAL-G).
 *
 * Flow engine: the load of a channel is the number of unfinished flows routed over it, read when
 * the flow starts (sim/flow/channel-load.ts). Adaptive minimal then puts each flow on the minimal
 * next channels with the fewest flows (ties by a hash of source, destination and salt: ECMP on an
 * idle network), and UGAL compares the minimal route with the Valiant one by hops × flows, with the
 * threshold 0 (UGAL_FLOW_THRESHOLD); the documented flow-level approximation of adaptive routing (docs/flow.md).
 *
 * Deadlock freedom (Dally & Seitz: an acyclic channel dependency graph per VC class):
 *   - adaptive minimal: hop-indexed classes where the family declares its router diameter D (HyperX,
 *     Slim Fly, PolarFly: the i-th router hop on class i, D classes), else on networks with global
 *     channels (dragonfly, Dragonfly+) the dragonfly classes (global channels crossed before the hop,
 *     3 classes): any minimal route climbs in class, so no cycle within a class;
 *   - UGAL: the family's deadlock-free routing as the minimal candidate, Valiant's two phases in two
 *     class bands (2 × the base's classes), as `valiant`.
 * `test/routing/adaptive.test.ts` runs them through the packet engine's deadlock detector.
 */
import { InputError } from '../util/errors.js';
import { hash32 } from '../util/rng.js';
import { NodeKind, type Topology } from '../topology/graph.js';
import { DEFAULT_ROUTE_CACHE_BYTES, DistanceCache } from './distance-cache.js';
import { DRAGONFLY_MINIMAL_VC_CLASSES, type AdaptiveRouting } from './dragonfly.js';
import type { RoutingEntry } from './registry.js';
import { LOAD_MEANING, loadOf, makeRouteBuffers, type RouteBuffers, type RouteContext, type RoutingFunction } from './types.js';
import { valiantRouting } from './valiant.js';
import { CachedDistances, longestEndpointDistance } from './shortest-path.js';

type VcScheme = { kind: 'router-hops'; classes: number } | { kind: 'global-crossings'; classes: number; globalId: number };

function vcScheme(t: Topology, name: string): VcScheme {
  const diameter = (t.params as { routerDiameter?: unknown }).routerDiameter;
  if (typeof diameter === 'number' && diameter >= 1) return { kind: 'router-hops', classes: diameter };
  const globalId = t.classNames.indexOf('global');
  if (globalId >= 0) return { kind: 'global-crossings', classes: DRAGONFLY_MINIMAL_VC_CLASSES, globalId };
  throw new InputError('routing', name, `a topology whose minimal routes have a VC class bound (hyperx, flatfly, slimfly, polarfly, dragonfly, dragonflyplus; not ${t.family})`);
}

const isNetworkChannel = (t: Topology, c: number): boolean => t.nodeKind[t.chSrc[c]] !== NodeKind.Terminal && t.nodeKind[t.chDst[c]] !== NodeKind.Terminal;

/** What `load` counts on each engine, recorded in the routing's params. */
function loadMeaning(engine: 'flow' | 'packet' | undefined): string {
  return LOAD_MEANING[engine ?? 'packet'];
}

export function adaptiveMinimalRouting(topology: Topology, opts: { cacheBytes?: number; engine?: 'flow' | 'packet' } = {}): AdaptiveRouting {
  const t = topology;
  const scheme = vcScheme(t, 'adaptive');
  const cache = new DistanceCache(t, opts.cacheBytes ?? DEFAULT_ROUTE_CACHE_BYTES);
  let longest: number | undefined;
  const self: AdaptiveRouting = {
    name: 'adaptive-minimal',
    params: {
      choice: `minimal next channel with the lowest load (${loadMeaning(opts.engine)}); ties by hash(src, dst, salt)`,
      vcClasses: scheme.kind === 'router-hops' ? 'i-th router hop on class i' : 'global channels crossed before the hop',
    },
    vcClasses: scheme.classes,
    deadlockFree: true,
    maxHops: Math.max(1, t.numNodes),
    // Every route it gives is minimal, whatever the loads: the longest is the endpoints' largest distance.
    longestRoute: () => (longest ??= longestEndpointDistance(t, new CachedDistances(cache)) ?? self.maxHops),
    adaptive: true,
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      if (src === dst) return 0;
      const dist = cache.to(dst);
      if (dist[src] < 0) throw new InputError('route', `${src} -> ${dst}`, `a pair of nodes joined by a path in ${t.spec}`);
      let v = src;
      let hops = 0;
      let cls = 0;
      while (v !== dst) {
        const want = dist[v] - 1;
        let best = Infinity;
        let ties = 0;
        for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
          const c = t.outChannels[i];
          if (dist[t.chDst[c]] !== want) continue;
          const q = loadOf(ctx, c);
          if (q < best) {
            best = q;
            ties = 1;
          } else if (q === best) ties++;
        }
        let k = ties > 1 ? hash32(src, dst, (salt ^ Math.imul(hops + 1, 0x9e3779b1)) >>> 0) % ties : 0;
        let chosen = -1;
        for (let i = t.outStart[v]; i < t.outStart[v + 1] && chosen < 0; i++) {
          const c = t.outChannels[i];
          if (dist[t.chDst[c]] === want && loadOf(ctx, c) === best && k-- === 0) chosen = c;
        }
        out.channels[hops] = chosen;
        out.vcClass[hops++] = Math.min(cls, scheme.classes - 1);
        if (scheme.kind === 'router-hops' ? isNetworkChannel(t, chosen) : t.chClass[chosen] === scheme.globalId) cls++;
        v = t.chDst[chosen];
      }
      return hops;
    },
  };
  return self;
}

/** BookSim's ugal_flatfly_onchip: minimal when H_min·q_min <= H_val·q_val + 2 (q in credits, packet engine). */
export const UGAL_THRESHOLD = 2;
/**
 * At flow level q counts whole flows: a threshold of 2 would keep the minimal path until it carries
 * three flows, each of which cuts the others' share, so there the comparison is strict.
 */
export const UGAL_FLOW_THRESHOLD = 0;

export function ugalRouting(topology: Topology, base: RoutingFunction, opts: { seed?: number; global: boolean; threshold?: number; engine?: 'flow' | 'packet' }): AdaptiveRouting {
  const t = topology;
  const threshold = opts.threshold ?? (opts.engine === 'flow' ? UGAL_FLOW_THRESHOLD : UGAL_THRESHOLD);
  const valiant = valiantRouting(t, base, { seed: opts.seed });
  const a = makeRouteBuffers(valiant.maxHops);
  const b = makeRouteBuffers(valiant.maxHops);
  // H: router-to-router hops; q: credits in use on the first network channel, or on all of them.
  const cost = (r: RouteBuffers, n: number, ctx: RouteContext | undefined): number => {
    let h = 0;
    let q = 0;
    for (let i = 0; i < n; i++) {
      const c = r.channels[i];
      if (!isNetworkChannel(t, c)) continue;
      if (opts.global || h === 0) q += loadOf(ctx, c);
      h++;
    }
    return h * q;
  };
  const self: AdaptiveRouting = {
    name: opts.global ? 'ugal-g' : 'ugal-l',
    params: {
      seed: opts.seed ?? 1,
      base: base.name,
      threshold,
      rule: `minimal when H_min·q_min <= H_val·q_val + threshold (BookSim ugal_flatfly), q = load on ${opts.global ? 'every network channel of the path (UGAL-G)' : 'the first network channel (UGAL-L)'}`,
      load: loadMeaning(opts.engine),
      intermediate: 'random router per packet (Valiant)',
    },
    vcClasses: valiant.vcClasses,
    deadlockFree: valiant.deadlockFree,
    maxHops: valiant.maxHops,
    // Its minimal candidate is no longer than a Valiant route (twice the base's longest).
    ...(valiant.longestRoute ? { longestRoute: valiant.longestRoute } : {}),
    adaptive: true,
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      const hm = base.route(src, dst, salt, a, ctx);
      const qm = cost(a, hm, ctx);
      if (qm <= threshold) {
        out.channels.set(a.channels.subarray(0, hm));
        out.vcClass.set(a.vcClass.subarray(0, hm));
        return hm;
      }
      const hv = valiant.route(src, dst, salt, b, ctx);
      const [r, n] = qm <= cost(b, hv, ctx) + threshold ? [a, hm] : [b, hv];
      out.channels.set(r.channels.subarray(0, n));
      out.vcClass.set(r.vcClass.subarray(0, n));
      return n;
    },
  };
  return self;
}

export const adaptiveEntry: RoutingEntry = {
  name: 'adaptive',
  description: 'adaptive minimal: least-loaded minimal channels, chosen at the first router (packet) or at flow start (flow: fewest unfinished flows)',
  create: (topology, opts) => adaptiveMinimalRouting(topology, { cacheBytes: opts.cacheBytes, engine: opts.engine }),
};

function ugalEntryOf(global: boolean): RoutingEntry {
  const name = global ? 'ugal-g' : 'ugal-l';
  return {
    name,
    description: `UGAL-${global ? 'G' : 'L'}: minimal or Valiant per packet by hops × ${global ? 'path' : 'first-channel'} queue (any family with a deadlock-free default)`,
    create(topology, opts, resolve) {
      const base = resolve({ ...opts, routing: undefined });
      if (!base.deadlockFree) throw new InputError('routing', name, `a routing that fits ${topology.family} (${name} builds on a deadlock-free default routing, not ${base.name})`);
      return ugalRouting(topology, base, { seed: opts.seed, global, engine: opts.engine });
    },
  };
}

export const ugalLocalEntry = ugalEntryOf(false);
export const ugalGlobalEntry = ugalEntryOf(true);
