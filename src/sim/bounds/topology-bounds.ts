/**
 * Lower bounds on a collective's completion time on a topology, each named, each proven from the
 * network alone (no algorithm): injection, ejection, hop-bytes over total capacity under minimal
 * routing, bisection (mesh and torus, where the bisection is known), and latency.
 */
import { routeHops, type ExplicitRoutes, type Topology } from '../../topology/graph.js';
import { familyOf, fatpipeChannels } from '../../topology/registry.js';
import type { BoundRecord } from '../result.js';
import { type CollectiveDemand, mustReceive, mustSend } from './demand.js';

export interface BoundModel {
  /** Per-message overhead α, seconds. */
  readonly alpha: number;
  readonly routerLatency: number;
  readonly nics: number;
  readonly injectionBandwidth: number | null;
  readonly ejectionBandwidth: number | null;
}

/** Largest rank count for which distances are summed by one BFS per rank when no symmetry is declared. */
export const HOP_BYTES_BFS_LIMIT = 4096;

/** BFS hop distances from `src` over all channels, into `dist` (−1 = unreachable). */
export function bfsFrom(t: Topology, src: number, dist: Int32Array, queue: Int32Array): void {
  dist.fill(-1);
  let head = 0;
  let tail = 0;
  dist[src] = 0;
  queue[tail++] = src;
  const transitAll = t.distanceConvention === 'router-hops';
  while (head < tail) {
    const v = queue[head++];
    if (v !== src && !transitAll && t.nodeKind[v] === 0) continue;
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const u = t.chDst[t.outChannels[i]];
      if (dist[u] < 0) {
        dist[u] = dist[v] + 1;
        queue[tail++] = u;
      }
    }
  }
}

/**
 * Hop counts from host `src` along a platform's declared routes (SimGrid zones), into `dist`: there
 * the graph is inferred from the routes and may join links through hubs, so a BFS over it can miss
 * pairs (−1) that the routes join; every byte crosses its route's channels, so they are the distances.
 */
function routeHopsFrom(routes: ExplicitRoutes, src: number, dist: Int32Array): void {
  dist.fill(-1);
  const h = routes.hosts;
  for (let b = 0; b < h; b++) dist[b] = b === src ? 0 : routeHops(routes, src, b);
}

/** Sum of the bandwidths of the distinct first (`last` false) or last channels of host v's routes out of (into) it. */
function routeEndCapacity(t: Topology, routes: ExplicitRoutes, v: number, last: boolean): number {
  const h = routes.hosts;
  const seen = new Set<number>();
  let sum = 0;
  for (let u = 0; u < h; u++) {
    if (u === v) continue;
    const pair = last ? u * h + v : v * h + u;
    const from = routes.start[pair];
    const to = routes.start[pair + 1];
    if (to === from) continue;
    const c = routes.channels[last ? to - 1 : from];
    if (!seen.has(c)) {
      seen.add(c);
      sum += t.chBandwidth[c];
    }
  }
  return sum;
}

/**
 * Endpoint capacity: what the rank's node can inject (out-links) and eject (in-links), capped by the
 * NIC model. On a platform with declared routes, the channels its routes start (end) with: a SHARED
 * link there is one channel whichever way a route crosses it, so the node's in-links can be none.
 */
function endpointCapacity(t: Topology, rank: number, model: BoundModel): { inj: number; ej: number } {
  const v = t.endpoints[rank];
  let out = 0;
  let inn = 0;
  if (t.explicitRoutes) {
    out = routeEndCapacity(t, t.explicitRoutes, v, false);
    inn = routeEndCapacity(t, t.explicitRoutes, v, true);
  } else {
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) out += t.chBandwidth[t.outChannels[i]];
    for (let i = t.inStart[v]; i < t.inStart[v + 1]; i++) inn += t.chBandwidth[t.inChannels[i]];
  }
  const inj = model.injectionBandwidth === null ? out : Math.min(out, model.injectionBandwidth * model.nics);
  const ej = model.ejectionBandwidth === null ? inn : Math.min(inn, model.ejectionBandwidth * model.nics);
  return { inj, ej };
}

