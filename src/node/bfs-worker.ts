/**
 * Worker thread body for metrics-workers.ts: runs one share of the BFS sources, posts its progress
 * ({ searched }) now and then, and ends by posting the hop histogram.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { searchHops } from '../topology/metrics/bfs.js';

interface Share {
  numNodes: number;
  start: Int32Array;
  adj: Int32Array;
  isEndpoint: Uint8Array;
  totalEndpoints: number;
  sources: Int32Array;
  weights: Float64Array;
}

/** About this many progress messages per share: enough for a smooth bar, too few to cost anything. */
const PROGRESS_MESSAGES = 200;

const share = workerData as Share;
const step = Math.max(1, Math.floor(share.sources.length / PROGRESS_MESSAGES));
let posted = 0;
const histogram = searchHops(
  { numNodes: share.numNodes, start: share.start, adj: share.adj },
  share.isEndpoint,
  share.totalEndpoints,
  share.sources,
  share.weights,
  (searched) => {
    if (searched - posted < step) return;
    posted = searched;
    parentPort!.postMessage({ searched });
  },
);
parentPort!.postMessage(histogram, [histogram.buffer as ArrayBuffer]);
