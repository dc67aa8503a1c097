/**
 * The lonely output allocator, as BookSim's `loa` (allocators/loa.cpp): every input requests the one
 * output among its requests that the fewest inputs request (the first such in round-robin order from
 * its request pointer), and every output grants the first of the inputs requesting it in round-robin
 * order from its grant pointer; a grant moves both pointers on by one. One pass. It never reads the
 * requests' priorities (registered with `readsPriority: false`). The pointers are the caller's
 * persistent per-router arrays (grant: per output, request: the accept pointers, per input).
 * Hand-written over flat arrays: it runs per router per cycle in the packet engine's hot loop.
 *
 * A pointer moves by one, not past the grant, so where it points depends on how the router's ports
 * are numbered and how many it has: the engine gives it BookSim's (`portGeometry`; a mesh's edge
 * routers keep the numbers of the ports they lack), and the pointers hold those numbers. Without
 * the geometry, ports are their request indices among the largest router's.
 */
import { nextIndex, roundRobinKey } from './round-robin.js';
import { registerAllocator } from './table.js';
import { SparseAllocator } from './sparse.js';
import type { AllocatorGeometry } from '../port-lanes.js';

export class LonelyOutputAllocator extends SparseAllocator {
  /** Per output: how many inputs request it. */
  private readonly requesters: Int32Array;
  /** Per input: the output it requests (-1: none yet). */
  private readonly lonely: Int32Array;
  /** Per output: the input it grants (-1: none yet). */
  private readonly grantee: Int32Array;
  /** BookSim's numbering (AllocatorGeometry), or null for the request indices. */
  private geometry: AllocatorGeometry | null = null;

  constructor(maxInputs: number, maxOutputs: number, maxRequests: number) {
    super(maxInputs, maxOutputs, maxRequests);
    this.requesters = new Int32Array(maxOutputs);
    this.lonely = new Int32Array(maxInputs).fill(-1);
    this.grantee = new Int32Array(maxOutputs).fill(-1);
  }

  portGeometry(geometry: AllocatorGeometry): void {
    this.geometry = geometry;
  }

  allocate(_iterations: number, grantPtr: Int32Array, ptrBaseOut: number, requestPtr: Int32Array, ptrBaseIn: number): number {
    const n = this.count;
    const { reqIn, reqOut, requesters, lonely, grantee, matchOfIn, matchOfOut, geometry } = this;
    const nIn = geometry === null ? this.maxInputs : geometry.inputs[ptrBaseOut];
    const nOut = geometry === null ? this.maxOutputs : geometry.outputs[ptrBaseOut];
    // A request index's number in the rotation: BookSim's port number where given.
    const inNo = geometry === null ? null : geometry.inIndex;
    const outNo = geometry === null ? null : geometry.outIndex;
    this.clearMatches();
    for (let k = 0; k < n; k++) {
      requesters[reqOut[k]] = 0;
      lonely[reqIn[k]] = -1;
      grantee[reqOut[k]] = -1;
    }
    // Count each (input, output) pair once: an input's VCs may request one output several times.
    for (let k = 0; k < n; k++) {
      let repeated = false;
      for (let q = 0; q < k && !repeated; q++) repeated = reqIn[q] === reqIn[k] && reqOut[q] === reqOut[k];
      if (!repeated) requesters[reqOut[k]]++;
    }
    // Request: the least requested output, ties to the first from the input's pointer.
    for (let k = 0; k < n; k++) {
      const i = reqIn[k];
      const o = reqOut[k];
      const cur = lonely[i];
      if (cur < 0 || requesters[o] < requesters[cur]) lonely[i] = o;
      else if (requesters[o] === requesters[cur]) {
        const ptr = requestPtr[ptrBaseIn + i];
        const oNo = outNo === null ? o : outNo[ptrBaseOut + o];
        const curNo = outNo === null ? cur : outNo[ptrBaseOut + cur];
        if (roundRobinKey(oNo, ptr, nOut) < roundRobinKey(curNo, ptr, nOut)) lonely[i] = o;
      }
    }
    // Grant: the first requesting input from the output's pointer.
    for (let k = 0; k < n; k++) {
      const i = reqIn[k];
      const o = lonely[i];
      if (o !== reqOut[k]) continue;
      const cur = grantee[o];
      if (cur < 0) {
        grantee[o] = i;
        continue;
      }
      const ptr = grantPtr[ptrBaseOut + o];
      const iNo = inNo === null ? i : inNo[ptrBaseIn + i];
      const curNo = inNo === null ? cur : inNo[ptrBaseIn + cur];
      if (roundRobinKey(iNo, ptr, nIn) < roundRobinKey(curNo, ptr, nIn)) grantee[o] = i;
    }
    let matches = 0;
    for (let k = 0; k < n; k++) {
      const o = reqOut[k];
      const i = grantee[o];
      if (i < 0 || matchOfOut[o] >= 0) continue;
      matchOfIn[i] = o;
      matchOfOut[o] = i;
      requestPtr[ptrBaseIn + i] = nextIndex(requestPtr[ptrBaseIn + i], nOut);
      grantPtr[ptrBaseOut + o] = nextIndex(grantPtr[ptrBaseOut + o], nIn);
      matches++;
    }
    return matches;
  }
}

registerAllocator({
  name: 'loa',
  description: "BookSim's loa: each input requests its least requested output, each output grants round-robin; pointers move by one per grant",
  bookSimName: 'loa',
  readsPriority: false,
  create: (maxInputs, maxOutputs, maxRequests) => new LonelyOutputAllocator(maxInputs, maxOutputs, maxRequests),
});
