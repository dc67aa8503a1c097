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
import { hash32, type RandomStream } from '../util/rng.js';
import { NodeKind, type Topology } from '../topology/graph.js';
import type { AdaptiveRouting } from './dragonfly.js';
import type { RoutingEntry } from './registry.js';
import { shortestPathRouting } from './shortest-path.js';
import { atFirstRouter, endsInTerminal } from './turn-draws.js';
import { loadOf, makeRouteBuffers, type RouteBuffers, type RouteContext, type RoutingFunction } from './types.js';

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
  const terminalsPerRouter = terminals / sides.reduce((a, b) => a * b, 1);
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
    drawsFromStream: true,
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      if (src === dst) return 0;
      const rs = routerOf(src);
      const rd = routerOf(dst);
      // A terminal of the source router: BookSim ejects without drawing.
      if (rs === rd) return append(out, 0, src, dst, 1);
      let mid = 0;
      let stride = 1;
      // find_ran_intm draws a terminal of the intermediate router first (RandomInt(gC − 1)), which
      // changes nothing here, then RandomInt(k − 1) in each dimension where the routers differ.
      const stream = ctx?.stream;
      if (stream) stream.int(terminalsPerRouter);
      for (let d = 0; d < sides.length; d++) {
        const xs = t.coord(rs, d);
        const x = xs === t.coord(rd, d) ? xs : stream ? stream.int(sides[d]) : hash32(salt, d, 0xf1a7) % sides[d];
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

/**
 * BookSim's `xyyx` and `adaptive_xyyx` on `flatfly` (xyyx_flatfly, adaptive_xyyx_flatfly), for the
 * flattened butterfly and any HyperX: minimal, one hop per differing dimension, in one of two orders
 * chosen at the source router: lowest dimension first (XY, flatfly_outport; VC class 0) or highest
 * first (YX, flatfly_outport_yx; class 1), half the VCs each. `xyyx` tosses a fair coin per packet;
 * `adaptive_xyyx` takes the order whose first channel has fewer credits in use (BookSim
 * GetUsedCredit on the two output ports), the coin on a tie (as when one dimension differs and both
 * orders leave by the same channel). A packet for a terminal of its own router takes no order. The
 * ejection hop may use every VC (BookSim opens the whole range at the destination router). Each
 * class is dimension order on its own VCs: deadlock free with 2 classes.
 */
export function flatflyXyYxRouting(topology: Topology, adaptive: boolean, seedOption = 1): AdaptiveRouting | RoutingFunction {
  const t = topology;
  const kind = adaptive ? 'adaptive-xyyx-flatfly' : 'xyyx-flatfly';
  const dims = (t.params as { dims?: unknown }).dims;
  if (!Array.isArray(dims) || (t.family !== 'hyperx' && t.family !== 'flatfly') || !t.coords) {
    throw new InputError('routing', kind, `a topology that fits it (hyperx or flatfly, not ${t.family})`);
  }
  const sides = dims as number[];
  const seed = seedOption >>> 0;
  const stride = sides.map((_, d) => sides.slice(0, d).reduce((a, b) => a * b, 1));
  const routerOf = (v: number): number => t.chDst[t.outChannels[t.outStart[v]]];
  /** The router hops from router `at` to router rd correcting dimensions lowest or highest first, on class `cls`, written at `h`; returns the end. */
  const routerHops = (at: number, rd: number, highestFirst: boolean, cls: number, channels: Int32Array, classes: Uint8Array, h: number): number => {
    for (let i = 0; i < sides.length; i++) {
      const d = highestFirst ? sides.length - 1 - i : i;
      const delta = t.coord(rd, d) - t.coord(at, d);
      if (delta === 0) continue;
      const next = at + delta * stride[d];
      channels[h] = t.channelBetween(at, next);
      classes[h++] = cls;
      at = next;
    }
    return h;
  };
  /** The route src..dst correcting dimensions lowest or highest first, every hop on class `cls`; returns its length. */
  const path = (src: number, dst: number, highestFirst: boolean, cls: number, out: RouteBuffers): number => {
    out.channels[0] = t.outChannels[t.outStart[src]];
    out.vcClass[0] = cls;
    const rd = routerOf(dst);
    const hops = routerHops(routerOf(src), rd, highestFirst, cls, out.channels, out.vcClass, 1);
    out.channels[hops] = t.channelBetween(rd, dst);
    out.vcClass[hops] = cls;
    return hops + 1;
  };
  /**
   * xyyx_flatfly's own draw, `RandomInt(1) > 0` for XY, at the packet's first router (the head in
   * on a terminal port, `in_channel < gC`), unless the destination is that router's.
   */
  const drawAtTurn = (node: number, prev: number, dst: number, channels: Int32Array, classes: Uint8Array, at: number, end: number, stream: RandomStream): number => {
    const rd = routerOf(dst);
    if (!atFirstRouter(t, node, prev) || node === rd) return end;
    const highestFirst = stream.int(2) === 0;
    const cls = highestFirst ? 1 : 0;
    const toTerminal = endsInTerminal(t, dst, channels, at, end);
    const h = routerHops(node, rd, highestFirst, cls, channels, classes, at);
    if (!toTerminal) return h;
    channels[h] = t.channelBetween(rd, dst);
    classes[h] = cls;
    return h + 1;
  };
  const firstNetworkChannel = (src: number, dst: number, highestFirst: boolean): number => {
    const rs = routerOf(src);
    const rd = routerOf(dst);
    for (let i = 0; i < sides.length; i++) {
      const d = highestFirst ? sides.length - 1 - i : i;
      const delta = t.coord(rd, d) - t.coord(rs, d);
      if (delta !== 0) return t.channelBetween(rs, rs + delta * stride[d]);
    }
    return -1;
  };
  return {
    name: `${kind}(booksim)`,
    params: {
      routing: kind,
      booksim: adaptive ? 'adaptive_xyyx_flatfly' : 'xyyx_flatfly',
      seed,
      path: adaptive
        ? 'XY (class 0) or YX (class 1) dimension order, whichever first channel has fewer credits in use at the source router, a fair coin on a tie'
        : 'XY (class 0) or YX (class 1) dimension order, a fair coin per packet',
      ejection: 'every VC',
    },
    vcClasses: 2,
    deadlockFree: true,
    ejectAnyVc: true,
    maxHops: sides.length + 2,
    ...(adaptive ? { adaptive: true as const, drawsFromStream: true as const } : { drawAtTurn }),
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      if (src === dst) return 0;
      let highestFirst = (hash32(salt, seed, 0x79) & 1) === 1;
      if (adaptive && routerOf(src) !== routerOf(dst)) {
        const xy = loadOf(ctx, firstNetworkChannel(src, dst, false));
        const yx = loadOf(ctx, firstNetworkChannel(src, dst, true));
        if (xy !== yx) highestFirst = xy > yx;
        // adaptive_xyyx_flatfly's coin on a tie, RandomInt(1) > 0 for XY.
        else if (ctx?.stream) highestFirst = ctx.stream.int(2) === 0;
      }
      return path(src, dst, highestFirst, highestFirst ? 1 : 0, out);
    },
  };
}

