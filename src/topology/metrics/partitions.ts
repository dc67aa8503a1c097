/**
 * Partitions of a topology's nodes into two sides (0 or 1 per node) and the channels they cut:
 * the building blocks of bisection (bisection.ts) and of the families' closed-form cuts.
 */
import type { Topology } from '../graph.js';

/** Partition sides: 0 or 1 per node. */
export type Sides = Uint8Array;

export function cutOf(t: Topology, side: Sides): { channels: number; bandwidth: number } {
  let channels = 0;
  let bandwidth = 0;
  for (let c = 0; c < t.numChannels; c++) {
    if (side[t.chSrc[c]] !== side[t.chDst[c]]) {
      channels++;
      bandwidth += t.chBandwidth[c];
    }
  }
  return { channels, bandwidth };
}

/** Side 1 for node ids at or above the node of endpoint rank ⌊E/2⌋ (id order). */
export function idHalves(t: Topology): Sides {
  const sorted = Int32Array.from(t.endpoints).sort();
  const pivot = sorted[Math.floor(sorted.length / 2)];
  const side = new Uint8Array(t.numNodes);
  for (let v = pivot; v < t.numNodes; v++) side[v] = 1;
  return side;
}

/** The first ⌊E/2⌋ endpoints alone on side 0: cuts only their own channels (good for indirect networks). */
export function terminalOnly(t: Topology): Sides {
  const side = new Uint8Array(t.numNodes).fill(1);
  for (let r = 0; r < Math.floor(t.numEndpoints / 2); r++) side[t.endpoints[r]] = 0;
  return side;
}
