/**
 * `anynet-min`: BookSim 2.0's `min` routing on an anynet network (anynet.cpp `min_anynet` and
 * `buildRoutingTable`, @ 28f43299), on `anynet:PATH,model=booksim` (interop/anynet.ts). Each router
 * runs Dijkstra from itself over the channel latencies ("distance is hops not cycles" in its
 * comment, but it adds latencies), finalising the closest unvisited router, the lowest id on a tie,
 * and relaxing its channels in ascending neighbour order with a strict `<`, so the first router
 * to reach a distance stays the predecessor. A packet at router r for a node on router d leaves by
 * r's channel towards the first router of r's own tree path to d: one path per pair, every VC.
 * Nothing makes it deadlock free with one VC class; a traffic run names it and runs it as BookSim
 * does, a deadlock reported as one.
 */
import { InputError } from '../util/errors.js';
import { NodeKind, type Topology } from '../topology/graph.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

/** Routers whose next-hop table (routers² entries) is built at most: 64 MiB of Int32. */
export const MAX_ANYNET_ROUTERS = 4096;

/** Per source router s and destination router d, the channel s leaves by (-1 for s = d). */
export function anynetNextChannels(t: Topology): Int32Array {
  const routers = t.params.routers as number;
  const cycle = t.params.cycle_s as number;
  const next = new Int32Array(routers * routers).fill(-1);
  const dist = new Float64Array(routers);
  const prev = new Int32Array(routers);
  const done = new Uint8Array(routers);
  // One entry per improvement: at most one per channel relaxed, plus the source.
  const heap = new MinHeap(t.numChannels + 1);
  for (let s = 0; s < routers; s++) {
    dist.fill(Infinity);
    prev.fill(-1);
    done.fill(0);
    dist[s] = 0;
    heap.push(0, s);
    while (heap.size > 0) {
      const u = heap.pop();
      if (done[u]) continue;
      done[u] = 1;
      // Out-channels are in BookSim's port order (interop/anynet.ts): terminals, then routers ascending.
      for (let i = t.outStart[u]; i < t.outStart[u + 1]; i++) {
        const c = t.outChannels[i];
        const v = t.chDst[c];
        if (v >= routers) continue;
        const d = dist[u] + Math.round(t.chLatency[c] / cycle);
        if (d < dist[v]) {
          dist[v] = d;
          prev[v] = u;
          heap.push(d, v);
        }
      }
    }
    for (let d = 0; d < routers; d++) {
      if (d === s) continue;
      if (prev[d] < 0) throw new InputError('routing', `anynet-min from router ${s} to router ${d}`, 'a network where every router reaches every other (BookSim 2.0 loops forever in buildRoutingTable otherwise)');
      let hop = d;
      while (prev[hop] !== s) hop = prev[hop];
      next[s * routers + d] = t.channelBetween(s, hop);
    }
  }
  return next;
}

export function anynetMinRouting(topology: Topology): RoutingFunction {
  const t = topology;
  if (t.params.format !== 'anynet' || t.params.model !== 'booksim') throw new InputError('routing', `anynet-min on ${t.spec}`, 'an anynet:PATH,model=booksim topology (BookSim defines min on its anynet network only)');
  const routers = t.params.routers as number;
  if (routers > MAX_ANYNET_ROUTERS) throw new InputError('routing', `anynet-min on ${routers} routers`, `at most ${MAX_ANYNET_ROUTERS} routers (the next-hop table holds routers² entries)`);
  const next = anynetNextChannels(t);
  return {
    name: 'anynet-min',
    params: { table: "BookSim's min_anynet: Dijkstra from each router over channel latencies, lowest id first on ties" },
    vcClasses: 1,
    deadlockFree: false,
    maxHops: routers + 1,
    route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      let hops = 0;
      let at = src;
      if (t.nodeKind[src] === NodeKind.Terminal) {
        const up = t.outChannels[t.outStart[src]];
        out.channels[hops] = up;
        out.vcClass[hops++] = 0;
        at = t.chDst[up];
      }
      const target = t.nodeKind[dst] === NodeKind.Terminal ? t.chSrc[t.inChannels[t.inStart[dst]]] : dst;
      while (at !== target) {
        const c = next[at * routers + target];
        out.channels[hops] = c;
        out.vcClass[hops++] = 0;
        at = t.chDst[c];
      }
      if (target !== dst) {
        out.channels[hops] = t.channelBetween(target, dst);
        out.vcClass[hops++] = 0;
      }
      return hops;
    },
  };
}

export const anynetMinEntry: RoutingEntry = {
  name: 'anynet-min',
  description: "BookSim's min routing on its anynet network (anynet:PATH,model=booksim): one latency-shortest path per router pair, BookSim's Dijkstra ties",
  create: (topology) => anynetMinRouting(topology),
};

/** A binary heap of (distance, router), smallest distance first and the lowest router on a tie: BookSim's scan order. */
class MinHeap {
  private readonly key: Float64Array;
  private readonly val: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.key = new Float64Array(capacity);
    this.val = new Int32Array(capacity);
  }

  private less(i: number, j: number): boolean {
    return this.key[i] < this.key[j] || (this.key[i] === this.key[j] && this.val[i] < this.val[j]);
  }

  private swap(i: number, j: number): void {
    const k = this.key[i];
    this.key[i] = this.key[j];
    this.key[j] = k;
    const v = this.val[i];
    this.val[i] = this.val[j];
    this.val[j] = v;
  }

  push(key: number, val: number): void {
    let i = this.size++;
    this.key[i] = key;
    this.val[i] = val;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): number {
    const top = this.val[0];
    this.size--;
    if (this.size > 0) {
      this.key[0] = this.key[this.size];
      this.val[0] = this.val[this.size];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.size && this.less(l, m)) m = l;
        if (r < this.size && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}
