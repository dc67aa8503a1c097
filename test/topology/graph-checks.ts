/** Test-only graph checks shared by the topology tests: consistency, BFS distances, automorphisms. */
import { NodeKind, Topology } from '../../src/topology/index.js';

/**
 * Throws unless the CSR views agree with the channel list: degrees add up, no channel joins a
 * missing node, ports number each node's channels 0..deg−1, endpoints are distinct nodes.
 */
export function assertConsistent(t: Topology): void {
  const fail = (msg: string): never => {
    throw new Error(`${t.spec}: ${msg}`);
  };
  const n = t.numNodes;
  const m = t.numChannels;
  for (const arr of [t.chSrc, t.chDst, t.chBandwidth, t.chLatency, t.chClass, t.chSrcPort, t.chDstPort]) {
    if (arr.length !== m) fail('channel arrays of different lengths');
  }
  if (t.nodeKind.length !== n) fail('nodeKind length');
  let outSum = 0;
  let inSum = 0;
  for (let v = 0; v < n; v++) {
    outSum += t.outDegree(v);
    inSum += t.inDegree(v);
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const c = t.outChannels[i];
      if (t.chSrc[c] !== v) fail(`out-channel ${c} of node ${v} starts at ${t.chSrc[c]}`);
      if (t.chSrcPort[c] !== i - t.outStart[v]) fail(`channel ${c} has source port ${t.chSrcPort[c]}`);
    }
    for (let i = t.inStart[v]; i < t.inStart[v + 1]; i++) {
      const c = t.inChannels[i];
      if (t.chDst[c] !== v) fail(`in-channel ${c} of node ${v} ends at ${t.chDst[c]}`);
      if (t.chDstPort[c] !== i - t.inStart[v]) fail(`channel ${c} has destination port ${t.chDstPort[c]}`);
    }
  }
  if (outSum !== m || inSum !== m) fail(`degrees add up to ${outSum}/${inSum}, not ${m}`);
  for (let c = 0; c < m; c++) {
    if (!(t.chSrc[c] >= 0 && t.chSrc[c] < n && t.chDst[c] >= 0 && t.chDst[c] < n)) fail(`channel ${c} dangles`);
    if (t.chSrc[c] === t.chDst[c]) fail(`channel ${c} is a self-loop`);
    if (t.chClass[c] >= t.classNames.length) fail(`channel ${c} has no class name`);
    if (!(t.chBandwidth[c] > 0) || !(t.chLatency[c] >= 0)) fail(`channel ${c} has bad attributes`);
  }
  const seen = new Set<number>();
  for (let r = 0; r < t.numEndpoints; r++) {
    const v = t.endpoints[r];
    if (!(v >= 0 && v < n) || seen.has(v)) fail(`endpoint ${r} is node ${v}`);
    seen.add(v);
    if (t.rankOfNode[v] !== r) fail(`rankOfNode disagrees at rank ${r}`);
  }
  if (t.symmetry) {
    const total = t.symmetry.classes.reduce((s, c) => s + c.count, 0);
    if (total !== t.numEndpoints) fail(`symmetry classes cover ${total} of ${t.numEndpoints} endpoints`);
  }
}

/** Graph hops from `src` to every node (-1 when unreachable). */
export function bfs(t: Topology, src: number): Int32Array {
  const dist = new Int32Array(t.numNodes).fill(-1);
  const queue = new Int32Array(t.numNodes);
  let head = 0;
  let tail = 0;
  dist[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    const v = queue[head++];
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const w = t.chDst[t.outChannels[i]];
      if (dist[w] < 0) {
        dist[w] = dist[v] + 1;
        queue[tail++] = w;
      }
    }
  }
  return dist;
}

/** Distances from rank `r` to every rank under the topology's convention (docs/topology.md). */
export function rankDistances(t: Topology, r: number): number[] {
  const d = bfs(t, t.endpoints[r]);
  const offset = t.distanceConvention === 'switches-traversed' ? 1 : 0;
  return Array.from(t.endpoints, (v, s) => (s === r ? 0 : d[v] < 0 ? -1 : d[v] - offset));
}

/** Sorted distance profile of a rank: equal for ranks an automorphism exchanges. */
export function profile(t: Topology, r: number): string {
  return rankDistances(t, r).sort((a, b) => a - b).join(',');
}

/** True when `map` (node -> node) is a bijection sending the channel multiset onto itself. */
export function isAutomorphism(t: Topology, map: ArrayLike<number>): boolean {
  const n = t.numNodes;
  const hit = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    if (hit[map[v]]) return false;
    hit[map[v]] = 1;
    if (t.nodeKind[map[v]] !== t.nodeKind[v]) return false;
  }
  const count = new Map<number, number>();
  for (let c = 0; c < t.numChannels; c++) {
    const key = t.chSrc[c] * n + t.chDst[c];
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  for (let c = 0; c < t.numChannels; c++) {
    const key = map[t.chSrc[c]] * n + map[t.chDst[c]];
    const left = count.get(key) ?? 0;
    if (left === 0) return false;
    count.set(key, left - 1);
  }
  return true;
}

export function countKinds(t: Topology): { terminals: number; switches: number } {
  let switches = 0;
  for (let v = 0; v < t.numNodes; v++) if (t.nodeKind[v] === NodeKind.Switch) switches++;
  return { terminals: t.numNodes - switches, switches };
}

/** Router-to-router hop histogram over ordered pairs of distinct switches (index = hops; -1 pairs counted in `unreachable`). */
export function switchHistogram(t: Topology): { histogram: number[]; unreachable: number } {
  const histogram: number[] = [];
  let unreachable = 0;
  // BFS over switch-to-switch channels only: terminals never carry transit traffic.
  for (let s = 0; s < t.numNodes; s++) {
    if (t.nodeKind[s] !== NodeKind.Switch) continue;
    const dist = new Int32Array(t.numNodes).fill(-1);
    const queue = [s];
    dist[s] = 0;
    for (let head = 0; head < queue.length; head++) {
      const v = queue[head];
      for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
        const w = t.chDst[t.outChannels[i]];
        if (t.nodeKind[w] === NodeKind.Switch && dist[w] < 0) {
          dist[w] = dist[v] + 1;
          queue.push(w);
        }
      }
    }
    for (let v = 0; v < t.numNodes; v++) {
      if (v === s || t.nodeKind[v] !== NodeKind.Switch) continue;
      if (dist[v] < 0) unreachable++;
      else histogram[dist[v]] = (histogram[dist[v]] ?? 0) + 1;
    }
  }
  return { histogram: Array.from(histogram, (x) => x ?? 0), unreachable };
}

/** Out-degree of every switch counted over switch-to-switch channels only. */
export function switchDegrees(t: Topology): number[] {
  const out: number[] = [];
  for (let v = 0; v < t.numNodes; v++) {
    if (t.nodeKind[v] !== NodeKind.Switch) continue;
    let d = 0;
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) if (t.nodeKind[t.chDst[t.outChannels[i]]] === NodeKind.Switch) d++;
    out.push(d);
  }
  return out;
}
