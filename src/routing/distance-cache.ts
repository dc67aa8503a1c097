/**
 * Per-destination BFS distance arrays, kept in a least-recently-used cache under a memory budget.
 *
 * Shortest-path style routings (any graph, up/down, dragonfly minimal) need, at each hop, the
 * distance of every neighbour to the destination. One Int32Array of N entries per destination is
 * built on demand by one reverse BFS; never an N² table: at most `budgetBytes / (4N)` arrays are
 * held at once, the least recently used one is dropped first.
 */
import type { Topology } from '../topology/graph.js';

/** Default memory budget for cached distance arrays: 64 MiB. */
export const DEFAULT_ROUTE_CACHE_BYTES = 64 * 1024 * 1024;

export class DistanceCache {
  private readonly cache = new Map<number, Int32Array>();
  private readonly capacity: number;
  private readonly queue: Int32Array;
  /** Distances computed so far (for tests and the result record). */
  builds = 0;

  constructor(
    private readonly topology: Topology,
    budgetBytes = DEFAULT_ROUTE_CACHE_BYTES,
    /** Restricts the BFS to channels this predicate accepts (e.g. no terminal transit). */
    private readonly usable: (channel: number) => boolean = () => true,
  ) {
    this.capacity = Math.max(1, Math.floor(budgetBytes / (4 * Math.max(1, topology.numNodes))));
    this.queue = new Int32Array(topology.numNodes);
  }

  /** dist[v] = hops from v to `dst` over usable channels, or -1 when unreachable. */
  to(dst: number): Int32Array {
    const hit = this.cache.get(dst);
    if (hit) {
      // Re-insert to mark it most recently used (Map keeps insertion order).
      this.cache.delete(dst);
      this.cache.set(dst, hit);
      return hit;
    }
    const dist = this.bfsTo(dst);
    if (this.cache.size >= this.capacity) {
      const oldest = this.cache.keys().next().value as number;
      this.cache.delete(oldest);
    }
    this.cache.set(dst, dist);
    return dist;
  }

  private bfsTo(dst: number): Int32Array {
    this.builds++;
    const t = this.topology;
    const dist = new Int32Array(t.numNodes).fill(-1);
    const q = this.queue;
    let head = 0;
    let tail = 0;
    const transit = t.distanceConvention === 'router-hops';
    dist[dst] = 0;
    q[tail++] = dst;
    while (head < tail) {
      const v = q[head++];
      // Reverse BFS: predecessors u of v over channels u -> v.
      for (let i = t.inStart[v]; i < t.inStart[v + 1]; i++) {
        const c = t.inChannels[i];
        if (!this.usable(c)) continue;
        const u = t.chSrc[c];
        if (dist[u] >= 0) continue;
        dist[u] = dist[v] + 1;
        // In an indirect network a terminal has no router: it is a route's end, never its middle.
        if (transit) q[tail++] = u;
        else if (t.nodeKind[u] !== 0) q[tail++] = u;
      }
    }
    return dist;
  }
}
