/**
 * BookSim 2.0's `min_adapt` on a mesh and a torus (routefunc.cpp `min_adapt_mesh`,
 * `min_adapt_torus`): routed at every router from the VC the head arrived on, as a set of
 * (output channel, VC range, priority) candidates that the packet engine's VC allocator chooses
 * among (BookSim's iq_router `_VCAllocEvaluate` requests every VC of every candidate, with the
 * candidate's priority as the request's input priority).
 *
 * What BookSim's functions add, and what its OutputSet keeps: OutputSet is a std::set whose order
 * compares the priority alone (outputset.hpp `operator<`), so a second range of a priority already
 * in the set is dropped. Both functions add their adaptive ranges at priority 1 dimension by
 * dimension, lowest first, so only the lowest unresolved dimension's direction survives: the
 * candidates are that one direction plus the escape range at priority 0.
 * - mesh: escape VC 0 by dimension order (priority 0); unless the head is on VC 0 (it came in on
 *   the escape VC, where it stays) VCs 1..V−1 of the same port at priority 1. From the injection
 *   port every VC is a non-escape VC.
 * - torus: escape VCs 0 and 1 by dimension order with BookSim's dateline test (`dor_next_torus`,
 *   non-balanced: VC 1 when the destination's coordinate is below the current one); a head on VC 0
 *   or 1 stays there, continuing in its direction within a dimension and taking the VC of the test at
 *   a turn. Otherwise VC 3 alone (`vcBegin+3`; VC 2 and VCs above 3 serve only the injection port) at
 *   priority 1 toward the shorter side (the − side at a k/2 tie), and the escape VC as if the head
 *   were injected here (a fresh dateline test, a random side at a k/2 tie) at priority 0. BookSim
 *   needs 4 VCs for it.
 * Every candidate is minimal, so a packet's hop count is the dimension-order distance; `route`
 * gives the dimension-order path (the escape path from the source), which the flow engine uses.
 */
import { InputError } from '../util/errors.js';
import { independentDraw, type RandomStream } from '../util/rng.js';
import type { Topology } from '../topology/graph.js';
import { familyOf } from '../topology/registry.js';
import { dimensionOrderRouting } from './dimension-order.js';
import type { RoutingEntry } from './registry.js';
import { makeRouteBuffers, type RoutingFunction } from './types.js';

/** Where a head may go from a router: up to two (channel, VC range, priority) candidates. */
export interface HopCandidates {
  count: number;
  readonly channel: Int32Array;
  readonly vcLo: Int32Array;
  readonly vcHi: Int32Array;
  /** BookSim's input priority of the candidate's VC requests (higher first where the allocator reads it). */
  readonly priority: Int32Array;
}

export const MAX_HOP_CANDIDATES = 2;

export function makeHopCandidates(): HopCandidates {
  const n = MAX_HOP_CANDIDATES;
  return { count: 0, channel: new Int32Array(n), vcLo: new Int32Array(n), vcHi: new Int32Array(n), priority: new Int32Array(n) };
}

/** A routing the packet engine asks at every router (not the destination's) for the head's candidates. */
export interface CandidateRouting extends RoutingFunction {
  /** VCs the routing needs on router-to-router channels (the engine refuses fewer). */
  readonly minVcs: number;
  /**
   * Candidates at router `r` for a head to node `dst` on VC `inVc` of `inChannel` (-1: the injection
   * port), with `vcs` VCs per channel; `salt` seeds the random side at a torus k/2 tie, or `stream`
   * draws it where BookSim does (`drawsFromStream`).
   */
  candidates(r: number, dst: number, inChannel: number, inVc: number, salt: number, vcs: number, out: HopCandidates, stream?: RandomStream): void;
}

export function isCandidateRouting(routing: RoutingFunction): routing is CandidateRouting {
  return typeof (routing as Partial<CandidateRouting>).candidates === 'function';
}

function set(out: HopCandidates, i: number, channel: number, lo: number, hi: number, priority: number): void {
  out.channel[i] = channel;
  out.vcLo[i] = lo;
  out.vcHi[i] = hi;
  out.priority[i] = priority;
}

