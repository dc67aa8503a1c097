/**
 * Router-to-router distances, for shortest-path style routings on indirect networks whose
 * terminals each hang off one router (fat trees, two-level networks, dragonflies, HyperX, Slim Fly,
 * PolarFly...).
 *
 * There a terminal destination's distance array is its router's plus one hop (every path into the
 * terminal enters through its one link, and terminals never carry transit traffic), so one row per
 * destination *router*, sized by routers, gives the same distances the per-destination BFS over
 * every node gives (distance-cache.ts), and hence the same routes. A 32,768-host fat tree has 3,072
 * switches: its whole table is 36 MiB where one BFS row per endpoint would be 4.7 GB, and the 64 MiB
 * LRU of endpoint rows held 468 destinations, so recursive doubling missed on every message.
 */
import type { Topology } from '../topology/graph.js';
import { DestinationLru } from './distance-cache.js';

export class RouterDistances {
  /** node id -> its index among routers, or -1 for terminals. */
  readonly routerIndex: Int32Array;
  /** terminal node id -> the router it hangs off (routers: themselves). */
  readonly attachedRouter: Int32Array;
  readonly numRouters: number;
  private readonly rows: { get(router: number): Int32Array };
  /** Rows computed so far (for tests). */
  builds = 0;

  private constructor(t: Topology, routerIndex: Int32Array, attachedRouter: Int32Array, numRouters: number, budgetBytes: number) {
    this.routerIndex = routerIndex;
    this.attachedRouter = attachedRouter;
    this.numRouters = numRouters;
    const queue = new Int32Array(numRouters);
    const capacity = Math.max(1, Math.floor(budgetBytes / (4 * Math.max(1, numRouters))));
    const build = (router: number): Int32Array => {
      this.builds++;
      return reverseRouterBfs(t, router, routerIndex, queue);
    };
    // When the whole table fits the budget, rows are kept by router index: no LRU bookkeeping.
    if (capacity >= numRouters) {
      const all: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(numRouters);
      this.rows = { get: (router) => (all[routerIndex[router]] ??= build(router)) };
    } else {
      this.rows = new DestinationLru(capacity, build);
    }
  }

  /**
   * The table for `t`, or undefined where it does not give the per-node BFS's distances: terminals
   * that carry transit traffic (direct networks), or a terminal with other than one link to one router.
   */
  static forTopology(t: Topology, budgetBytes: number): RouterDistances | undefined {
    if (t.distanceConvention === 'router-hops') return undefined;
    const n = t.numNodes;
    const routerIndex = new Int32Array(n).fill(-1);
    const attachedRouter = new Int32Array(n);
    let numRouters = 0;
    for (let v = 0; v < n; v++) {
      if (t.nodeKind[v] !== 0) {
        routerIndex[v] = numRouters++;
        attachedRouter[v] = v;
      }
    }
    if (numRouters === 0) return undefined;
    for (let v = 0; v < n; v++) {
      if (t.nodeKind[v] !== 0) continue;
      if (t.outDegree(v) !== 1 || t.inDegree(v) !== 1) return undefined;
      const router = t.chDst[t.outChannels[t.outStart[v]]];
      if (t.nodeKind[router] === 0 || t.chSrc[t.inChannels[t.inStart[v]]] !== router) return undefined;
      attachedRouter[v] = router;
    }
    return new RouterDistances(t, routerIndex, attachedRouter, numRouters, budgetBytes);
  }

  /** row[i] = hops from the i-th router to `router` over router-to-router channels, or -1. */
  row(router: number): Int32Array {
    return this.rows.get(router);
  }

  private cur: Int32Array = new Int32Array(0);
  private dst = -1;
  /** 1 when the destination is a terminal (its router's row plus the last hop), else 0. */
  private lastHop = 0;

  /** Makes `at` answer distances to node `dst`. */
  prepare(dst: number): void {
    this.dst = dst;
    this.cur = this.rows.get(this.attachedRouter[dst]);
    this.lastHop = this.routerIndex[dst] < 0 ? 1 : 0;
  }

  /** Hops from node x to the prepared destination (the per-node BFS's dist[x]), or -1. */
  at(x: number): number {
    if (x === this.dst) return 0;
    const r = this.cur[this.routerIndex[this.attachedRouter[x]]];
    if (r < 0) return -1;
    return r + this.lastHop + (this.routerIndex[x] < 0 ? 1 : 0);
  }
}

/** Reverse BFS from `dst` over channels between routers; distances indexed by router index. */
function reverseRouterBfs(t: Topology, dst: number, routerIndex: Int32Array, queue: Int32Array): Int32Array {
  const dist = new Int32Array(queue.length).fill(-1);
  let head = 0;
  let tail = 0;
  dist[routerIndex[dst]] = 0;
  queue[tail++] = dst;
  while (head < tail) {
    const v = queue[head++];
    const dv = dist[routerIndex[v]] + 1;
    for (let i = t.inStart[v]; i < t.inStart[v + 1]; i++) {
      const u = t.chSrc[t.inChannels[i]];
      const ui = routerIndex[u];
      if (ui < 0 || dist[ui] >= 0) continue;
      dist[ui] = dv;
      queue[tail++] = u;
    }
  }
  return dist;
}
