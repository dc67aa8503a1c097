/**
 * Valiant routing: each flow (or packet) goes minimally to a random intermediate router chosen by
 * hash(src, dst, salt), then minimally to its destination. The base is the family's default
 * routing (dimension order on a torus, minimal on a dragonfly), and must be deadlock free. The second phase uses VC classes shifted by the base's count, so
 * the two phases never wait on each other (deadlock freedom in the packet engine).
 */
import { hash32 } from '../util/rng.js';
import type { Topology } from '../topology/graph.js';
import { InputError } from '../util/errors.js';
import type { RoutingEntry } from './registry.js';
import { makeRouteBuffers, type RouteBuffers, type RouteContext, type RoutingFunction } from './types.js';

export interface ValiantOptions {
  seed?: number;
}

/** Nodes that may serve as intermediates: routers (switches, or every node of a direct network). */
export function routerNodes(t: Topology): Int32Array {
  const all: number[] = [];
  for (let v = 0; v < t.numNodes; v++) {
    if (t.distanceConvention === 'router-hops' || t.nodeKind[v] !== 0) all.push(v);
  }
  return Int32Array.from(all);
}

/**
 * Whether every intermediate is an endpoint or the one neighbour of a terminal endpoint. Then a leg
 * of a minimal base (one whose routes are shortest paths, which is what giving longestRoute means) is
 * no longer than a route between endpoints (to a terminal's router is one hop short of the terminal),
 * so a Valiant route is at most twice the base's longest.
 */
function intermediatesBesideEndpoints(t: Topology, routers: Int32Array): boolean {
  const near = new Uint8Array(t.numNodes);
  for (const e of t.endpoints) {
    near[e] = 1;
    if (t.outDegree(e) === 1 && t.inDegree(e) === 1) {
      const router = t.chDst[t.outChannels[t.outStart[e]]];
      if (t.chSrc[t.inChannels[t.inStart[e]]] === router) near[router] = 1;
    }
  }
  return routers.every((r) => near[r] === 1);
}

export function valiantRouting(topology: Topology, base: RoutingFunction, opts: ValiantOptions = {}): RoutingFunction {
  const seed = (opts.seed ?? 1) >>> 0;
  const routers = routerNodes(topology);
  const leg = makeRouteBuffers(base.maxHops);
  return {
    name: `valiant(${base.name})`,
    params: { seed, base: base.name, intermediates: routers.length },
    vcClasses: base.vcClasses * 2,
    deadlockFree: base.deadlockFree,
    ...(base.adaptive ? { adaptive: true } : {}),
    maxHops: base.maxHops * 2 + 2,
    ...(base.longestRoute && intermediatesBesideEndpoints(topology, routers) ? { longestRoute: () => 2 * base.longestRoute!() } : {}),
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      if (src === dst) return 0;
      let mid = routers[hash32(src ^ seed, dst, salt) % routers.length];
      // A terminal endpoint of an indirect network enters through its switch: the intermediate
      // must not be a terminal, and may not be the source or destination themselves.
      if (mid === src || mid === dst) mid = routers[(hash32(dst, src ^ seed, salt) + 1) % routers.length];
      let hops = 0;
      if (mid !== src && mid !== dst) {
        const h1 = base.route(src, mid, salt, leg, ctx);
        for (let i = 0; i < h1; i++) {
          out.channels[hops] = leg.channels[i];
          out.vcClass[hops++] = leg.vcClass[i];
        }
        const h2 = base.route(mid, dst, salt, leg, ctx);
        for (let i = 0; i < h2; i++) {
          out.channels[hops] = leg.channels[i];
          out.vcClass[hops++] = leg.vcClass[i] + base.vcClasses;
        }
        return hops;
      }
      return base.route(src, dst, salt, out, ctx);
    },
  };
}

export const valiantEntry: RoutingEntry = {
  name: 'valiant',
  description: "Valiant: the family's default routing to a random intermediate router, then to the destination",
  create(topology, opts, resolve) {
    const base = resolve({ ...opts, routing: undefined });
    if (!base.deadlockFree) {
      throw new InputError('routing', 'valiant', `a routing that fits ${topology.family} (valiant needs a deadlock-free default routing to build on, not ${base.name})`);
    }
    return valiantRouting(topology, base, { seed: opts.seed });
  },
};
