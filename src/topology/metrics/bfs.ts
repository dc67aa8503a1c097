/**
 * Breadth-first search over the CSR arrays of a Topology, counting compute endpoints per level.
 *
 * Hand-written (no graph library) because it is the inner loop of every exact metric: all-pairs BFS
 * on 16,384 nodes is 2^31 edge visits, so the loop touches only flat Int32Arrays, allocates nothing
 * per source, and never clears the visited array (a per-search stamp replaces clearing).
 */
import type { Topology } from '../graph.js';

/** Out-neighbour lists as node ids (CSR), flattened once so the BFS loop skips the channel indirection. */
export interface NeighbourLists {
  readonly numNodes: number;
  /** Neighbours of v are adj[start[v] .. start[v+1]). */
  readonly start: Int32Array;
  readonly adj: Int32Array;
}

export function neighbourLists(t: Topology): NeighbourLists {
  const adj = new Int32Array(t.numChannels);
  for (let i = 0; i < t.numChannels; i++) adj[i] = t.chDst[t.outChannels[i]];
  return { numNodes: t.numNodes, start: t.outStart, adj };
}

/** Reusable buffers for repeated searches over one graph. */
export class BfsWorkspace {
  readonly seen: Int32Array;
  readonly queue: Int32Array;
  private stamp = 0;
  /** Deepest level (graph hops) the last search recorded. */
  lastLevel = 0;

  constructor(numNodes: number) {
    this.seen = new Int32Array(numNodes);
    this.queue = new Int32Array(numNodes);
  }

  nextStamp(): number {
    this.stamp++;
    return this.stamp;
  }
}

/**
 * One search from `source`. For each level h (graph hops), adds `weight` × (endpoints at hop h) to
 * `histogram[h]`, growing nothing: `histogram` must have numNodes entries. Stops as soon as every
 * endpoint has been reached. Returns the number of endpoints reached (the source included when it
 * is one).
 */
export function bfsEndpointLevels(
  g: NeighbourLists,
  ws: BfsWorkspace,
  isEndpoint: Uint8Array,
  totalEndpoints: number,
  source: number,
  histogram: Float64Array,
  weight: number,
): number {
  const { start, adj } = g;
  const seen = ws.seen;
  const queue = ws.queue;
  const stamp = ws.nextStamp();
  seen[source] = stamp;
  queue[0] = source;
  let head = 0;
  let tail = 1;
  let level = 0;
  let reached = 0;
  ws.lastLevel = 0;
  while (head < tail) {
    const levelEnd = tail;
    let found = 0;
    for (let q = head; q < levelEnd; q++) found += isEndpoint[queue[q]];
    if (found > 0) {
      histogram[level] += weight * found;
      reached += found;
      ws.lastLevel = level;
      if (reached === totalEndpoints) break;
    }
    for (; head < levelEnd; head++) {
      const v = queue[head];
      for (let i = start[v], end = start[v + 1]; i < end; i++) {
        const w = adj[i];
        if (seen[w] !== stamp) {
          seen[w] = stamp;
          queue[tail++] = w;
        }
      }
    }
    level++;
  }
  return reached;
}

/**
 * Weighted hop histogram of BFS from every source: histogram[h] = Σ weight × endpoints at hop h.
 * Plain arrays in and out, so a worker thread can run a share of the sources.
 */
export function searchHops(
  g: NeighbourLists,
  isEndpoint: Uint8Array,
  totalEndpoints: number,
  sources: Int32Array,
  weights: Float64Array,
): Float64Array {
  const ws = new BfsWorkspace(g.numNodes);
  const histogram = new Float64Array(g.numNodes + 1);
  for (let i = 0; i < sources.length; i++) {
    bfsEndpointLevels(g, ws, isEndpoint, totalEndpoints, sources[i], histogram, weights[i]);
  }
  return histogram;
}
