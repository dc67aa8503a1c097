/** Worker thread body for metrics-workers.ts: runs one share of the BFS sources, returns the hop histogram. */
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

const share = workerData as Share;
const histogram = searchHops({ numNodes: share.numNodes, start: share.start, adj: share.adj }, share.isEndpoint, share.totalEndpoints, share.sources, share.weights);
parentPort!.postMessage(histogram, [histogram.buffer as ArrayBuffer]);
