/**
 * Distances between compute endpoints, exact where the structure allows and honestly labelled
 * otherwise. Methods, fastest first:
 *   product   — mesh/torus/hypercube: convolution of per-dimension histograms (no search);
 *   symmetry  — one BFS per declared source class, weighted by the class size;
 *   all-pairs — one BFS per endpoint (exact; limited by a work budget);
 *   sampled   — BFS from seeded random endpoints; an estimate with a 95% interval.
 * Every histogram counts ordered endpoint pairs (self-pairs at distance 0) in the topology's
 * distance convention: router hops, or switches traversed (graph hops − 1 between two terminals).
 */
import { InputError, LimitError } from '../../util/errors.js';
import { Rng } from '../../util/rng.js';
import { routeHops, type Topology } from '../graph.js';
import { bfsEndpointLevels, BfsWorkspace, neighbourLists, NeighbourLists, searchHops } from './bfs.js';
import { productHistogram, productShape } from './product.js';

export type DistanceMethod = 'product' | 'symmetry' | 'all-pairs' | 'sampled';
export const DISTANCE_METHODS: readonly DistanceMethod[] = ['product', 'symmetry', 'all-pairs', 'sampled'];

/** Edge visits (BFS sources × channels) `auto` spends on all-pairs before it samples: 16,384 endpoints at out-degree 16. */
export const ALL_PAIRS_BUDGET = 2 ** 32;
/** Edge visits an explicitly requested all-pairs run may take before it is refused. */
export const ALL_PAIRS_LIMIT = 2 ** 34;
export const DEFAULT_SAMPLES = 256;
export const DEFAULT_SEED = 1;
/** Sampling keeps to about this many edge visits by default (fewer sources on huge graphs, never below 32). */
export const SAMPLED_BUDGET = 2 ** 30;

/** Refuses an explicit all-pairs run above ALL_PAIRS_LIMIT; also called from a size estimate, before building. */
export function checkAllPairsWork(endpoints: number, channels: number): void {
  if (endpoints * Math.max(1, channels) > ALL_PAIRS_LIMIT) {
    throw new LimitError('method', `all-pairs over ${endpoints} endpoints × ${channels} channels`, `${ALL_PAIRS_LIMIT} edge visits (2^34); use sampled`);
  }
}

/** Default number of sampled BFS sources: 256, or fewer on graphs with over 4M channels (at least 32). */
export function defaultSamples(t: Topology): number {
  return Math.max(32, Math.min(DEFAULT_SAMPLES, Math.floor(SAMPLED_BUDGET / Math.max(1, t.numChannels))));
}

export interface DistanceOptions {
  /** 'auto' (default) picks the first exact method that applies, else samples. */
  method?: DistanceMethod | 'auto';
  /** Sampled method: number of BFS sources (default: defaultSamples). */
  samples?: number;
  /** Sampled method: seed of the source choice (default 1). */
  seed?: number;
  /** Fraction of the BFS searches done, in [0, 1]; front ends draw a progress bar from it. */
  onProgress?: (fraction: number) => void;
}

export interface SampleInterval {
  readonly sources: number;
  readonly seed: number;
  readonly confidence: 0.95;
  /** 95% interval of the mean distance with self-pairs. */
  readonly meanWithSelf: readonly [number, number];
  readonly meanWithoutSelf: readonly [number, number];
}

export interface DistanceSummary {
  readonly method: DistanceMethod;
  /** False only for the sampled method. */
  readonly exact: boolean;
  /** Why this method (e.g. the symmetry the generator declared). */
  readonly reason: string;
  /** BFS searches run (0 for product). */
  readonly searches: number;
  readonly convention: Topology['distanceConvention'];
  /** histogram[d] = ordered endpoint pairs at distance d (self-pairs at 0). Sampled: scaled estimate. */
  readonly histogram: readonly number[];
  /** Endpoint count squared: every ordered pair, self-pairs included. */
  readonly pairs: number;
  /** Ordered pairs with no path (directed or disconnected graphs); excluded from means and diameter. */
  readonly unreachablePairs: number;
  /** Largest finite distance. Sampled: the largest seen, a lower bound. */
  readonly diameter: number;
  /** Mean over reachable ordered pairs including the self-pairs (distance 0). */
  readonly meanWithSelf: number;
  /** Mean over reachable ordered pairs of distinct endpoints. */
  readonly meanWithoutSelf: number;
  readonly interval?: SampleInterval;
}

