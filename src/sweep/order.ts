/**
 * The order points are handed out: longest first (issue 11). A sweep ends when its last point does;
 * handing out the long points first leaves short ones for the end, so no thread or worker idles long
 * while another finishes one long point.
 */
import type { SweepPoint } from './file.js';

/**
 * A point's relative cost, where one can be told from its options: a traffic point simulates packets
 * in proportion to its offered load times the cycles simulated (`rates` x `horizon`, each counted
 * only when it is one number). Anything else costs 1: its order in the file is kept.
 */
export function estimatedCost(point: SweepPoint): number {
  if (point.kind !== 'traffic') return 1;
  const factor = (name: string): number => {
    const value = Number(point.params[name]);
    return Number.isFinite(value) && value > 0 ? value : 1;
  };
  return factor('rates') * factor('horizon');
}

/** The points sorted by estimated cost, highest first; equal costs keep the file's order. */
export function longestFirst(points: readonly SweepPoint[]): SweepPoint[] {
  const cost = points.map(estimatedCost);
  return points
    .map((_, i) => i)
    .sort((a, b) => cost[b] - cost[a] || a - b)
    .map((i) => points[i]);
}

/**
 * The points of a sweep not yet stored with a result, in the order to hand them out (longest first).
 * Here rather than in store.ts so that the pool (local.ts) and the queue (queue.ts) load without
 * DuckDB: a missing optional package is then reported by the store's own one line, and a queue
 * worker, which stores nothing, needs no DuckDB at all.
 */
export function pendingPoints(points: readonly SweepPoint[], done: ReadonlySet<string>): SweepPoint[] {
  return longestFirst(points.filter((p) => !done.has(p.key)));
}
