/**
 * Dimension-order routing for mesh and torus (any number of dimensions, mixed radices).
 *
 * Each dimension is resolved completely before the next, in `order`. On a torus ring the shorter
 * direction is taken; at a distance of exactly k/2 the `tie` mode picks it. Deadlock freedom on the
 * torus uses BookSim's deterministic dateline (routefunc.cpp, `dor_next_torus`): when a packet
 * turns into a dimension it fixes its VC class for that whole dimension — class 1 if the remaining
 * path in that dimension crosses the wrap-around link between k−1 and 0, class 0 otherwise.
 * (BookSim's own non-balanced branch tests `dest < cur` for the minus direction, which marks the
 * non-crossing packets instead; with minimal routes both are deadlock free, and this file follows
 * the documented dateline. See docs/packet.md.)
 */
import { InputError } from '../util/errors.js';
import { hash32, independentDraw, type RandomStream } from '../util/rng.js';
import type { Topology } from '../topology/graph.js';
import { familyOf } from '../topology/registry.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export type TorusTieBreak = 'positive' | 'negative' | 'split' | 'parity' | 'random' | 'simgrid';
export const TORUS_TIE_BREAKS: readonly TorusTieBreak[] = ['positive', 'negative', 'split', 'parity', 'random', 'simgrid'];

export interface DimensionOrderOptions {
  /** Dimensions in the order they are resolved; default 0, 1, 2, ... */
  order?: readonly number[];
  /**
   * Direction at a distance of exactly k/2 on a torus ring; default 'positive'.
   * - positive: always the + direction (negative: always −);
   * - split: half the (source, destination) pairs each way, by a hash of the pair and dimension;
   * - parity: + when the source's coordinate in that dimension is even, − when odd;
   * - random: per packet, from the route salt and `seed` (BookSim's `RandomInt(1)` at the turn).
   */
  tie?: TorusTieBreak;
  /** Seed for tie = 'random'. */
  seed?: number;
  /**
   * The torus VC class rule: `crossing` (default: class 1 for the packets whose path in the
   * dimension crosses the wrap link k−1 → 0, as the dateline is documented) or `booksim` (BookSim's
   * `dor_next_torus`, non-balanced branch: class 1 when the destination's coordinate is below the
   * current one, the same on the + side and, on the − side, the packets that do not cross), or
   * `balanced` (BookSim's `dim_order_bal`, Cray's partition allocation: class 1 for the packets that
   * cross the wrap link, class 0 for those that cross the ring's middle between ⌊(k−1)/2⌋ and the
   * next router, either class for the others, drawn per packet and dimension from the salt and `seed`).
   */
  dateline?: TorusDateline;
}

export type TorusDateline = 'crossing' | 'booksim' | 'balanced';
export const TORUS_DATELINES: readonly TorusDateline[] = ['crossing', 'booksim', 'balanced'];

