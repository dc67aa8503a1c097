/**
 * computeMetrics: the static shape of a topology — counts, degrees, exact distances (see
 * distances.ts for the methods) and bisection width — as one record that says how every number
 * was obtained.
 */
import { NodeKind, type Topology } from '../graph.js';
import { bisection, type Bisection } from './bisection.js';
import { distanceSummary, type DistanceOptions, type DistanceSummary } from './distances.js';

export interface DegreeRange {
  readonly min: number;
  readonly max: number;
}

export interface DegreeSummary {
  readonly in: DegreeRange;
  readonly out: DegreeRange;
}

export interface TopologyMetrics {
  readonly spec: string;
  readonly family: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly nodes: number;
  /** Compute endpoints (ranks). */
  readonly terminals: number;
  readonly switches: number;
  readonly channels: number;
  /** Over every node. */
  readonly degree: DegreeSummary;
  /** Over switches only, when there are any (the degree Table 1 of seed 004 lists for indirect networks). */
  readonly switchDegree?: DegreeSummary;
  readonly distances: DistanceSummary;
  readonly bisection: Bisection;
  /** Wall-clock seconds spent (not part of any deterministic output). */
  readonly seconds: number;
}

export interface MetricsOptions extends DistanceOptions {
  /** Skip the bisection (its heuristic bound is the slowest part on large irregular graphs). */
  bisection?: boolean;
  /** Distances already computed for this topology and options (the Node worker adapter passes them). */
  distances?: DistanceSummary;
}

function now(): number {
  return globalThis.performance ? globalThis.performance.now() : Date.now();
}

export function degreeSummary(t: Topology, include: (v: number) => boolean = () => true): DegreeSummary | undefined {
  let inMin = Infinity;
  let inMax = -Infinity;
  let outMin = Infinity;
  let outMax = -Infinity;
  for (let v = 0; v < t.numNodes; v++) {
    if (!include(v)) continue;
    const i = t.inStart[v + 1] - t.inStart[v];
    const o = t.outStart[v + 1] - t.outStart[v];
    if (i < inMin) inMin = i;
    if (i > inMax) inMax = i;
    if (o < outMin) outMin = o;
    if (o > outMax) outMax = o;
  }
  if (inMin === Infinity) return undefined;
  return { in: { min: inMin, max: inMax }, out: { min: outMin, max: outMax } };
}

export function computeMetrics(t: Topology, opts: MetricsOptions = {}): TopologyMetrics {
  const t0 = now();
  let switches = 0;
  for (let v = 0; v < t.numNodes; v++) if (t.nodeKind[v] === NodeKind.Switch) switches++;
  const distances = opts.distances ?? distanceSummary(t, opts);
  const cut: Bisection =
    opts.bisection === false
      ? { channels: NaN, links: NaN, bandwidth: NaN, exact: false, method: 'not computed' }
      : bisection(t);
  const switchDegree = switches > 0 ? degreeSummary(t, (v) => t.nodeKind[v] === NodeKind.Switch) : undefined;
  return {
    spec: t.spec,
    family: t.family,
    params: t.params,
    nodes: t.numNodes,
    terminals: t.numEndpoints,
    switches,
    channels: t.numChannels,
    degree: degreeSummary(t) ?? { in: { min: 0, max: 0 }, out: { min: 0, max: 0 } },
    ...(switchDegree ? { switchDegree } : {}),
    distances,
    bisection: cut,
    seconds: (now() - t0) / 1000,
  };
}
