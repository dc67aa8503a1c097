/**
 * Bisection width: the fewest channels that cross any partition of the compute endpoints into two
 * halves (⌊E/2⌋ and ⌈E/2⌉; switches may sit on either side). Channels are counted in both
 * directions (Dally & Towles' channel bisection B_C); `links` = channels / 2.
 *
 * Exact where a closed form is known — the optimal cut is an explicit partition, evaluated on the
 * actual graph so generator details (multiplicities, k = 2 dimensions) are honoured. Grids (the
 * family's `grid`) are halved here; other families declare their cut (`bisectionCut`):
 *   ring/uring: two arcs;  mesh/torus with an even largest radix: halve that dimension;
 *   hypercube: halve one dimension;  fullmesh: any balanced split;
 *   fattree (k-ary n-tree, N even): full bisection, the N/2 terminal links;
 *   twolevel (even leaves, uplinks a multiple of spines): min(S·m, S·U)/2 links.
 * Otherwise, on graphs of at most EXHAUSTIVE_MAX_NODES nodes, exact by trying every partition; on
 * larger ones an upper bound: the best of id halves, coordinate halves and terminal-only cuts,
 * improved by greedy moves that keep the endpoint halves balanced. Closed forms are checked against brute
 * force on small instances in test/topology/metrics.test.ts.
 */
import type { Topology } from '../graph.js';
import { familyOf } from '../registry.js';
import { cutOf, idHalves, terminalOnly, type Sides } from './partitions.js';
import { productShape } from './product.js';

export { cutOf } from './partitions.js';

export interface Bisection {
  /** Channels crossing the cut, both directions counted. */
  readonly channels: number;
  /** channels / 2: bidirectional links cut (for directed graphs, channel pairs). */
  readonly links: number;
  /** Total bandwidth of the crossing channels, both directions, bytes/s. */
  readonly bandwidth: number;
  /** True for a closed form; false means `channels` is an upper bound from a heuristic partition. */
  readonly exact: boolean;
  readonly method: string;
}

function result(t: Topology, side: Sides, exact: boolean, method: string): Bisection {
  const { channels, bandwidth } = cutOf(t, side);
  return { channels, links: channels / 2, bandwidth, exact, method };
}

function closedForm(t: Topology): Bisection | undefined {
  if (t.numEndpoints < 2) return undefined;
  const shape = productShape(t);
  if (shape) {
    // Halve the largest radix; optimal when it is even (k-ary n-cube and mixed-radix results).
    let dim = 0;
    for (let d = 1; d < shape.dims.length; d++) if (shape.dims[d] > shape.dims[dim]) dim = d;
    const k = shape.dims[dim];
    if (k % 2 !== 0) return undefined;
    let stride = 1;
    for (let d = 0; d < dim; d++) stride *= shape.dims[d];
    const side = new Uint8Array(t.numNodes);
    for (let v = 0; v < t.numNodes; v++) side[v] = Math.floor(v / stride) % k >= k / 2 ? 1 : 0;
    return result(t, side, true, `closed form (${shape.label}: halve the largest (even) radix ${k})`);
  }
  const cut = familyOf(t)?.bisectionCut?.(t);
  return cut && result(t, cut.side, true, cut.method);
}

/** Largest graph the greedy refinement runs on; beyond it the bound is the best starting partition. */
export const REFINE_MAX_NODES = 1 << 14;

/**
 * Largest graph whose bisection is found by trying every partition (2^(n−1) of them, ~10 ms at 20):
 * a small custom graph has no closed form, and the heuristic can miss its optimum (a triangle with
 * one doubled link: 3 channels found, 2 true).
 */
export const EXHAUSTIVE_MAX_NODES = 20;

export function bisection(t: Topology): Bisection {
  const exact = closedForm(t);
  if (exact) return exact;
  if (t.numNodes <= EXHAUSTIVE_MAX_NODES && t.numEndpoints >= 2) {
    return result(t, exhaustiveSides(t), true, `exhaustive search (all ${2 ** (t.numNodes - 1)} partitions of ${t.numNodes} nodes)`);
  }
  const candidates: Array<[string, Sides]> = [['id halves', idHalves(t)]];
  if (t.coords) {
    for (let d = 0; d < t.coordDims; d++) candidates.push([`coordinate ${d} halves`, coordinateHalves(t, d)]);
  }
  candidates.push(['terminal-only cut', terminalOnly(t)]);
  let best: Bisection | undefined;
  for (const [name, side] of candidates) {
    if (t.numNodes <= REFINE_MAX_NODES) refine(t, side);
    const b = result(t, side, false, `upper bound (best balanced partition found: ${name}${t.numNodes <= REFINE_MAX_NODES ? ', refined by greedy moves' : ''})`);
    if (!best || b.channels < best.channels) best = b;
  }
  return best!;
}

/**
 * The balanced partition of fewest crossing channels, over every side assignment with node 0 on
 * side 0 (the cut is symmetric in the sides), in Gray-code order: each step moves one node, and the
 * cut changes by that node's channels alone (+1 for a neighbour it leaves, −1 for one it joins).
 */
