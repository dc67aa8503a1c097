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

/** Eccentricity (hops) up to which 32-source bit-parallel search beats 32 separate searches. */
const BATCH_MAX_DEPTH = 24;

/**
 * Weighted hop histogram of BFS from every source: histogram[h] = Σ weight × endpoints at hop h.
 * Plain arrays in and out, so a worker thread can run a share of the sources. Unit-weight runs on
 * shallow graphs (all-pairs on random or expander-like graphs) go 32 sources at a time through
 * bitParallelLevels: each level costs one pass over the channels for 32 searches.
 */
export function searchHops(
  g: NeighbourLists,
  isEndpoint: Uint8Array,
  totalEndpoints: number,
  sources: Int32Array,
  weights: Float64Array,
  /** Called with the number of sources searched so far, after each batch or single search. */
  onSearched?: (searched: number) => void,
): Float64Array {
  const ws = new BfsWorkspace(g.numNodes);
  const histogram = new Float64Array(g.numNodes + 1);
  let next = 0;
  const unitWeights = weights.every((w) => w === 1);
  if (unitWeights && sources.length >= 64) {
    bfsEndpointLevels(g, ws, isEndpoint, totalEndpoints, sources[0], histogram, 1);
    next = 1;
    // A first search that must go deep predicts the others will: then batching does not pay.
    if (ws.lastLevel <= BATCH_MAX_DEPTH) {
      const masks = new BitParallelWorkspace(g.numNodes);
      for (; next + 32 <= sources.length; next += 32) {
        bitParallelLevels(g, masks, isEndpoint, sources.subarray(next, next + 32), histogram);
        onSearched?.(next + 32);
      }
    }
  }
  for (let i = next; i < sources.length; i++) {
    bfsEndpointLevels(g, ws, isEndpoint, totalEndpoints, sources[i], histogram, weights[i]);
    onSearched?.(i + 1);
  }
  return histogram;
}

export class BitParallelWorkspace {
  readonly seen: Int32Array;
  readonly frontier: Int32Array;
  readonly reach: Int32Array;
  constructor(numNodes: number) {
    this.seen = new Int32Array(numNodes);
    this.frontier = new Int32Array(numNodes);
    this.reach = new Int32Array(numNodes);
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * Up to 32 breadth-first searches at once (multi-source BFS, Then et al., VLDB 2014): bit j of a
 * node's mask says whether search j has reached it. Adds endpoints per hop, unit weight per search.
 */
export function bitParallelLevels(
  g: NeighbourLists,
  ws: BitParallelWorkspace,
  isEndpoint: Uint8Array,
  sources: Int32Array,
  histogram: Float64Array,
): void {
  const { start, adj, numNodes: n } = g;
  const { seen, frontier, reach } = ws;
  seen.fill(0);
  frontier.fill(0);
  reach.fill(0);
  let found = 0;
  for (let j = 0; j < sources.length; j++) {
    const bit = 1 << j;
    seen[sources[j]] |= bit;
    frontier[sources[j]] |= bit;
    found += isEndpoint[sources[j]];
  }
  histogram[0] += found;
  for (let level = 1; ; level++) {
    for (let v = 0; v < n; v++) {
      const f = frontier[v];
      if (f === 0) continue;
      for (let i = start[v], end = start[v + 1]; i < end; i++) reach[adj[i]] |= f;
    }
    let any = 0;
    found = 0;
    for (let v = 0; v < n; v++) {
      const fresh = reach[v] & ~seen[v];
      reach[v] = 0;
      frontier[v] = fresh;
      if (fresh !== 0) {
        seen[v] |= fresh;
        any = 1;
        if (isEndpoint[v] === 1) found += popcount(fresh);
      }
    }
    if (any === 0) return;
    histogram[level] += found;
  }
}
