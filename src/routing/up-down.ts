/**
 * Up/down routing for fat trees and two-level (leaf/spine) networks: climb to a nearest common
 * ancestor, then descend. In these trees every shortest terminal-to-terminal path is an up*\/down*
 * path, so the route is the shortest path; the choice among parallel up-links is
 * destination-mod-k (default) or a per-flow hash (ECMP). On a k-ary n-tree the routes are computed in
 * closed form (the same channels), elsewhere by walking distances (shortest-path.ts).
 */
import type { Topology } from '../topology/graph.js';
import { familyOf } from '../topology/registry.js';
import { InputError } from '../util/errors.js';
import { hash32, independentDraw, type RandomStream } from '../util/rng.js';
import { shortestPathRouting, type ShortestPathTie } from './shortest-path.js';
import type { RoutingEntry } from './registry.js';
import type { HopByHopRouting } from './dal.js';
import { loadOf, makeRouteBuffers, type RouteBuffers, type RouteContext, type RoutingFunction } from './types.js';

export interface UpDownOptions {
  /** Per-flow hash over parallel up-links instead of destination-mod-k. */
  ecmp?: boolean;
  /**
   * BookSim's `nca` (fattree_nca): an up-port drawn at random at every up hop. The draw hashes the
   * route salt, which the packet engine makes per packet, so it is a fresh choice per packet.
   */
  nca?: boolean;
  /** Seed of the hashed choices (ecmp, nca); default 1. */
  seed?: number;
  cacheBytes?: number;
}

export function upDownRouting(topology: Topology, opts: UpDownOptions = {}): RoutingFunction {
  const selection = opts.nca ? 'nca' : opts.ecmp ? 'ecmp' : 'd-mod-k';
  const tie = selection === 'd-mod-k' ? 'dmodk' : 'hash';
  // The hashed choices (ecmp, nca) take the run's seed as an offset of the route salt; the default
  // seed, 1, is no offset, so its routes are the ones these routings always gave.
  const seed = (opts.seed ?? 1) >>> 0;
  const offset = Math.imul(seed - 1, 0x9e3779b1) >>> 0;
  const params = tie === 'hash' ? { selection, seed } : { selection };
  // In the trees whose family routes up/down by default (fat tree, two-level) every shortest route
  // climbs then descends: no cyclic channel dependency. Named on any other graph (a torus, a
  // degraded tree) it is plain shortest-path routing, so the packet engine must not trust it.
  const tree = familyOf(topology)?.defaultRouting === 'updown';
  const r = shortestPathRouting(topology, { tie, cacheBytes: opts.cacheBytes, name: `up-down(${selection})`, deadlockFree: tree });
  const shape = familyOf(topology)?.kAryTree?.(topology);
  const walk = r.route;
  if (!shape) return { ...r, route: offset === 0 ? walk : (src, dst, salt, out) => walk(src, dst, (salt ^ offset) >>> 0, out), params };
  const closedForm = kAryTreeRoute(topology, shape.k, shape.levels, tie);
  const terminals = shape.k ** shape.levels;
  const k = shape.k;
  const rest = makeRouteBuffers(r.maxHops);
  /**
   * BookSim's fattree_nca draws its up-port, `gK + RandomInt(gK - 1)`, at every router the head
   * climbs from: the hop from `node` becomes up-port `pick` (a switch lists its k down-links, then its
   * k up-links), and the rest of the route is walked again from there (its further up-ports are
   * drawn at their own routers).
   */
  function drawAtTurn(node: number, _prev: number, dst: number, channels: Int32Array, classes: Uint8Array, at: number, end: number, stream: RandomStream): number {
    if (at === end || topology.chSrcPort[channels[at]] < k) return end;
    const up = topology.outChannels[topology.outStart[node] + k + stream.int(k)];
    channels[at] = up;
    classes[at] = 0;
    const n = walk(topology.chDst[up], dst, 0, rest);
    channels.set(rest.channels.subarray(0, n), at + 1);
    classes.fill(0, at + 1, at + 1 + n);
    // Every up-port leads to a common ancestor at the same level: the route keeps its length.
    return end;
  }
  return {
    ...r,
    params,
    ...(opts.nca ? { drawAtTurn } : {}),
    // Terminal to terminal in closed form; routes from or to a switch (hints, Valiant) walk distances.
    route: (src, dst, salt, out) => {
      const s = (salt ^ offset) >>> 0;
      return src < terminals && dst < terminals ? closedForm(src, dst, s, out) : walk(src, dst, s, out);
    },
  };
}