export function minAdaptRouting(topology: Topology, seedOption = 1): CandidateRouting {
  const grid = topology.coords ? familyOf(topology)?.grid?.(topology) : undefined;
  if (!grid || !topology.coords) throw new InputError('routing', `min-adapt on ${topology.family}`, 'a mesh or torus (BookSim defines min_adapt_mesh and min_adapt_torus)');
  const { dims, wrap } = grid;
  if (wrap && dims.some((k) => k < 3)) throw new InputError('routing', `min-adapt on ${topology.spec}`, 'a torus of radix ≥ 3 in every dimension');
  const nd = dims.length;
  const coords = topology.coords;
  const seed = seedOption >>> 0;
  // Channel leaving node v in dimension d, side 0 (+) or 1 (−); and each channel's dimension and side.
  const next = new Int32Array(topology.numNodes * nd * 2).fill(-1);
  const chDim = new Int32Array(topology.numChannels);
  const chMinus = new Uint8Array(topology.numChannels);
  for (let c = 0; c < topology.numChannels; c++) {
    const s = topology.chSrc[c];
    const t = topology.chDst[c];
    let d = 0;
    while (d < nd && coords[s * nd + d] === coords[t * nd + d]) d++;
    const minus = topology.className(c).endsWith('-') ? 1 : 0;
    next[(s * nd + d) * 2 + minus] = c;
    chDim[c] = d;
    chMinus[c] = minus;
  }
  // The escape path from the source: dimension order with BookSim's random k/2 side and dateline.
  const escape = dimensionOrderRouting(topology, { tie: 'random', seed, dateline: 'booksim' });

  function meshCandidates(r: number, dst: number, inChannel: number, inVc: number, vcs: number, out: HopCandidates): void {
    let d = 0;
    while (coords[r * nd + d] === coords[dst * nd + d]) d++;
    const ch = next[(r * nd + d) * 2 + (coords[dst * nd + d] > coords[r * nd + d] ? 0 : 1)];
    set(out, 0, ch, 0, 0, 0);
    out.count = (inChannel >= 0 && inVc === 0) || vcs < 2 ? 1 : 2;
    if (out.count === 2) set(out, 1, ch, 1, vcs - 1, 1);
  }

  function torusCandidates(r: number, dst: number, inChannel: number, inVc: number, salt: number, out: HopCandidates, stream: RandomStream | undefined): void {
    let d = 0;
    while (coords[r * nd + d] === coords[dst * nd + d]) d++;
    const x = coords[r * nd + d];
    const y = coords[dst * nd + d];
    const k = dims[d];
    // dor_next_torus: dist2 > 0 is the + side shorter; 0 a tie.
    const dist2 = k - 2 * ((y - x + k) % k);
    // BookSim's non-balanced dateline: VC 1 when dest < cur, whichever side (the + side: the packets
    // that cross the wrap link; the − side: those that do not).
    const ph = y < x ? 1 : 0;
    // BookSim's dor_next_torus draws the side of a tie, RandomInt(1) = 1 for +, only at a turn into
    // the dimension (the injection port counts as one).
    const turnMinus = (): number => (dist2 > 0 ? 0 : dist2 < 0 ? 1 : stream ? 1 - stream.int(2) : independentDraw(salt, seed, r) & 1);
    if (inChannel >= 0 && inVc <= 1) {
      // In the escape VCs: dimension order, the same side and VC within a dimension.
      const cont = chDim[inChannel] === d;
      const minus = cont ? chMinus[inChannel] : turnMinus();
      const vc = cont ? inVc : ph;
      set(out, 0, next[(r * nd + d) * 2 + minus], vc, vc, 0);
      out.count = 1;
      return;
    }
    set(out, 0, next[(r * nd + d) * 2 + (dist2 > 0 ? 0 : 1)], 3, 3, 1);
    set(out, 1, next[(r * nd + d) * 2 + turnMinus()], ph, ph, 0);
    out.count = 2;
  }

  return {
    name: `min-adapt(${wrap ? 'torus' : 'mesh'})`,
    params: {
      routing: 'min-adapt',
      booksim: wrap ? 'min_adapt_torus' : 'min_adapt_mesh',
      seed,
      path: wrap
        ? 'per hop: VC 3 toward the lowest unresolved dimension (priority 1) or the escape VC 0/1 by dimension order with the dateline (priority 0); a packet on VC 0/1 stays there'
        : 'per hop: dimension order, VCs 1..V-1 (priority 1) or the escape VC 0 (priority 0); a packet on VC 0 stays there',
    },
    vcClasses: 1,
    deadlockFree: true,
    maxHops: escape.maxHops,
    minVcs: wrap ? 4 : 1,
    ...(wrap ? { drawsFromStream: true as const } : {}),
    route: escape.route,
    candidates(r, dst, inChannel, inVc, salt, vcs, out, stream) {
      if (wrap) torusCandidates(r, dst, inChannel, inVc, salt, out, stream);
      else meshCandidates(r, dst, inChannel, inVc, vcs, out);
    },
  };
}

export const minAdaptEntry: RoutingEntry = {
  name: 'min-adapt',
  description: "BookSim's min_adapt on a mesh or torus: escape VCs by dimension order, the others chosen per hop in VC allocation (packet engine)",
  create: (topology, opts) => minAdaptRouting(topology, opts.seed),
};

/**
 * BookSim 2.0's `planar_adapt` on a mesh (routefunc.cpp planar_adapt_mesh) as BookSim runs it on a
 * network without faults. In the adaptive plane of the lowest unresolved dimension n it adds the
 * productive channel of dimension n on VCs [2·⌊V/3⌋, V−1], then the productive channel of dimension
 * n + 1, both at priority 0; OutputSet keeps one range per priority (the header above), so the second
 * is dropped and every hop is dimension order on the top VCs. Injection and ejection take every VC.
 */
export function planarAdaptRouting(topology: Topology): CandidateRouting {
  const grid = topology.coords ? familyOf(topology)?.grid?.(topology) : undefined;
  if (!grid || grid.wrap || !topology.coords) throw new InputError('routing', `planar-adapt on ${topology.family}`, 'a mesh (BookSim defines planar_adapt_mesh only)');
  const dor = dimensionOrderRouting(topology);
  const buf = makeRouteBuffers(dor.maxHops);
  return {
    name: 'planar-adapt(mesh)',
    params: { routing: 'planar-adapt', booksim: 'planar_adapt_mesh', path: 'dimension order on VCs 2·⌊V/3⌋..V−1 (the second plane range BookSim adds at the same priority is dropped by its OutputSet); every VC at injection and ejection' },
    vcClasses: 1,
    deadlockFree: true,
    maxHops: dor.maxHops,
    minVcs: 1,
    route: dor.route,
    candidates(r, dst, _inChannel, _inVc, salt, vcs, out) {
      dor.route(r, dst, salt, buf);
      set(out, 0, buf.channels[0], 2 * Math.floor(vcs / 3), vcs - 1, 0);
      out.count = 1;
    },
  };
}

export const planarAdaptEntry: RoutingEntry = {
  name: 'planar-adapt',
  description: "BookSim's planar_adapt on a mesh without faults: dimension order on the top third of the VCs (packet engine)",
  create: (topology) => planarAdaptRouting(topology),
};
