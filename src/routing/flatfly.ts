/**
 * BookSim's `ugal` on `flatfly` (ugal_flatfly_onchip), for the flattened butterfly and any HyperX:
 * decided once per packet at the source router, from the credits in use on two of its outputs.
 *
 * The intermediate router is drawn inside the minimal box of source and destination (BookSim's
 * find_ran_intm): the source's coordinate in every dimension where source and destination agree, a
 * random one (any of the S_d, source and destination included) where they differ. Then
 *   minimal  when H_min · q_min <= H_val · q_val + 2,
 * with H the router hops (differing dimensions, summed over both legs for the Valiant route) and q
 * the credits in use on the first channel of the dimension-order route to the destination (q_min)
 * or to the intermediate (q_val). An intermediate at the source or destination router gives a
 * minimal route (BookSim reaches it through an integer overflow at the source, and through the
 * equal costs at the destination). Legs are dimension order, lowest dimension first (flatfly_outport).
 *
 * VC classes are BookSim's phases, half the VCs each: class 0 on the way to the intermediate, class 1
 * from it on, and class 1 on every hop of a minimal route (phase 2). Each phase is dimension order on
 * its own VCs and class 0 only ever waits on class 1: deadlock free with 2 classes.
 *
 * The ejection hop may use every VC, as in BookSim (ejectAnyVc): restricting it to class 1 halves the
 * ejection VCs and saturates the 4×4 flatfly at 0.35 where BookSim runs to 0.4 (docs/packet.md).
 */
import { InputError } from '../util/errors.js';
import { hash32 } from '../util/rng.js';
import { NodeKind, type Topology } from '../topology/graph.js';
import type { AdaptiveRouting } from './dragonfly.js';
import type { RoutingEntry } from './registry.js';
import { shortestPathRouting } from './shortest-path.js';
import { loadOf, makeRouteBuffers, type RouteBuffers, type RouteContext } from './types.js';

/** BookSim's ugal_flatfly_onchip threshold (`int threshold = 2`). */
export const FLATFLY_UGAL_THRESHOLD = 2;

export interface FlatflyUgalOptions {
  /** Let the ejection hop use every VC, as BookSim does (default true); false holds class 1 there. */
  ejectAnyVc?: boolean;
}

export function flatflyUgalRouting(topology: Topology, opts: FlatflyUgalOptions = {}): AdaptiveRouting {
  const t = topology;
  const dims = (t.params as { dims?: unknown }).dims;
  if (!Array.isArray(dims) || (t.family !== 'hyperx' && t.family !== 'flatfly') || !t.coords) {
    throw new InputError('routing', 'ugal-flatfly', `a topology that fits it (hyperx or flatfly, not ${t.family})`);
  }
  const sides = dims as number[];
  // Terminals first (rank = r·p + t), then the routers (router-network.ts).
  const terminals = t.numEndpoints;
  const dor = shortestPathRouting(t, { tie: 'lowest', name: 'dimension-order' });
  const leg = makeRouteBuffers(dor.maxHops);
  const routerOf = (v: number): number => (t.nodeKind[v] === NodeKind.Terminal ? t.chDst[t.outChannels[t.outStart[v]]] : v);
  const differing = (a: number, b: number): number => {
    let h = 0;
    for (let d = 0; d < sides.length; d++) if (t.coord(a, d) !== t.coord(b, d)) h++;
    return h;
  };
  /** Appends the dimension-order route from..to on VC class `cls`; returns the new length. */
  const append = (out: RouteBuffers, at: number, from: number, to: number, cls: number): number => {
    const n = dor.route(from, to, 0, leg);
    for (let i = 0; i < n; i++) {
      out.channels[at + i] = leg.channels[i];
      out.vcClass[at + i] = cls;
    }
    return at + n;
  };
  /** Credits in use on the first router-to-router channel from router `from` towards router `to`. */
  const firstQueue = (from: number, to: number, ctx: RouteContext | undefined): number => (dor.route(from, to, 0, leg) > 0 ? loadOf(ctx, leg.channels[0]) : 0);
  const self: AdaptiveRouting = {
    name: 'flatfly-ugal-booksim',
    params: {
      rule: `minimal when H_min·q_min <= H_val·q_val + ${FLATFLY_UGAL_THRESHOLD}, q = credits in use on the first channel of each route, read when the path is chosen (PacketConfig.adaptiveDecision; BookSim ugal_flatfly)`,
      intermediate: 'random router per packet in the minimal box (random coordinate where source and destination differ)',
      vcClasses: 'class 0 towards the intermediate, class 1 from it on and on minimal routes',
      ejection: (opts.ejectAnyVc ?? true) ? 'every VC' : 'class 1',
    },
    vcClasses: 2,
    deadlockFree: true,
    ejectAnyVc: opts.ejectAnyVc ?? true,
    maxHops: 2 * dor.maxHops,
    adaptive: true,
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      if (src === dst) return 0;
      const rs = routerOf(src);
      const rd = routerOf(dst);
      let mid = 0;
      let stride = 1;
      for (let d = 0; d < sides.length; d++) {
        const xs = t.coord(rs, d);
        const x = xs === t.coord(rd, d) ? xs : hash32(salt, d, 0xf1a7) % sides[d];
        mid += x * stride;
        stride *= sides[d];
      }
      const rm = terminals + mid;
      if (rm !== rs && rm !== rd) {
        const minCost = differing(rs, rd) * firstQueue(rs, rd, ctx);
        const valCost = (differing(rs, rm) + differing(rm, rd)) * firstQueue(rs, rm, ctx);
        if (minCost > valCost + FLATFLY_UGAL_THRESHOLD) return append(out, append(out, 0, src, rm, 0), rm, dst, 1);
      }
      return append(out, 0, src, dst, 1);
    },
  };
  return self;
}

export const flatflyUgalEntry: RoutingEntry = {
  name: 'ugal-flatfly',
  description: "BookSim's flatfly ugal: minimal or via a router of the minimal box, per packet at the source router (packet engine; HyperX, flatfly)",
  create: (topology) => flatflyUgalRouting(topology),
};
