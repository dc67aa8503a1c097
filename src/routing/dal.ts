/**
 * DAL, Dimensionally-Adaptive, Load-balanced routing for HyperX and the flattened butterfly
 * (Ahn, Binkert, Davis, McLaren, Schreiber, "HyperX: Topology, Routing, and Packaging of Efficient
 * Large-Scale Networks", SC'09). The paper's rule: at every hop the packet may move in any
 * dimension in which it is not yet aligned with its destination, and in each dimension it may be
 * derouted (sent to a coordinate other than the destination's) at most once; after a deroute in a
 * dimension its next hop there is the minimal one. The choice among the allowed hops is made hop
 * by hop from the queues the router sees.
 *
 * Meshwork's reading of the choice (the paper gives no formula): the minimal candidate is the
 * least-loaded channel to the destination coordinate of any unaligned dimension, the deroute
 * candidate the least-loaded channel to another coordinate of an unaligned dimension not yet
 * derouted; the packet deroutes only when 1·q_min > 2·q_der + threshold, the UGAL comparison of
 * hops × queue applied to one dimension (minimal: 1 hop, deroute: 2), with UGAL's thresholds:
 * BookSim's 2 credits at packet level, 0 flows at flow level (UGAL_FLOW_THRESHOLD says why). So on
 * an idle network DAL is minimal.
 *
 * The packet's state needs no per-packet field: in dimension d, at coordinate c, with source s and
 * destination t coordinates, c = t is aligned, c = s (≠ t) is untouched, and anything else has
 * been derouted (a deroute never returns to s). The packet engine asks `reroute` at every router
 * (`hopByHop`), so each hop reads the credits of the router it is taken at.
 *
 * Deadlock freedom, Meshwork's scheme (hop classes, Dally & Seitz), not the paper's: the potential
 * Φ = Σ_d φ_d, φ_d = 0 untouched, 1 derouted, 2 aligned after a hop, rises by at least 1 on every
 * network hop and departs from at most 2n − 1, so a hop taken at Φ on VC class Φ climbs in class:
 * 2n classes for n dimensions, no cycle within one. `test/routing/dal.test.ts` runs it through the
 * packet engine's deadlock detector at full adversarial load.
 *
 * Flow engine: `route` walks the whole path at flow start with the same rule, the loads being the
 * unfinished flows per channel (sim/flow/channel-load.ts), the documented flow-level approximation
 * shared with `adaptive` and UGAL.
 */
import { InputError } from '../util/errors.js';
import { hash32 } from '../util/rng.js';
import { NodeKind, type Topology } from '../topology/graph.js';
import type { AdaptiveRouting } from './dragonfly.js';
import type { RoutingEntry } from './registry.js';
import { loadOf, type RouteBuffers, type RouteContext, type RoutingFunction } from './types.js';
import { UGAL_FLOW_THRESHOLD, UGAL_THRESHOLD } from './adaptive.js';

