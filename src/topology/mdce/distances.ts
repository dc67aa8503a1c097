/**
 * Exact distance statistics of a direct network from BFS, one source per declared symmetry class,
 * for Table 1 and the seed 004 tests.
 *
 * Hand-written tight BFS over the CSR arrays (flat Int32Array queue, reused distance array) because
 * Table 1's 524,288-node rows need 8–16 full BFS passes each and must stay exact, never sampled.
 * TODO(metrics): when `computeMetrics` (src/topology/metrics) lands on main, use it here instead.
 */
import { InputError } from '../../util/errors.js';
import type { SourceClasses, Topology } from '../graph.js';

export interface DistanceStats {
  diameter: number;
  /** Mean over all N² ordered endpoint pairs, self-pairs (distance 0) included. */
  meanWithSelf: number;
  /** Mean over the N(N−1) pairs of distinct endpoints. */
  meanWithoutSelf: number;
  /** histogram[d] = number of ordered endpoint pairs at distance d. */
  histogram: number[];
  /** BFS passes run (one per symmetry class, or one per endpoint without symmetry). */
  sources: number;
}

/** Flat out-neighbour lists (CSR order): one indirection less per edge in the BFS inner loop. */
export function outNeighbours(t: Topology): Int32Array {
  const next = new Int32Array(t.numChannels);
  for (let i = 0; i < next.length; i++) next[i] = t.chDst[t.outChannels[i]];
  return next;
}

/**
 * BFS distances from `source` into `dist` (−1 = unreachable), using `queue` as scratch.
 * Both arrays must hold topology.numNodes entries; `next` is outNeighbours(t).
 */
export function bfsInto(t: Topology, next: Int32Array, source: number, dist: Int32Array, queue: Int32Array): void {
  const outStart = t.outStart;
  dist.fill(-1);
  dist[source] = 0;
  queue[0] = source;
  let head = 0;
  let tail = 1;
  while (head < tail) {
    const u = queue[head++];
    const du = dist[u] + 1;
    for (let i = outStart[u], end = outStart[u + 1]; i < end; i++) {
      const v = next[i];
      if (dist[v] < 0) {
        dist[v] = du;
        queue[tail++] = v;
      }
    }
  }
}

/**
 * Exact diameter, means and histogram between compute endpoints (router-hops convention).
 * With `useSymmetry` (default) one BFS per declared class; otherwise one per endpoint.
 */
export function exactDistanceStats(t: Topology, opts: { useSymmetry?: boolean } = {}): DistanceStats {
  if (t.distanceConvention !== 'router-hops') {
    throw new InputError('topology', t.spec, 'a direct network (router-hops distances)');
  }
  const classes: SourceClasses['classes'] =
    opts.useSymmetry !== false && t.symmetry
      ? t.symmetry.classes
      : Array.from({ length: t.numEndpoints }, (_, rank) => ({ rank, count: 1 }));
  const dist = new Int32Array(t.numNodes);
  const queue = new Int32Array(t.numNodes);
  const histogram: number[] = [];
  const endpoints = t.endpoints;
  const next = outNeighbours(t);
  for (const { rank, count } of classes) {
    bfsInto(t, next, endpoints[rank], dist, queue);
    const local = new Float64Array(t.numNodes + 1);
    let maxD = 0;
    for (let r = 0; r < endpoints.length; r++) {
      const d = dist[endpoints[r]];
      if (d < 0) throw new InputError('topology', t.spec, 'a strongly connected network (some endpoint is unreachable)');
      local[d]++;
      if (d > maxD) maxD = d;
    }
    for (let d = 0; d <= maxD; d++) histogram[d] = (histogram[d] ?? 0) + local[d] * count;
  }
  let pairs = 0;
  let total = 0;
  for (let d = 0; d < histogram.length; d++) {
    histogram[d] = histogram[d] ?? 0;
    pairs += histogram[d];
    total += d * histogram[d];
  }
  const N = t.numEndpoints;
  return {
    diameter: histogram.length - 1,
    meanWithSelf: total / pairs,
    meanWithoutSelf: N > 1 ? total / (pairs - N) : 0,
    histogram,
    sources: classes.length,
  };
}
