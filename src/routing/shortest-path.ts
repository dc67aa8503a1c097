/**
 * Shortest-path routing for any graph, with a deterministic tie-break among equal-length next hops.
 *
 * - `lowest`: the out-channel with the lowest port index (fully deterministic, one path per pair);
 * - `dmodk`: destination-mod-k (Zahavi's D-mod-k): at the h-th hop that has c equal choices, take
 *   choice ⌊dst / (c_1·…·c_{h−1})⌋ mod c, so destinations spread evenly over parallel up-links;
 * - `hash`: per-flow hash of (src, dst, salt), i.e. ECMP; the same salt gives the same path.
 *
 * Distances come from a per-destination BFS cache under a memory budget (distance-cache.ts), or
 * from tables sized by routers (router-distances.ts) or a closed form (fabric-distances.ts) where
 * those give the same distances.
 */
import { InputError } from '../util/errors.js';
import { hash32 } from '../util/rng.js';
import type { Topology } from '../topology/graph.js';
import { DEFAULT_ROUTE_CACHE_BYTES, DistanceCache } from './distance-cache.js';
import { familyOf } from '../topology/registry.js';
import { RouterDistances } from './router-distances.js';
import { FabricDistances, FabricOrCachedDistances } from './fabric-distances.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export type ShortestPathTie = 'lowest' | 'dmodk' | 'hash';
export const SHORTEST_PATH_TIES: readonly ShortestPathTie[] = ['lowest', 'dmodk', 'hash'];

export interface ShortestPathOptions {
  tie?: ShortestPathTie;
  /** Memory budget for cached per-destination distances, bytes (default 64 MiB). */
  cacheBytes?: number;
  /** Name recorded in results (wrappers such as up/down pass their own). */
  name?: string;
  /** Channels allowed on routes; default all. */
  usable?: (channel: number) => boolean;
  /**
   * Whether these routes are deadlock free with one VC class. Default: only with the lowest-port
   * tie on a family that declares it (a hypercube's lowest port is e-cube routing).
   */
  deadlockFree?: boolean;
}

/**
 * Most steps longestRoute spends reading distances (2^28, about a second): hyperx:32x32's 1,024
 * endpoints take 2^20 reads and 1,024 router rows, a 16,384-host network 2^28 reads.
 */
const LONGEST_ROUTE_WORK = 2 ** 28;

/** Upper bound on hops used to size route buffers when the diameter is not known in advance. */
function hopBound(t: Topology): number {
  return Math.max(1, t.numNodes);
}