function exhaustiveSides(t: Topology): Sides {
  const n = t.numNodes;
  const side = new Uint8Array(n);
  const lo = Math.floor(t.numEndpoints / 2);
  const hi = Math.ceil(t.numEndpoints / 2);
  let cut = 0;
  let endpointsOnOne = 0;
  let best = Infinity;
  let bestGray = 0;
  for (let i = 1; i < 2 ** (n - 1); i++) {
    const v = 31 - Math.clz32(i & -i) + 1; // the bit Gray code flips at step i, node 0 excluded
    let delta = 0;
    for (let k = t.outStart[v]; k < t.outStart[v + 1]; k++) {
      const u = t.chDst[t.outChannels[k]];
      if (u !== v) delta += side[u] === side[v] ? 1 : -1;
    }
    for (let k = t.inStart[v]; k < t.inStart[v + 1]; k++) {
      const u = t.chSrc[t.inChannels[k]];
      if (u !== v) delta += side[u] === side[v] ? 1 : -1;
    }
    side[v] ^= 1;
    cut += delta;
    if (t.rankOfNode[v] >= 0) endpointsOnOne += side[v] === 1 ? 1 : -1;
    if (cut < best && endpointsOnOne >= lo && endpointsOnOne <= hi) {
      best = cut;
      bestGray = i ^ (i >>> 1);
    }
  }
  const out = new Uint8Array(n);
  for (let v = 1; v < n; v++) out[v] = (bestGray >>> (v - 1)) & 1;
  return out;
}

/** Nodes ordered by (coordinate d, id), split at the endpoint median. Counting sort: coordinates are small integers. */
function coordinateHalves(t: Topology, d: number): Sides {
  const n = t.numNodes;
  const dims = t.coordDims;
  const coords = t.coords!;
  let lo = Infinity;
  let hi = -Infinity;
  for (let v = 0; v < n; v++) {
    const c = coords[v * dims + d];
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  }
  const side = new Uint8Array(n);
  if (!(hi - lo < 4 * n + 16)) return idHalves(t); // sparse coordinates: fall back to id order
  const start = new Int32Array(hi - lo + 2);
  for (let v = 0; v < n; v++) start[coords[v * dims + d] - lo + 1]++;
  for (let i = 1; i < start.length; i++) start[i] += start[i - 1];
  const order = new Int32Array(n);
  for (let v = 0; v < n; v++) order[start[coords[v * dims + d] - lo]++] = v;
  const half = Math.floor(t.numEndpoints / 2);
  let seen = 0;
  for (const v of order) {
    side[v] = seen >= half ? 1 : 0;
    if (t.rankOfNode[v] >= 0) seen++;
  }
  return side;
}

/**
 * Greedy improvement keeping the endpoint halves: switches move alone when that lowers the cut;
 * endpoints move in pairs (the best-gain endpoint of each side). Stops at a local optimum.
 */
function refine(t: Topology, side: Sides): void {
  const n = t.numNodes;
  const gain = new Int32Array(n); // cut reduction if v changes side
  const recompute = (v: number): void => {
    let g = 0;
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) g += side[t.chDst[t.outChannels[i]]] !== side[v] ? 1 : -1;
    for (let i = t.inStart[v]; i < t.inStart[v + 1]; i++) g += side[t.chSrc[t.inChannels[i]]] !== side[v] ? 1 : -1;
    gain[v] = g;
  };
  const flip = (v: number): void => {
    side[v] ^= 1;
    recompute(v);
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) recompute(t.chDst[t.outChannels[i]]);
    for (let i = t.inStart[v]; i < t.inStart[v + 1]; i++) recompute(t.chSrc[t.inChannels[i]]);
  };
  const edgesBetween = (a: number, b: number): number => {
    let w = 0;
    for (let i = t.outStart[a]; i < t.outStart[a + 1]; i++) if (t.chDst[t.outChannels[i]] === b) w++;
    for (let i = t.inStart[a]; i < t.inStart[a + 1]; i++) if (t.chSrc[t.inChannels[i]] === b) w++;
    return w;
  };
  for (let v = 0; v < n; v++) recompute(v);
  const maxMoves = Math.min(4 * n, 2000);
  for (let moves = 0; moves < maxMoves; moves++) {
    let bestSwitch = -1;
    const best = [-1, -1];
    for (let v = 0; v < n; v++) {
      if (t.rankOfNode[v] < 0) {
        if (gain[v] > 0 && (bestSwitch < 0 || gain[v] > gain[bestSwitch])) bestSwitch = v;
      } else if (best[side[v]] < 0 || gain[v] > gain[best[side[v]]]) {
        best[side[v]] = v;
      }
    }
    if (bestSwitch >= 0) {
      flip(bestSwitch);
      continue;
    }
    const [a, b] = best;
    if (a < 0 || b < 0 || gain[a] + gain[b] - 2 * edgesBetween(a, b) <= 0) return;
    flip(a);
    flip(b);
  }
}