/** A routing the packet engine re-routes at every router from the credits seen there. */
export interface HopByHopRouting extends AdaptiveRouting {
  readonly hopByHop: true;
  /**
   * Writes the rest of the route of a packet from node `src` to node `dst` that is now at router
   * `at` (its first channel leaves `at`), with its VC classes; returns its length in hops.
   */
  reroute(src: number, at: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number;
}

export const isHopByHop = (r: RoutingFunction): r is HopByHopRouting => (r as Partial<HopByHopRouting>).hopByHop === true;

export function dalRouting(topology: Topology, opts: { engine?: 'flow' | 'packet' } = {}): HopByHopRouting {
  const t = topology;
  const dims = (t.params as { dims?: unknown }).dims;
  if (!Array.isArray(dims) || (t.family !== 'hyperx' && t.family !== 'flatfly') || !t.coords) {
    throw new InputError('routing', 'dal', `a topology that fits it (hyperx or flatfly, not ${t.family})`);
  }
  const n = dims.length;
  const classes = 2 * n;
  const threshold = opts.engine === 'flow' ? UGAL_FLOW_THRESHOLD : UGAL_THRESHOLD;
  // Per channel: the dimension it moves in (-1 for terminal channels) and the coordinate it reaches.
  const chDim = new Int8Array(t.numChannels).fill(-1);
  const chTo = new Int32Array(t.numChannels);
  for (let c = 0; c < t.numChannels; c++) {
    const a = t.chSrc[c];
    const b = t.chDst[c];
    if (t.nodeKind[a] === NodeKind.Terminal || t.nodeKind[b] === NodeKind.Terminal) continue;
    for (let d = 0; d < n; d++) {
      if (t.coord(a, d) !== t.coord(b, d)) {
        chDim[c] = d;
        chTo[c] = t.coord(b, d);
      }
    }
  }
  const terminalLink = (v: number): number => t.outChannels[t.outStart[v]];
  /** The channel from router v into terminal dst. */
  const ejection = (v: number, dst: number): number => {
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) if (t.chDst[t.outChannels[i]] === dst) return t.outChannels[i];
    throw new Error(`no channel from ${v} to terminal ${dst}`);
  };
  /** Φ of a packet at node v (the class of its next network hop). */
  const potential = (src: number, v: number, dst: number): number => {
    let phi = 0;
    for (let d = 0; d < n; d++) {
      const c = t.coord(v, d);
      if (c === t.coord(dst, d)) phi += t.coord(src, d) === c ? 0 : 2;
      else if (c !== t.coord(src, d)) phi += 1;
    }
    return phi;
  };
  /** The DAL hop from router v; -1 when v is the destination's router. */
  const nextHop = (src: number, v: number, dst: number, salt: number, hop: number, ctx: RouteContext | undefined): number => {
    let bestMin = Infinity;
    let minCh = -1;
    let minTies = 0;
    let bestDer = Infinity;
    let derCh = -1;
    let derTies = 0;
    const h = (salt ^ Math.imul(hop + 1, 0x9e3779b1)) >>> 0;
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const c = t.outChannels[i];
      const d = chDim[c];
      if (d < 0) continue;
      const here = t.coord(v, d);
      const goal = t.coord(dst, d);
      if (here === goal) continue;
      const q = loadOf(ctx, c);
      // Ties broken by a reservoir draw on hash(src, dst, salt, hop): one pass, no buffer.
      if (chTo[c] === goal) {
        if (q < bestMin) {
          bestMin = q;
          minCh = c;
          minTies = 1;
        } else if (q === bestMin && hash32(h, c, 1) % ++minTies === 0) minCh = c;
      } else if (here === t.coord(src, d)) {
        if (q < bestDer) {
          bestDer = q;
          derCh = c;
          derTies = 1;
        } else if (q === bestDer && hash32(h, c, 2) % ++derTies === 0) derCh = c;
      }
    }
    if (minCh < 0) return -1;
    return derCh >= 0 && bestMin > 2 * bestDer + threshold ? derCh : minCh;
  };
  const walk = (src: number, at: number, dst: number, salt: number, out: RouteBuffers, start: number, ctx: RouteContext | undefined): number => {
    let hops = start;
    let v = at;
    for (;;) {
      const c = nextHop(src, v, dst, salt, hops, ctx);
      if (c < 0) break;
      out.channels[hops] = c;
      out.vcClass[hops++] = potential(src, v, dst);
      v = t.chDst[c];
    }
    if (v !== dst) {
      out.channels[hops] = ejection(v, dst);
      out.vcClass[hops++] = classes - 1;
    }
    return hops;
  };
  const self: HopByHopRouting = {
    name: 'dal',
    params: {
      rule: "Ahn et al. SC'09 DAL: any unaligned dimension, at most one deroute per dimension; deroute when q_min > 2·q_deroute + threshold",
      threshold,
      load: opts.engine === 'flow' ? 'unfinished flows over the channel, the whole path read at flow start' : 'credits in use at the router taking the hop (hop by hop)',
      vcClasses: `hop potential Φ (0 untouched, 1 derouted, 2 aligned per dimension): ${classes} classes`,
      ejection: 'every VC',
    },
    vcClasses: classes,
    deadlockFree: true,
    ejectAnyVc: true,
    maxHops: 2 * n + 2,
    adaptive: true,
    hopByHop: true,
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      if (src === dst) return 0;
      if (t.nodeKind[src] !== NodeKind.Terminal) return walk(src, src, dst, salt, out, 0, ctx);
      out.channels[0] = terminalLink(src);
      out.vcClass[0] = 0;
      return walk(src, t.chDst[out.channels[0]], dst, salt, out, 1, ctx);
    },
    reroute: (src, at, dst, salt, out, ctx) => walk(src, at, dst, salt, out, 0, ctx),
  };
  return self;
}

export const dalEntry: RoutingEntry = {
  name: 'dal',
  description: "DAL (Ahn et al. SC'09): hop by hop, any unaligned dimension, at most one deroute per dimension, 2n VC classes (hyperx, flatfly)",
  create: (topology, opts) => dalRouting(topology, { engine: opts.engine }),
};
