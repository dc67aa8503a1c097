/**
 * Wavefront allocator, as BookSim's `wavefront` and `rr_wavefront` (allocators/wavefront.cpp): the
 * request matrix is square (side: the larger of the inputs and outputs), swept one diagonal at a
 * time from a priority diagonal that moves by one after every allocation (`rr_wavefront`: to one
 * past the first diagonal granted). On a diagonal, outputs are taken in order and a request is
 * granted when its input and output are both still free. Requests of a higher input priority
 * (`reqInPri`, BookSim's in_pri) are swept first. It never compares the requests' keys (BookSim
 * gives every request of the iq router one priority level unless the routing or `priority` sets
 * one), so it is registered with `readsPriority: false`.
 *
 * A request (input i, output o) lies on diagonal p = (i + o − pri) mod side, so the sweep is the
 * requests sorted by (priority level, p, o): sorted here over the cycle's few requests rather than
 * by walking the whole matrix. The diagonal is kept in the caller's grant pointer of the first
 * output (`grantPtr[ptrBaseOut]`), one per router. Hand-written over flat arrays: it runs per
 * router per cycle in the packet engine's hot loop.
 *
 * The diagonals depend on where each port sits in the matrix, so the engine gives it the router's
 * ports in BookSim's numbering (`portGeometry`, from port-lanes.ts): without it, requests are
 * placed at their own indices in a square as wide as the largest router.
 */
import { registerAllocator } from './table.js';
import { SparseAllocator } from './sparse.js';
import type { AllocatorGeometry } from '../port-lanes.js';

export class WavefrontAllocator extends SparseAllocator {
  private readonly order: Int32Array;
  private readonly sortKey: Float64Array;
  private readonly side: number;
  /** Per request index, from the allocate call's per-router bases: its index in the square. */
  private inIndex: Int32Array | null = null;
  private outIndex: Int32Array | null = null;
  /** Per router, at its output base: the side of its square. */
  private sideAt: Int32Array | null = null;

  constructor(
    /** BookSim's skip_diags (`rr_wavefront`): the next sweep starts past the first diagonal granted. */
    private readonly skipDiagonals: boolean,
    maxInputs: number,
    maxOutputs: number,
    maxRequests: number,
  ) {
    super(maxInputs, maxOutputs, maxRequests);
    this.order = new Int32Array(maxRequests);
    this.sortKey = new Float64Array(maxRequests);
    this.side = Math.max(maxInputs, maxOutputs);
  }

  portGeometry(geometry: AllocatorGeometry): void {
    this.inIndex = geometry.inIndex;
    this.outIndex = geometry.outIndex;
    this.sideAt = geometry.side;
  }

  allocate(_iterations: number, grantPtr: Int32Array, ptrBaseOut: number, _acceptPtr?: Int32Array, ptrBaseIn = 0): number {
    const n = this.count;
    const { reqIn, reqOut, reqInPri, matchOfIn, matchOfOut, order, sortKey, inIndex, outIndex } = this;
    const side = this.sideAt === null ? this.side : this.sideAt[ptrBaseOut];
    this.clearMatches();
    const pri = grantPtr[ptrBaseOut];
    // Sort key: higher input priority first, then the diagonal from `pri`, then the output.
    for (let k = 0; k < n; k++) {
      const i = inIndex === null ? reqIn[k] : inIndex[ptrBaseIn + reqIn[k]];
      const o = outIndex === null ? reqOut[k] : outIndex[ptrBaseOut + reqOut[k]];
      const diagonal = (i + o - pri + 2 * side) % side;
      const level = this.prioritized ? reqInPri[k] : 0;
      sortKey[k] = -level * side * side + diagonal * side + o;
      order[k] = k;
    }
    // Insertion sort: a router's requests in one cycle are few.
    for (let a = 1; a < n; a++) {
      const k = order[a];
      const key = sortKey[k];
      let b = a - 1;
      while (b >= 0 && sortKey[order[b]] > key) {
        order[b + 1] = order[b];
        b--;
      }
      order[b + 1] = k;
    }
    let matches = 0;
    let firstDiagonal = -1;
    for (let a = 0; a < n; a++) {
      const k = order[a];
      const i = reqIn[k];
      const o = reqOut[k];
      if (matchOfIn[i] >= 0 || matchOfOut[o] >= 0) continue;
      matchOfIn[i] = o;
      matchOfOut[o] = i;
      matches++;
      if (firstDiagonal < 0) firstDiagonal = inIndex === null ? i + o : inIndex[ptrBaseIn + i] + outIndex![ptrBaseOut + o];
    }
    grantPtr[ptrBaseOut] = ((this.skipDiagonals ? firstDiagonal : pri) + 1) % side;
    return matches;
  }
}

registerAllocator({
  name: 'wavefront',
  description: "BookSim's wavefront: diagonals of the request matrix swept from a priority diagonal that moves by one every allocation",
  bookSimName: 'wavefront',
  readsPriority: false,
  create: (maxInputs, maxOutputs, maxRequests) => new WavefrontAllocator(false, maxInputs, maxOutputs, maxRequests),
});

registerAllocator({
  name: 'rr-wavefront',
  description: "BookSim's rr_wavefront: the wavefront whose next sweep starts one past the first diagonal granted",
  bookSimName: 'rr_wavefront',
  readsPriority: false,
  create: (maxInputs, maxOutputs, maxRequests) => new WavefrontAllocator(true, maxInputs, maxOutputs, maxRequests),
});