export const flatflyXyYxEntry: RoutingEntry = {
  name: 'xyyx-flatfly',
  description: "BookSim's flatfly xyyx: lowest or highest dimension first, a fair coin per packet, one VC class each (packet engine; HyperX, flatfly)",
  create: (topology, opts) => flatflyXyYxRouting(topology, false, opts.seed),
};

export const flatflyAdaptiveXyYxEntry: RoutingEntry = {
  name: 'adaptive-xyyx-flatfly',
  description: "BookSim's flatfly adaptive_xyyx: lowest or highest dimension first, whichever first channel has fewer credits in use at the source router (packet engine; HyperX, flatfly)",
  create: (topology, opts) => flatflyXyYxRouting(topology, true, opts.seed),
};

/**
 * BookSim's `valiant` on `flatfly` (valiant_flatfly): per packet an intermediate terminal drawn
 * uniformly over all (so a router drawn uniformly, the source's and the destination's included),
 * dimension order (lowest first, flatfly_outport) to its router on VC class 0, then dimension order
 * to the destination on class 1, half the VCs each. BookSim switches to the second phase at any
 * router that is the intermediate's or the destination's, so a first leg that passes the
 * destination's router ends there, and one from the intermediate's or destination's own router is
 * all second phase. The ejection hop may use every VC. Class 0 only waits on class 1: deadlock free
 * with 2 classes.
 */