export function dimensionOrderRouting(topology: Topology, opts: DimensionOrderOptions = {}): RoutingFunction {
  const grid = topology.coords ? familyOf(topology)?.grid?.(topology) : undefined;
  if (!grid || !topology.coords) throw new InputError('routing', `dimension-order on ${topology.family}`, 'a mesh or torus topology');
  const { dims, wrap } = grid;
  const nd = dims.length;
  const order = opts.order ? [...opts.order] : dims.map((_, d) => d);
  const sorted = [...order].sort((a, b) => a - b);
  if (order.length !== nd || sorted.some((d, i) => d !== i)) {
    throw new InputError('routing.order', order.join(','), `a permutation of 0..${nd - 1}`);
  }
  const tie = opts.tie ?? 'positive';
  if (!TORUS_TIE_BREAKS.includes(tie)) throw new InputError('routing.tie', tie, TORUS_TIE_BREAKS.join(' | '));
  const seed = (opts.seed ?? 0) >>> 0;
  const dateline = opts.dateline ?? 'crossing';
  if (!TORUS_DATELINES.includes(dateline)) throw new InputError('routing.dateline', dateline, TORUS_DATELINES.join(' | '));
  const booksimDateline = dateline === 'booksim';
  const balanced = dateline === 'balanced';

  // Flat neighbour table: channel leaving node v in dimension d, direction 0 (+) or 1 (−); -1 if none.
  const n = topology.numNodes;
  const next = new Int32Array(n * nd * 2).fill(-1);
  for (let c = 0; c < topology.numChannels; c++) {
    const s = topology.chSrc[c];
    const t = topology.chDst[c];
    let dim = 0;
    while (dim < nd && topology.coords[s * nd + dim] === topology.coords[t * nd + dim]) dim++;
    const minus = topology.className(c).endsWith('-') ? 1 : 0;
    next[(s * nd + dim) * 2 + minus] = c;
  }
  const hasWrap = wrap && dims.some((k) => k > 2);
  const maxHops = dims.reduce((sum, k) => sum + (wrap ? Math.floor(k / 2) : k - 1), 0);
  const coords = topology.coords;

  function route(src: number, dst: number, salt: number, out: RouteBuffers): number {
    let hops = 0;
    let cur = src;
    for (let i = 0; i < nd; i++) {
      const d = order[i];
      const k = dims[d];
      const x = coords[cur * nd + d];
      const y = coords[dst * nd + d];
      if (x === y) continue;
      let minus: number;
      let steps: number;
      let cls = 0;
      if (!wrap || k <= 2) {
        minus = y > x ? 0 : 1;
        steps = y > x ? y - x : x - y;
      } else {
        const fwd = (y - x + k) % k;
        if (2 * fwd < k) minus = 0;
        else if (2 * fwd > k) minus = 1;
        else minus = tieMinus(src, dst, salt, d, x);
        steps = minus === 0 ? fwd : k - fwd;
        cls = ringClass(x, y, minus, k);
        if (cls < 0) cls = independentDraw(salt, seed, d + 0x6261) & 1;
      }
      for (let s = 0; s < steps; s++) {
        const c = next[(cur * nd + d) * 2 + minus];
        out.channels[hops] = c;
        out.vcClass[hops] = cls;
        hops++;
        cur = topology.chDst[c];
      }
    }
    return hops;
  }

  /**
   * The VC class on a ring from x to y in direction `minus`. `crossing`: class 1 if the path crosses
   * the wrap link (+: y < x, −: y > x); `booksim`: dor_next_torus's non-balanced test, `dest < cur`
   * in both directions; `balanced` (dor_next_torus with balance): the wrap link forces class 1, the
   * middle class 0, else a coin: −1, for the caller to draw.
   */
  function ringClass(x: number, y: number, minus: number, k: number): number {
    if (balanced) {
      if (minus === 0 ? x > y : x < y) return 1;
      const mid = Math.floor((k - 1) / 2);
      if (minus === 0 ? x <= mid && y > mid : x > mid && y <= mid) return 0;
      return -1;
    }
    return (y < x ? minus === 0 || booksimDateline : minus === 1 && !booksimDateline) ? 1 : 0;
  }

  /** The dimension channel c moves along (its endpoints differ only there). */
  function dimensionOf(c: number): number {
    const s = topology.chSrc[c];
    const t = topology.chDst[c];
    let dim = 0;
    while (dim < nd && coords[s * nd + dim] === coords[t * nd + dim]) dim++;
    return dim;
  }

  /**
   * BookSim's draws as a head turns into a ring (routefunc.cpp dor_next_torus): the side of a k/2
   * tie, `RandomInt(1)` (1: +), then under `balanced` the partition where neither datelines forces
   * it. The hops in that dimension are rewritten to match.
   */
  function drawAtTurn(node: number, prev: number, dst: number, channels: Int32Array, classes: Uint8Array, at: number, end: number, stream: RandomStream): number {
    if (at === end) return end;
    const d = dimensionOf(channels[at]);
    if (prev >= 0 && dimensionOf(prev) === d) return end;
    const k = dims[d];
    const x = coords[node * nd + d];
    const y = coords[dst * nd + d];
    const fwd = (y - x + k) % k;
    const tied = 2 * fwd === k && tie === 'random';
    if (!tied && !balanced) return end;
    let minus = topology.className(channels[at]).endsWith('-') ? 1 : 0;
    if (tied) minus = stream.int(2) === 1 ? 0 : 1;
    let cls = ringClass(x, y, minus, k);
    if (cls < 0) cls = stream.int(2);
    const steps = minus === 0 ? fwd : k - fwd;
    let cur = node;
    for (let s = 0; s < steps; s++) {
      const c = next[(cur * nd + d) * 2 + minus];
      channels[at + s] = c;
      classes[at + s] = cls;
      cur = topology.chDst[c];
    }
    return end;
  }

  function tieMinus(src: number, dst: number, salt: number, d: number, x: number): number {
    switch (tie) {
      case 'positive':
        return 0;
      case 'negative': // used by the flow engine to send exactly half of a tied flow each way
        return 1;
      case 'split':
        return hash32(src, dst, d) & 1;
      case 'parity':
        return x & 1;
      case 'random':
        return independentDraw(salt, seed, d) & 1;
      case 'simgrid':
        // SimGrid's TorusZone::get_local_route: + unless the source coordinate is k/2 itself
        // (its test `myCoords[j] > cur_dim / 2` is false there, so the route goes −).
        return 2 * x === dims[d] ? 1 : 0;
    }
  }

  return {
    name: `dimension-order(tie=${tie},order=${order.join(',')}${hasWrap && dateline !== 'crossing' ? `,dateline=${dateline}` : ''})`,
    params: {
      routing: 'dimension-order',
      order,
      tie,
      seed,
      dateline: !hasWrap ? 'none' : booksimDateline ? 'booksim: dest < cur → class 1' : balanced ? 'balanced: wrap → class 1, middle → class 0, else random' : 'wrap k-1→0 → class 1',
    },
    vcClasses: hasWrap ? 2 : 1,
    deadlockFree: true,
    maxHops,
    route,
    // BookSim draws at a turn only for its own random side (tie=random) or partition (balanced).
    ...(hasWrap && (tie === 'random' || balanced) ? { drawAtTurn } : {}),
  };
}

