/**
 * Node adapter: the BFS searches of exact metrics (all-pairs or symmetry classes) split across
 * worker threads. The core stays platform neutral; this file only shares the sources out and adds
 * the hop histograms back up, so the result is identical to computeMetrics.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Topology } from '../topology/graph.js';
import {
  computeMetrics,
  endpointMask,
  isSearchPlan,
  neighbourLists,
  planDistances,
  summaryFromHops,
  type DistanceSummary,
  type MetricsOptions,
  type SearchPlan,
  type TopologyMetrics,
} from '../topology/metrics/index.js';

/** Below this many edge visits a worker costs more to start than it saves. */
const PARALLEL_MIN_WORK = 2 ** 26;

export function defaultWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

function runShare(data: Record<string, unknown>, onSearched: (searched: number) => void): Promise<Float64Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./bfs-worker.js', import.meta.url), { workerData: data });
    worker.on('message', (message: Float64Array | { searched: number }) => {
      if (message instanceof Float64Array) resolve(message);
      else onSearched(message.searched);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`BFS worker exited with code ${code}`));
    });
  });
}

async function searchInWorkers(t: Topology, plan: SearchPlan, workers: number, onProgress?: (fraction: number) => void): Promise<Float64Array> {
  const g = neighbourLists(t);
  const isEndpoint = endpointMask(t);
  const shares: Array<Promise<Float64Array>> = [];
  const searchedByShare = new Float64Array(workers);
  for (let w = 0; w < workers; w++) {
    // Interleaved shares balance the work when source cost varies along the rank order.
    const picks: number[] = [];
    for (let i = w; i < plan.sources.length; i += workers) picks.push(i);
    shares.push(
      runShare({
        numNodes: t.numNodes,
        start: g.start,
        adj: g.adj,
        isEndpoint,
        totalEndpoints: t.numEndpoints,
        sources: Int32Array.from(picks, (i) => plan.sources[i]),
        weights: Float64Array.from(picks, (i) => plan.weights[i]),
      }, (searched) => {
        searchedByShare[w] = searched;
        if (onProgress) onProgress(searchedByShare.reduce((a, b) => a + b, 0) / plan.sources.length);
      }),
    );
  }
  const total = new Float64Array(t.numNodes + 1);
  for (const h of await Promise.all(shares)) for (let i = 0; i < h.length; i++) total[i] += h[i];
  return total;
}

/** distanceSummary with the searches in `workers` threads when the work is large enough. */
export async function distanceSummaryParallel(t: Topology, opts: MetricsOptions = {}, workers = defaultWorkers()): Promise<DistanceSummary | undefined> {
  const plan = planDistances(t, opts);
  if (!isSearchPlan(plan)) return plan;
  if (workers < 2 || plan.sources.length < 2 || plan.sources.length * t.numChannels < PARALLEL_MIN_WORK) return undefined;
  return summaryFromHops(t, plan, await searchInWorkers(t, plan, Math.min(workers, plan.sources.length), opts.onProgress));
}

/** computeMetrics, with the BFS searches shared across worker threads when that pays. */
export async function computeMetricsParallel(t: Topology, opts: MetricsOptions = {}, workers = defaultWorkers()): Promise<TopologyMetrics> {
  const started = performance.now();
  // Below the parallel threshold, computeMetrics searches in this thread and reports through opts.onProgress.
  const distances = await distanceSummaryParallel(t, opts, workers);
  const metrics = computeMetrics(t, { ...opts, distances });
  return { ...metrics, seconds: (performance.now() - started) / 1000 };
}