export function topologyBounds(t: Topology, d: CollectiveDemand, model: BoundModel): BoundRecord[] {
  const bounds: BoundRecord[] = [];
  const n = d.ranks.length;
  if (n < 2 || d.collective === 'barrier') return [{ name: 'trivial', seconds: 0, detail: 'nothing has to move' }];
  const whole = n === t.numEndpoints;

  // Injection and ejection.
  let inj = 0;
  let injRank = 0;
  let ej = 0;
  let ejRank = 0;
  for (let i = 0; i < n; i++) {
    const r = d.ranks[i];
    const cap = endpointCapacity(t, r, model);
    const a = mustSend(d, r) / cap.inj;
    const b = mustReceive(d, r) / cap.ej;
    if (a > inj) {
      inj = a;
      injRank = r;
    }
    if (b > ej) {
      ej = b;
      ejRank = r;
    }
  }
  bounds.push({ name: 'injection', seconds: inj, detail: `rank ${injRank} must send ${mustSend(d, injRank)} B through its injection capacity` });
  bounds.push({ name: 'ejection', seconds: ej, detail: `rank ${ejRank} must receive ${mustReceive(d, ejRank)} B through its ejection capacity` });

  // Distances: hop-bytes and latency.
  const dist = new Int32Array(t.numNodes);
  const queue = new Int32Array(t.numNodes);
  let minLat = Infinity;
  let totalCap = 0;
  for (let c = 0; c < t.numChannels; c++) {
    minLat = Math.min(minLat, t.chLatency[c]);
    totalCap += t.chBandwidth[c];
  }
  if (t.numChannels === 0) minLat = 0;
  const perHop = minLat + model.routerLatency;
  const sources: Array<{ rank: number; count: number }> = [];
  if (d.collective === 'one-to-one' || d.collective === 'broadcast' || d.collective === 'scatter') {
    sources.push({ rank: d.root, count: 1 });
  } else if (t.symmetry && whole) {
    for (const c of t.symmetry.classes) sources.push(c);
  } else if (n <= HOP_BYTES_BFS_LIMIT) {
    for (let i = 0; i < n; i++) sources.push({ rank: d.ranks[i], count: 1 });
  }
  if (sources.length > 0) {
    let hopSum = 0;
    let farthest = 0;
    for (const { rank, count } of sources) {
      if (t.explicitRoutes) routeHopsFrom(t.explicitRoutes, t.endpoints[rank], dist);
      else bfsFrom(t, t.endpoints[rank], dist, queue);
      let sum = 0;
      if (d.collective === 'one-to-one') {
        sum = dist[t.endpoints[d.peer]];
        farthest = Math.max(farthest, sum);
      } else {
        for (let i = 0; i < n; i++) {
          const x = dist[t.endpoints[d.ranks[i]]];
          sum += x;
          farthest = Math.max(farthest, x);
        }
      }
      hopSum += sum * count;
    }
    // A FATPIPE link carries any number of flows at once (each at most at its bandwidth): no total capacity bounds them.
    if ((d.collective === 'alltoall' || d.collective === 'one-to-one') && !fatpipeChannels(t)) {
      const hb = d.size * hopSum;
      bounds.push({ name: 'hop-bytes', seconds: hb / totalCap, detail: `${hb} hop-bytes under minimal routing over ${t.numChannels} channels' total capacity` });
    }
    // Rooted collectives from the root's eccentricity; the others need the farthest pair.
    bounds.push({ name: 'latency', seconds: model.alpha + farthest * perHop, detail: `α + ${farthest} hops × (channel latency + router latency)` });
  }

  // Bisection for mesh and torus: cut the largest dimension in half.
  const grid = t.coords ? familyOf(t)?.grid?.(t) : undefined;
  const dims = grid?.dims;
  if (grid && dims && whole && d.collective === 'alltoall') {
    let dim = 0;
    for (let i = 1; i < dims.length; i++) if (dims[i] > dims[dim]) dim = i;
    const k = dims[dim];
    if (k >= 2) {
      const half = Math.floor(k / 2);
      const a = (n / k) * half;
      const b = n - a;
      const wraps = grid.wrap && k > 2 ? 2 : 1;
      const crossing = (n / k) * wraps;
      let minBw = Infinity;
      for (let c = 0; c < t.numChannels; c++) minBw = Math.min(minBw, t.chBandwidth[c]);
      // Bytes that must cross from the smaller-index half to the other, per direction.
      const bytes = a * b * d.size;
      bounds.push({ name: 'bisection', seconds: bytes / (crossing * minBw), detail: `${bytes} B across ${crossing} channels per direction (dimension ${dim} cut in half)` });
    }
  }
  return bounds;
}

/** Bounds of every part of a schedule; each part's bounds bound the whole makespan, so all are kept. */
export function demandBounds(t: Topology, demands: readonly CollectiveDemand[], model: BoundModel): BoundRecord[] {
  if (demands.length === 1) return topologyBounds(t, demands[0], model);
  return demands.flatMap((d, i) => topologyBounds(t, d, model).map((b) => ({ ...b, name: `part ${i} ${b.name}` })));
}

/** The best (largest) of a set of bounds. */
export function bestBound(bounds: readonly BoundRecord[]): BoundRecord {
  let best = bounds[0] ?? { name: 'none', seconds: 0, detail: 'no bound applies' };
  for (const b of bounds) if (b.seconds > best.seconds) best = b;
  return best;
}