/** BFS work of a method that searches: the sources (node ids) and the weight of each. */
export interface SearchPlan {
  readonly method: 'symmetry' | 'all-pairs';
  readonly reason: string;
  readonly sources: Int32Array;
  readonly weights: Float64Array;
}

/**
 * Chooses the method and either finishes without BFS sources to share out (product, sampled) or
 * returns the searches to run; `distanceSummary` runs them here, the Node adapter in worker threads.
 */
export function planDistances(t: Topology, opts: DistanceOptions = {}): DistanceSummary | SearchPlan {
  const method = opts.method ?? 'auto';
  if (method !== 'auto' && !DISTANCE_METHODS.includes(method)) {
    throw new InputError('method', method, `auto, ${DISTANCE_METHODS.join(', ')}`);
  }
  const endpoints = t.numEndpoints;
  if (endpoints === 0) throw new InputError('topology', t.spec, 'a topology with at least one compute endpoint');
  const shape = productShape(t);
  if (method === 'product' || (method === 'auto' && shape)) {
    if (!shape) throw new InputError('method', 'product', `a mesh, torus or hypercube (got ${t.family}); use auto, symmetry, all-pairs or sampled`);
    return summarise(t, 'product', `${shape.label}: convolution of per-dimension distance histograms`, 0, productHistogram(shape));
  }
  if (method === 'symmetry' || (method === 'auto' && t.symmetry)) {
    if (!t.symmetry) throw new InputError('method', 'symmetry', `a topology that declares symmetry (${t.family} does not); use auto, all-pairs or sampled`);
    return symmetryPlan(t);
  }
  if (t.explicitRoutes && (method === 'auto' || method === 'all-pairs')) return declaredRouteDistances(t);
  const work = endpoints * Math.max(1, t.numChannels);
  if (method === 'all-pairs' || (method === 'auto' && work <= ALL_PAIRS_BUDGET)) {
    checkAllPairsWork(endpoints, t.numChannels);
    return {
      method: 'all-pairs',
      reason: 'no declared symmetry: one BFS from every endpoint',
      sources: Int32Array.from(t.endpoints),
      weights: new Float64Array(endpoints).fill(1),
    };
  }
  return sampled(t, opts.samples ?? defaultSamples(t), opts.seed ?? DEFAULT_SEED, method === 'sampled');
}

/**
 * A platform that declares its routes (SimGrid zones) is measured along them: its graph is inferred
 * from the routes and may join links through hubs, so a BFS over it would report pairs the routes
 * join as unreachable, and a declared detour is the path the data takes. Hops = links of the route.
 */
function declaredRouteDistances(t: Topology): DistanceSummary {
  const routes = t.explicitRoutes!;
  const hops = new Float64Array(routes.maxHops + 1);
  for (const a of t.endpoints) {
    for (const b of t.endpoints) hops[a === b ? 0 : routeHops(routes, a, b)]++;
  }
  return summarise(t, 'all-pairs', 'declared routes: the links of every pair\'s route, as the platform routes it (no BFS of the inferred graph)', 0, hops);
}

export function isSearchPlan(p: DistanceSummary | SearchPlan): p is SearchPlan {
  return 'sources' in p;
}

/** The summary of a search plan from its weighted hop histogram (index = graph hops). */
export function summaryFromHops(t: Topology, plan: SearchPlan, hops: ArrayLike<number>): DistanceSummary {
  return summarise(t, plan.method, plan.reason, plan.sources.length, hops);
}