/**
 * The shortest-path walk's routes on an intact k-ary n-tree, without distances: up from the leaf
 * switch to the nearest common ancestor's level (the lowest level whose subtrees, k^(level+1)
 * consecutive terminals, hold both ends), choosing among the k up-links by the tie exactly as
 * shortestPathRouting does (every up-link is one hop closer, none of the down-links is), then down by
 * the destination's digits (one shortest choice per hop). O(hops), where the walk scans 2k ports a hop.
 */
function kAryTreeRoute(t: Topology, k: number, levels: number, tie: ShortestPathTie): (src: number, dst: number, salt: number, out: RouteBuffers) => number {
  const { outStart, outChannels, chDst } = t;
  return (src, dst, salt, out) => {
    if (src === dst) return 0;
    const dstKey = t.physicalIndexOfNode[dst] >= 0 ? t.physicalIndexOfNode[dst] : dst;
    // Channels written in place: a `push` closure here was allocated per route, once per flow.
    const { channels, vcClass } = out;
    let c = outChannels[outStart[src]];
    channels[0] = c;
    vcClass[0] = 0;
    let hops = 1;
    let v = chDst[c];
    let ancestor = 0;
    let span = k;
    // Terminals are below 2^31, so `(a / b) | 0` is ⌊a / b⌋ and the `%` after it is an int32
    // remainder (on Math.floor's double result it may be a floating-point one).
    while (((src / span) | 0) !== ((dst / span) | 0)) {
      ancestor++;
      span *= k;
    }
    if (ancestor >= levels) throw new Error(`k-ary ${levels}-tree: terminals ${src} and ${dst} share no root`);
    let spread = 1;
    for (let level = 0; level < ancestor; level++) {
      const pick = tie === 'dmodk' ? ((dstKey / spread) | 0) % k : tie === 'hash' ? hash32(src, dst, (salt ^ Math.imul(hops, 0x9e3779b1)) >>> 0) % k : 0;
      spread *= k;
      c = outChannels[outStart[v] + k + pick];
      channels[hops] = c;
      vcClass[hops++] = 0;
      v = chDst[c];
    }
    for (let level = ancestor, digit = span / k; level >= 0; level--, digit /= k) {
      c = outChannels[outStart[v] + (((dst / digit) | 0) % k)];
      channels[hops] = c;
      vcClass[hops++] = 0;
      v = chDst[c];
    }
    return hops;
  };
}

/**
 * BookSim's `anca` (routefunc.cpp fattree_anca), adaptive nearest common ancestor on a k-ary n-tree:
 * at every switch below the nearest common ancestor two up-ports are drawn at random (with
 * replacement) and the one with fewer credits in use is taken (the first on a tie, as BookSim's `>`
 * compare); from the ancestor down by the destination's digits, as `nca`. Every route is minimal.
 * Packet level: re-routed at every router (hopByHop) from the credits in use there, BookSim's
 * GetUsedCredit of the output port (every VC). Flow level: the unfinished flows per channel, the
 * whole path read at flow start (the approximation `adaptive` and DAL share). The two draws at a
 * switch hash the packet's salt and the switch's level, so a route and a re-route at the same switch
 * draw the same ports; with BookSim's stream (`ctx.stream`) the switch routing the head draws them
 * from it, as BookSim's router does.
 */
