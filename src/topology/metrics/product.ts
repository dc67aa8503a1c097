/**
 * Exact distance histograms of Cartesian products (mesh, torus, hypercube) without any search: the
 * distance between two nodes is the sum of per-dimension distances, so the histogram over all
 * ordered pairs is the convolution of the per-dimension histograms. Checked against BFS in
 * test/topology/metrics.test.ts.
 */
import type { Topology } from '../graph.js';
import { familyOf, type TopologyGrid } from '../registry.js';

/** Ordered-pair histogram of one dimension of radix k: a path (mesh) or a cycle (torus, k > 2). */
export function dimensionHistogram(k: number, wrap: boolean): number[] {
  if (!wrap || k <= 2) {
    // Path of k nodes: k pairs at 0, 2(k-d) ordered pairs at distance d.
    const h = [k];
    for (let d = 1; d < k; d++) h.push(2 * (k - d));
    return h;
  }
  // Cycle of k nodes: every node sees two nodes at each distance below k/2, one at k/2 when k is even.
  const h = [k];
  for (let d = 1; d <= Math.floor(k / 2); d++) h.push(2 * d === k ? k : 2 * k);
  return h;
}

export function convolve(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(a.length + b.length - 1).fill(0);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j] += a[i] * b[j];
  }
  return out;
}

export type ProductShape = Pick<TopologyGrid, "dims" | "wrap">;

/**
 * The Cartesian shape of a topology whose family declares a grid (mesh, torus, hypercube) and whose
 * nodes are all endpoints, cross-checked against the node and channel counts; undefined for
 * anything else (which then takes the BFS route).
 */
export function productShape(t: Topology): TopologyGrid | undefined {
  if (t.numEndpoints !== t.numNodes) return undefined;
  const shape = familyOf(t)?.grid?.(t);
  if (!shape || !shape.dims.every((k) => Number.isInteger(k) && k >= 1)) return undefined;
  const nodes = shape.dims.reduce((a, b) => a * b, 1);
  const expectedChannels = shape.dims.reduce((sum, k) => {
    const linksPerLine = shape.wrap && k > 2 ? k : k - 1;
    return sum + 2 * linksPerLine * (nodes / k);
  }, 0);
  return nodes === t.numNodes && expectedChannels === t.numChannels ? shape : undefined;
}

/** Histogram over all N² ordered node pairs of a product shape. */
export function productHistogram(shape: ProductShape): number[] {
  let h = [1];
  for (const k of shape.dims) h = convolve(h, dimensionHistogram(k, shape.wrap));
  return h;
}
