/**
 * Per-destination BFS distance arrays, kept in a least-recently-used cache under a memory budget.
 *
 * Shortest-path style routings (any graph, up/down, dragonfly minimal, up*\/down*) need, at each
 * hop, the distance of every neighbour to the destination. One Int32Array of N entries per
 * destination is built on demand by one reverse BFS; never an N² table: at most
 * `budgetBytes / (4N)` arrays are held at once, the least recently used one is dropped first.
 */
import type { Topology } from '../topology/graph.js';

/** Default memory budget for cached distance arrays: 64 MiB. */
export const DEFAULT_ROUTE_CACHE_BYTES = 64 * 1024 * 1024;

/** What `build` makes per destination, for the `capacity` most recently used destinations. */
export class DestinationLru<T> {
  private readonly cache = new Map<number, T>();

  constructor(
    private readonly capacity: number,
    private readonly build: (dst: number) => T,
  ) {}

  get(dst: number): T {
    const hit = this.cache.get(dst);
    if (hit !== undefined) {
      // Re-insert to mark it most recently used (Map keeps insertion order).
      this.cache.delete(dst);
      this.cache.set(dst, hit);
      return hit;
    }
    const value = this.build(dst);
    if (this.cache.size >= this.capacity) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(dst, value);
    return value;
  }
}

/**
 * dist[v] = hops from v to `dst` over channels `usable` accepts, or -1 when unreachable (reverse
 * BFS; in an indirect network a terminal is a route's end, never its middle). `queue` is scratch
 * space of at least numNodes entries.
 */
export function reverseBfsDistances(t: Topology, dst: number, usable: (channel: number) => boolean, queue: Int32Array): Int32Array {
  const dist = new Int32Array(t.numNodes).fill(-1);
  let head = 0;
  let tail = 0;
  const transit = t.distanceConvention === 'router-hops';
  dist[dst] = 0;
  queue[tail++] = dst;
  while (head < tail) {
    const v = queue[head++];
    // Predecessors u of v over channels u -> v.
    for (let i = t.inStart[v]; i < t.inStart[v + 1]; i++) {
      const c = t.inChannels[i];
      if (!usable(c)) continue;
      const u = t.chSrc[c];
      if (dist[u] >= 0) continue;
      dist[u] = dist[v] + 1;
      if (transit || t.nodeKind[u] !== 0) queue[tail++] = u;
    }
  }
  return dist;
}

export class DistanceCache {
  private readonly lru: DestinationLru<Int32Array>;
  /** Distances computed so far (for tests and the result record). */
  builds = 0;

  constructor(
    topology: Topology,
    budgetBytes = DEFAULT_ROUTE_CACHE_BYTES,
    /** Restricts the BFS to channels this predicate accepts (e.g. no terminal transit). */
    usable: (channel: number) => boolean = () => true,
  ) {
    const capacity = Math.max(1, Math.floor(budgetBytes / (4 * Math.max(1, topology.numNodes))));
    const queue = new Int32Array(topology.numNodes);
    this.lru = new DestinationLru(capacity, (dst) => {
      this.builds++;
      return reverseBfsDistances(topology, dst, usable, queue);
    });
  }

  /** dist[v] = hops from v to `dst` over usable channels, or -1 when unreachable. */
  to(dst: number): Int32Array {
    return this.lru.get(dst);
  }
}