/**
 * Dimension order as the registry builds it. For the flow engine with tie = split, an even salt
 * takes the + direction at a k/2 tie and an odd salt the − direction, and `params.split` = 'halves'
 * tells the flow engine to send exactly half of each tied flow each way (the packet engine's split
 * is per pair, by hash).
 */
export const dimensionOrderEntry: RoutingEntry = {
  name: 'dor',
  description: 'dimension order on mesh and torus (dateline VC classes on a torus); --tie picks the k/2 direction',
  create(topology, opts) {
    const common = { order: opts.order, seed: opts.seed, dateline: opts.dateline };
    if (opts.tie !== 'split' || opts.engine !== 'flow') return dimensionOrderRouting(topology, { ...common, tie: opts.tie });
    const plus = dimensionOrderRouting(topology, { ...common, tie: 'positive' });
    const minus = dimensionOrderRouting(topology, { ...common, tie: 'negative' });
    return {
      name: plus.name.replace('tie=positive', 'tie=split-halves'),
      params: { ...plus.params, tie: 'split', split: 'halves' },
      vcClasses: plus.vcClasses,
      deadlockFree: plus.deadlockFree,
      maxHops: plus.maxHops,
      route: (src, dst, salt, out) => ((salt & 1) === 0 ? plus : minus).route(src, dst, salt, out),
    };
  },
};

/** BookSim's `dim_order_bal` on a torus: dimension order, random k/2 side, the balanced (Cray partition) VC classes. */
export const dimensionOrderBalancedEntry: RoutingEntry = {
  name: 'dor-bal',
  description: "BookSim's dim_order_bal on a torus: dimension order with Cray's partition VC classes (wrap: class 1, middle: class 0, else random)",
  create(topology, opts) {
    const grid = topology.coords ? familyOf(topology)?.grid?.(topology) : undefined;
    if (!grid?.wrap) throw new InputError('routing', `dor-bal on ${topology.family}`, 'a torus (BookSim defines dim_order_bal_torus only)');
    return dimensionOrderRouting(topology, { order: opts.order, seed: opts.seed, tie: opts.tie ?? 'random', dateline: 'balanced' });
  },
};