export function distanceSummary(t: Topology, opts: DistanceOptions = {}): DistanceSummary {
  const plan = planDistances(t, opts);
  if (!isSearchPlan(plan)) return plan;
  const ctx = searchContext(t);
  const total = plan.sources.length;
  const onSearched = opts.onProgress ? (searched: number) => opts.onProgress!(searched / total) : undefined;
  return summaryFromHops(t, plan, searchHops(ctx.g, ctx.isEndpoint, t.numEndpoints, plan.sources, plan.weights, onSearched));
}

function symmetryPlan(t: Topology): SearchPlan {
  const sym = t.symmetry!;
  let total = 0;
  for (const { rank, count } of sym.classes) {
    if (!Number.isInteger(rank) || rank < 0 || rank >= t.numEndpoints || !(count > 0)) {
      throw new Error(`${t.spec}: symmetry class {rank ${rank}, count ${count}} is not a valid endpoint rank and count`);
    }
    total += count;
  }
  if (total !== t.numEndpoints) {
    throw new Error(`${t.spec}: symmetry classes cover ${total} endpoints, not ${t.numEndpoints}`);
  }
  return {
    method: 'symmetry',
    reason: `${sym.reason}: ${sym.classes.length} BFS source class(es)`,
    sources: Int32Array.from(sym.classes, (c) => t.endpoints[c.rank]),
    weights: Float64Array.from(sym.classes, (c) => c.count),
  };
}

interface SearchContext {
  g: NeighbourLists;
  ws: BfsWorkspace;
  isEndpoint: Uint8Array;
  levels: Float64Array;
}

/** 1 for endpoint nodes, 0 for the rest. */
export function endpointMask(t: Topology): Uint8Array {
  const isEndpoint = new Uint8Array(t.numNodes);
  for (let r = 0; r < t.numEndpoints; r++) isEndpoint[t.endpoints[r]] = 1;
  return isEndpoint;
}

function searchContext(t: Topology): SearchContext {
  return { g: neighbourLists(t), ws: new BfsWorkspace(t.numNodes), isEndpoint: endpointMask(t), levels: new Float64Array(t.numNodes + 1) };
}

/** Converts graph hops to the topology's convention: switches traversed = hops − 1 between distinct terminals. */
function toConvention(t: Topology, hops: ArrayLike<number>): number[] {
  let last = hops.length - 1;
  while (last > 0 && hops[last] === 0) last--;
  const out = Array.from({ length: last + 1 }, (_, h) => hops[h]);
  if (t.distanceConvention !== 'switches-traversed' || out.length < 2) return out;
  // Level 0 holds only self-pairs; level h ≥ 1 moves to h − 1 (adjacent terminals would join the
  // self-pairs at 0, which no indirect network has).
  const shifted = out.slice(1);
  shifted[0] += out[0];
  return shifted;
}

function summarise(
  t: Topology,
  method: DistanceMethod,
  reason: string,
  searches: number,
  hops: ArrayLike<number>,
  interval?: SampleInterval,
): DistanceSummary {
  const histogram = method === 'product' ? Array.from(hops) : toConvention(t, hops);
  return summaryFromHistogram(histogram, t.numEndpoints, t.distanceConvention, method, reason, searches, interval);
}

/** Means, diameter and unreachable pairs of an ordered-pair distance histogram over `e` endpoints. */
export function summaryFromHistogram(
  histogram: number[],
  e: number,
  convention: Topology['distanceConvention'],
  method: DistanceMethod,
  reason: string,
  searches: number,
  interval?: SampleInterval,
): DistanceSummary {
  const pairs = e * e;
  let reachable = 0;
  let sum = 0;
  let diameter = 0;
  for (let d = 0; d < histogram.length; d++) {
    reachable += histogram[d];
    sum += d * histogram[d];
    if (histogram[d] > 0) diameter = d;
  }
  const unreachablePairs = Math.max(0, Math.round(pairs - reachable));
  return {
    method,
    exact: method !== 'sampled',
    reason,
    searches,
    convention,
    histogram,
    pairs,
    unreachablePairs,
    diameter,
    meanWithSelf: reachable > 0 ? sum / reachable : 0,
    meanWithoutSelf: reachable > e ? sum / (reachable - e) : 0,
    ...(interval ? { interval } : {}),
  };
}