export function flatflyValiantRouting(topology: Topology, seedOption = 1): RoutingFunction {
  const t = topology;
  const dims = (t.params as { dims?: unknown }).dims;
  if (!Array.isArray(dims) || (t.family !== 'hyperx' && t.family !== 'flatfly') || !t.coords) {
    throw new InputError('routing', 'valiant-flatfly', `a topology that fits it (hyperx or flatfly, not ${t.family})`);
  }
  const sides = dims as number[];
  const seed = seedOption >>> 0;
  const routers = sides.reduce((a, b) => a * b, 1);
  const firstRouter = t.numEndpoints;
  const stride = sides.map((_, d) => sides.slice(0, d).reduce((a, b) => a * b, 1));
  const routerOf = (v: number): number => t.chDst[t.outChannels[t.outStart[v]]];
  /** The next router from `at` towards `to`, lowest differing dimension first. */
  const nextTowards = (at: number, to: number): number => {
    for (let d = 0; d < sides.length; d++) {
      const delta = t.coord(to, d) - t.coord(at, d);
      if (delta !== 0) return at + delta * stride[d];
    }
    return at;
  };
  /** The router hops from router `at` via router rm (class 0) to router rd (class 1), written at `h`; returns the end. */
  const phases = (at: number, rm: number, rd: number, channels: Int32Array, classes: Uint8Array, h: number): number => {
    let phase = 0;
    for (;;) {
      if (at === rm || at === rd) phase = 1;
      if (phase === 1 && at === rd) return h;
      const next = nextTowards(at, phase === 0 ? rm : rd);
      channels[h] = t.channelBetween(at, next);
      classes[h++] = phase;
      at = next;
    }
  };
  /**
   * valiant_flatfly's own draw at the packet's first router (the head in on a terminal port,
   * `in_channel < gC`), even for a terminal of that router: `RandomInt(k^n·c − 1)`, a terminal (its
   * BookSim id, the rank), whose router is the intermediate.
   */
  const drawAtTurn = (node: number, prev: number, dst: number, channels: Int32Array, classes: Uint8Array, at: number, end: number, stream: RandomStream): number => {
    if (!atFirstRouter(t, node, prev)) return end;
    const rm = routerOf(t.endpoints[stream.int(t.numEndpoints)]);
    const rd = routerOf(dst);
    const toTerminal = endsInTerminal(t, dst, channels, at, end);
    const h = phases(node, rm, rd, channels, classes, at);
    if (!toTerminal) return h;
    channels[h] = t.channelBetween(rd, dst);
    classes[h] = 1;
    return h + 1;
  };
  return {
    name: 'valiant-flatfly(booksim)',
    params: { routing: 'valiant-flatfly', booksim: 'valiant_flatfly', seed, path: 'dimension order to a random router (class 0), then to the destination (class 1); the second phase starts at the intermediate or the destination router, whichever comes first', ejection: 'every VC' },
    vcClasses: 2,
    deadlockFree: true,
    ejectAnyVc: true,
    maxHops: 2 * sides.length + 2,
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      const rd = routerOf(dst);
      out.channels[0] = t.outChannels[t.outStart[src]];
      out.vcClass[0] = 0;
      const hops = phases(routerOf(src), firstRouter + (hash32(salt, seed, 0x7a1) % routers), rd, out.channels, out.vcClass, 1);
      out.channels[hops] = t.channelBetween(rd, dst);
      out.vcClass[hops] = 1;
      return hops + 1;
    },
    drawAtTurn,
  };
}

export const flatflyValiantEntry: RoutingEntry = {
  name: 'valiant-flatfly',
  description: "BookSim's flatfly valiant: dimension order via a random router, then to the destination, 2 VC classes (packet engine; HyperX, flatfly)",
  create: (topology, opts) => flatflyValiantRouting(topology, opts.seed),
};
