/**
 * Sparse iSLIP allocator (McKeown 1999), 1..k iterations, as BookSim's `islip` allocator:
 * every unmatched output grants its highest-priority requesting input, every unmatched input
 * accepts its highest-priority granting output; pointers move past the match only on first-iteration
 * accepts. Priorities are keys (lower wins) given per request, so round-robin and age-based
 * arbitration share this code. Hand-written over flat typed arrays because it runs per router per
 * cycle in the packet engine's hot loop.
 */
import { nextIndex, roundRobinKey } from './round-robin.js';
import { registerAllocator } from './table.js';
import { SparseAllocator } from './sparse.js';

export class IslipAllocator extends SparseAllocator {
  private readonly bestKey: Float64Array;
  private readonly bestIn: Int32Array;
  private readonly acceptBest: Int32Array;
  private readonly acceptBestPri: Int32Array;

  constructor(
    maxInputs: number,
    maxOutputs: number,
    maxRequests: number,
    /** Inputs accept the grant of the highest input priority first (BookSim's SelAlloc), then round-robin. */
    private readonly acceptByInputPriority = false,
  ) {
    super(maxInputs, maxOutputs, maxRequests);
    this.bestKey = new Float64Array(maxOutputs);
    this.bestIn = new Int32Array(maxOutputs);
    this.acceptBest = new Int32Array(maxInputs);
    this.acceptBestPri = new Int32Array(maxInputs);
  }

  /**
   * Runs `iterations` rounds. `grantPtr` (per output) and `acceptPtr` (per input) are the caller's
   * persistent round-robin pointers, indexed from `ptrBaseOut` / `ptrBaseIn`.
   * Returns the number of matches; read them from matchOfIn[reqIn[k]].
   */
  allocate(iterations: number, grantPtr: Int32Array, ptrBaseOut: number, acceptPtr: Int32Array, ptrBaseIn: number): number {
    const n = this.count;
    const { reqIn, reqOut, reqKey, matchOfIn, matchOfOut, bestKey, bestIn, acceptBest, acceptBestPri } = this;
    const nIn = this.maxInputs;
    const nOut = this.maxOutputs;
    this.clearMatches();
    if (n === 1) {
      // A single request is always matched; pointers move exactly as a full iSLIP round would move them.
      const i = reqIn[0];
      const o = reqOut[0];
      matchOfIn[i] = o;
      matchOfOut[o] = i;
      grantPtr[ptrBaseOut + o] = nextIndex(i, nIn);
      acceptPtr[ptrBaseIn + i] = nextIndex(o, nOut);
      return 1;
    }
    let matches = 0;
    for (let it = 0; it < iterations; it++) {
      // Grant phase.
      for (let k = 0; k < n; k++) bestKey[reqOut[k]] = Infinity;
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = reqOut[k];
        if (matchOfIn[i] >= 0 || matchOfOut[o] >= 0) continue;
        const key = reqKey[k];
        if (key < bestKey[o]) {
          bestKey[o] = key;
          bestIn[o] = i;
        }
      }
      // Accept phase: each input takes the granting output nearest its pointer (of the highest input
      // priority first, when it reads them).
      const byPri = this.acceptByInputPriority && this.prioritized;
      for (let k = 0; k < n; k++) acceptBest[reqIn[k]] = -1;
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = reqOut[k];
        if (matchOfIn[i] >= 0 || matchOfOut[o] >= 0 || bestIn[o] !== i || bestKey[o] === Infinity) continue;
        const cur = acceptBest[i];
        const ap = acceptPtr[ptrBaseIn + i];
        const pri = byPri ? this.reqInPri[k] : 0;
        if (cur < 0 || pri > acceptBestPri[i] || (pri === acceptBestPri[i] && roundRobinKey(o, ap, nOut) < roundRobinKey(cur, ap, nOut))) {
          acceptBest[i] = o;
          acceptBestPri[i] = pri;
        }
      }
      let progressed = false;
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = acceptBest[i];
        if (o < 0 || matchOfIn[i] >= 0) continue;
        matchOfIn[i] = o;
        matchOfOut[o] = i;
        matches++;
        progressed = true;
        if (it === 0) {
          grantPtr[ptrBaseOut + o] = nextIndex(i, nIn);
          acceptPtr[ptrBaseIn + i] = nextIndex(o, nOut);
        }
      }
      if (!progressed) break;
    }
    return matches;
  }
}

registerAllocator({
  name: 'islip',
  description: 'sparse iSLIP, 1..k iterations; an output grants by the arbitration priority (round-robin: BookSim iSLIP_Sparse; age: the oldest packet)',
  create: (maxInputs, maxOutputs, maxRequests) => new IslipAllocator(maxInputs, maxOutputs, maxRequests),
});

// BookSim's iSLIP_Sparse grants and accepts round-robin whatever the requests' in_pri and out_pri,
// so `priority = age` only picks the VC an input puts forward (IQRouter's _SWAllocAddReq).
registerAllocator({
  name: 'islip-rr',
  description: "BookSim's iSLIP_Sparse: sparse iSLIP whose grants are round-robin whatever the arbitration priority (age only picks the VC each input puts forward)",
  bookSimName: 'islip',
  readsPriority: false,
  create: (maxInputs, maxOutputs, maxRequests) => new IslipAllocator(maxInputs, maxOutputs, maxRequests),
});

// BookSim's SelAlloc (selalloc.cpp): iSLIP whose outputs grant the highest out_pri (the packet's
// priority; round-robin among equals) and whose inputs accept the highest in_pri (a routing's
// candidate priority in VC allocation), round-robin among equals. Its inputs' age priority in switch
// allocation is not modelled: a BookSim file with select and priority = age is refused.
registerAllocator({
  name: 'select',
  description: "BookSim's select: iSLIP granting by the arbitration priority and accepting by the requests' input priority, round-robin among equals",
  bookSimName: 'select',
  create: (maxInputs, maxOutputs, maxRequests) => new IslipAllocator(maxInputs, maxOutputs, maxRequests, true),
});