export function shortestPathRouting(topology: Topology, opts: ShortestPathOptions = {}): RoutingFunction & { readonly cache: DistanceCache } {
  const tie = opts.tie ?? 'lowest';
  if (!SHORTEST_PATH_TIES.includes(tie)) throw new InputError('routing.tie', tie, SHORTEST_PATH_TIES.join(', '));
  const t = topology;
  const cache = new DistanceCache(t, opts.cacheBytes ?? DEFAULT_ROUTE_CACHE_BYTES, opts.usable);
  const usable = opts.usable;
  // Channel-restricted routings keep the per-node BFS; otherwise rows sized by routers where they
  // give the same distances (router-distances.ts).
  const table = usable ? undefined : RouterDistances.forTopology(t, opts.cacheBytes ?? DEFAULT_ROUTE_CACHE_BYTES);
  const cachedDistances = new CachedDistances(cache);
  // The accelerator fabrics: distances in closed form (fabric-distances.ts), the same routes.
  const fabric = usable || table ? undefined : FabricDistances.forTopology(t);
  const distances: NodeDistances = table ?? (fabric ? new FabricOrCachedDistances(fabric, cachedDistances) : cachedDistances);
  const name = opts.name ?? `shortest-path(tie=${tie})`;
  const routing = {
    name,
    params: { tie, cacheBytes: opts.cacheBytes ?? DEFAULT_ROUTE_CACHE_BYTES },
    vcClasses: 1,
    deadlockFree: opts.deadlockFree ?? (tie === 'lowest' && familyOf(t)?.lowestPortIsDeadlockFree === true),
    maxHops: hopBound(t),
    cache,
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      return walk(src, dst, salt, out, distances);
    },
    longestRoute(): number {
      return (longest ??= fabric?.longest() ?? longestEndpointDistance(t, distances, table?.attachedRouter) ?? routing.maxHops);
    },
  };
  let longest: number | undefined;
  return routing;

  /**
   * Follows strictly decreasing distances from src to dst: at each hop the out-channels (in port
   * order) whose far end is one hop closer, the tie deciding among several.
   */
  function walk(src: number, dst: number, salt: number, out: RouteBuffers, dist: NodeDistances): number {
    dist.prepare(dst);
    if (dist.at(src) < 0) throw new InputError('route', `${src} -> ${dst}`, `a pair of nodes joined by a path in ${t.spec}`);
    // D-mod-k spreads by the destination's physical position, never by the rank a mapping gave it.
    const dstKey = t.physicalIndexOfNode[dst] >= 0 ? t.physicalIndexOfNode[dst] : dst;
    let v = src;
    let hops = 0;
    let spread = 1;
    while (v !== dst) {
      const want = dist.at(v) - 1;
      let count = 0;
      // Under the lowest-port tie only the first candidate matters: a known one, or the scan stops there.
      let first = tie === 'lowest' && dist.firstCloser ? dist.firstCloser(v) : -1;
      if (first >= 0 && dist.at(t.chDst[first]) !== want) throw new Error(`internal: the known next hop out of node ${v} toward ${dst} is not one hop closer`);
      for (let i = t.outStart[v]; i < t.outStart[v + 1] && !(first >= 0 && tie === 'lowest'); i++) {
        const c = t.outChannels[i];
        if (dist.at(t.chDst[c]) === want && (!usable || usable(c))) {
          if (first < 0) first = c;
          count++;
        }
      }
      let chosen = first;
      if (count > 1 && tie !== 'lowest') {
        const pick = tie === 'dmodk' ? Math.floor(dstKey / spread) % count : hash32(src, dst, (salt ^ Math.imul(hops, 0x9e3779b1)) >>> 0) % count;
        spread *= count;
        let k = 0;
        for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
          const c = t.outChannels[i];
          if (dist.at(t.chDst[c]) === want && (!usable || usable(c))) {
            if (k === pick) {
              chosen = c;
              break;
            }
            k++;
          }
        }
      }
      out.channels[hops] = chosen;
      out.vcClass[hops] = 0;
      hops++;
      v = t.chDst[chosen];
    }
    return hops;
  }
}

/** Distances to one destination at a time: a per-node BFS array, or the router table. */
export interface NodeDistances {
  prepare(dst: number): void;
  at(node: number): number;
  /** The lowest-port channel out of `node` one hop closer, where known without scanning its ports; -1 otherwise. */
  firstCloser?(node: number): number;
}

/** Per-destination BFS rows (DistanceCache) seen through NodeDistances. */
export class CachedDistances implements NodeDistances {
  private cur: Int32Array = new Int32Array(0);
  constructor(private readonly cache: DistanceCache) {}
  prepare(dst: number): void {
    this.cur = this.cache.to(dst);
  }
  at(node: number): number {
    return this.cur[node];
  }
}

/**
 * The longest route between endpoints of a routing that takes shortest paths (a route is exactly as
 * long as its source's distance to its destination): the largest endpoint-to-endpoint distance, one
 * distance row per destination, visited by the router `groupBy` gives (destinations on one router
 * share a table row, so an LRU of rows builds each once). Undefined where reading every pair would
 * cost more than LONGEST_ROUTE_WORK steps: the caller keeps its bound.
 */
export function longestEndpointDistance(t: Topology, dist: NodeDistances, groupBy?: Int32Array): number | undefined {
  const ends = t.endpoints;
  const perDestination = groupBy ? ends.length : ends.length + t.numNodes + t.numChannels;
  if (ends.length * perDestination > LONGEST_ROUTE_WORK) return undefined;
  const order = groupBy ? Int32Array.from(ends).sort((a, b) => groupBy[a] - groupBy[b] || a - b) : ends;
  let most = 1;
  for (const dst of order) {
    dist.prepare(dst);
    for (const src of ends) most = Math.max(most, dist.at(src));
  }
  return most;
}

export const shortestPathEntry: RoutingEntry = {
  name: 'shortest',
  description: 'shortest path on any graph, lowest-port tie-break (the default of families that declare none)',
  create: (topology, opts) => shortestPathRouting(topology, { tie: opts.shortestTie ?? 'lowest', cacheBytes: opts.cacheBytes }),
};