const Z95 = 1.959963984540054;

/**
 * BFS from `samples` endpoints drawn without replacement (seeded). Each source's distances to every
 * endpoint are exact, so the estimate of the mean is a mean of per-source means; its 95% interval
 * uses the normal approximation with the finite-population correction.
 */
function sampled(t: Topology, samples: number, seed: number, requested: boolean): DistanceSummary {
  const e = t.numEndpoints;
  if (!Number.isInteger(samples) || samples < 2) throw new InputError('samples', samples, 'an integer >= 2');
  if (!Number.isInteger(seed) || seed < 0) throw new InputError('seed', seed, 'a non-negative integer');
  const count = Math.min(samples, e);
  const work = count * Math.max(1, t.numChannels);
  if (work > ALL_PAIRS_LIMIT) throw new LimitError('samples', count, `${Math.floor(ALL_PAIRS_LIMIT / t.numChannels)} sources for this graph (2^34 edge visits)`);
  // Partial Fisher–Yates: the first `count` entries of a seeded shuffle of the ranks.
  const rng = new Rng(seed);
  const ranks = Int32Array.from({ length: e }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + rng.int(e - i);
    const tmp = ranks[i];
    ranks[i] = ranks[j];
    ranks[j] = tmp;
  }
  const ctx = searchContext(t);
  const total = new Float64Array(t.numNodes + 1);
  const perSourceSum = new Float64Array(count);
  const perSourceReached = new Float64Array(count);
  const shift = t.distanceConvention === 'switches-traversed' ? 1 : 0;
  for (let i = 0; i < count; i++) {
    const reached = bfsEndpointLevels(ctx.g, ctx.ws, ctx.isEndpoint, e, t.endpoints[ranks[i]], ctx.levels, 1);
    let sum = 0;
    for (let h = 0; h <= ctx.ws.lastLevel; h++) {
      if (h > 0) sum += (h - shift) * ctx.levels[h];
      total[h] += ctx.levels[h];
      ctx.levels[h] = 0;
    }
    perSourceSum[i] = sum;
    perSourceReached[i] = reached;
  }
  const scale = e / count;
  for (let h = 0; h < total.length; h++) total[h] *= scale;
  const withSelf = perSourceSum.map((s, i) => s / perSourceReached[i]);
  const withoutSelf = perSourceSum.map((s, i) => (perSourceReached[i] > 1 ? s / (perSourceReached[i] - 1) : 0));
  const fpc = e > 1 ? Math.sqrt((e - count) / (e - 1)) : 0;
  const interval: SampleInterval = {
    sources: count,
    seed,
    confidence: 0.95,
    meanWithSelf: meanInterval(withSelf, fpc),
    meanWithoutSelf: meanInterval(withoutSelf, fpc),
  };
  const why = requested
    ? 'sampling requested'
    : `exact all-pairs would take ${e} × ${t.numChannels} edge visits, over the 2^32 budget`;
  const reason = `${count} of ${e} endpoints as BFS sources (seed ${seed}); ${why}`;
  return summarise(t, 'sampled', reason, count, total, interval);
}

function meanInterval(values: Float64Array, fpc: number): [number, number] {
  const n = values.length;
  let mean = 0;
  for (const v of values) mean += v;
  mean /= n;
  let ss = 0;
  for (const v of values) ss += (v - mean) ** 2;
  const half = (Z95 * Math.sqrt(ss / (n - 1)) * fpc) / Math.sqrt(n);
  return [mean - half, mean + half];
}