export function ancaRouting(topology: Topology, opts: { readonly seed?: number } = {}): HopByHopRouting {
  const shape = familyOf(topology)?.kAryTree?.(topology);
  if (!shape) throw new InputError('routing', `anca on ${topology.family}`, "a k-ary n-tree (fattree), BookSim's fattree_anca");
  const t = topology;
  const { k, levels } = shape;
  const terminals = k ** levels;
  const perLevel = k ** (levels - 1);
  const seed = (opts.seed ?? 1) >>> 0;
  const { outStart, outChannels, chDst } = t;
  const walk = (at: number, dst: number, salt: number, out: RouteBuffers, start: number, ctx: RouteContext | undefined): number => {
    // BookSim's stream draws at the switch routing the head now; later switches re-route it themselves.
    let stream = ctx?.stream;
    let v = at;
    let hops = start;
    while (v >= terminals) {
      const level = ((v - terminals) / perLevel) | 0;
      const w = (v - terminals) % perLevel;
      const span = k ** level;
      let port: number;
      // A level-l switch spans the k^(l+1) terminals whose digits above l are its own digits from l.
      if (((dst / (span * k)) | 0) === ((w / span) | 0)) port = ((dst / span) | 0) % k;
      else {
        const first = outStart[v] + k;
        const r1 = stream ? stream.int(k) : independentDraw(salt, seed, 2 * level) % k;
        const r2 = stream ? stream.int(k) : independentDraw(salt, seed, 2 * level + 1) % k;
        port = k + (loadOf(ctx, outChannels[first + r1]) > loadOf(ctx, outChannels[first + r2]) ? r2 : r1);
      }
      const c = outChannels[outStart[v] + port];
      out.channels[hops] = c;
      out.vcClass[hops++] = 0;
      v = chDst[c];
      stream = undefined;
    }
    if (v !== dst) throw new Error(`anca: reached terminal ${v}, not ${dst}`);
    return hops;
  };
  return {
    name: 'anca',
    params: {
      rule: "BookSim's fattree_anca: up by the less loaded of two random up-ports, then down by the destination's digits",
      seed,
      load: 'packet: credits in use on the output port at the router taking the hop; flow: unfinished flows over the channel, the whole path read at flow start',
    },
    vcClasses: 1,
    deadlockFree: true,
    maxHops: 2 * levels,
    adaptive: true,
    hopByHop: true,
    drawsFromStream: true,
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      if (src === dst) return 0;
      if (src >= terminals) return walk(src, dst, salt, out, 0, ctx);
      out.channels[0] = outChannels[outStart[src]];
      out.vcClass[0] = 0;
      return walk(chDst[out.channels[0]], dst, salt, out, 1, ctx);
    },
    reroute: (_src, at, dst, salt, out, ctx) => walk(at, dst, salt, out, 0, ctx),
  };
}

export const upDownEntry: RoutingEntry = {
  name: 'updown',
  description: 'up/down for fat trees and two-level networks, destination-mod-k over parallel up-links',
  create: (topology, opts) => upDownRouting(topology, { cacheBytes: opts.cacheBytes }),
};

export const ecmpEntry: RoutingEntry = {
  name: 'ecmp',
  description: 'up/down with a per-flow hash over parallel up-links (ECMP)',
  create: (topology, opts) => upDownRouting(topology, { ecmp: true, seed: opts.seed, cacheBytes: opts.cacheBytes }),
};

export const ncaEntry: RoutingEntry = {
  name: 'nca',
  description: "BookSim's fat-tree nca: a random up-port per packet (hashed per packet), then down",
  create: (topology, opts) => upDownRouting(topology, { nca: true, seed: opts.seed, cacheBytes: opts.cacheBytes }),
};

export const ancaEntry: RoutingEntry = {
  name: 'anca',
  description: "BookSim's fat-tree anca: the less loaded of two random up-ports at every up hop, then down (k-ary n-trees)",
  create: (topology, opts) => ancaRouting(topology, { seed: opts.seed }),
};
