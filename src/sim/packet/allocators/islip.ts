/**
 * Sparse iSLIP allocator (McKeown 1999), 1..k iterations, as BookSim's `islip` allocator:
 * every unmatched output grants its highest-priority requesting input, every unmatched input
 * accepts its highest-priority granting output; pointers move past the match only on first-iteration
 * accepts. Priorities are keys (lower wins) given per request, so round-robin and age-based
 * arbitration share this code. Hand-written over flat typed arrays because it runs per router per
 * cycle in the packet engine's hot loop.
 */
import { roundRobinKey } from './round-robin.js';
import { registerAllocator, type Allocator } from './registry.js';

export class IslipAllocator implements Allocator {
  /** Request list: input, output and a priority key for the output's grant decision. */
  readonly reqIn: Int32Array;
  readonly reqOut: Int32Array;
  readonly reqKey: Float64Array;
  /** Caller's payload per request (e.g. which VC of the input made it). */
  readonly reqAux: Int32Array;
  count = 0;
  /** Result: matched output per input (-1 when unmatched), valid for the inputs that requested. */
  readonly matchOfIn: Int32Array;
  private readonly matchOfOut: Int32Array;
  private readonly bestKey: Float64Array;
  private readonly bestIn: Int32Array;
  private readonly acceptBest: Int32Array;

  constructor(
    readonly maxInputs: number,
    readonly maxOutputs: number,
    maxRequests: number,
  ) {
    this.reqIn = new Int32Array(maxRequests);
    this.reqOut = new Int32Array(maxRequests);
    this.reqKey = new Float64Array(maxRequests);
    this.reqAux = new Int32Array(maxRequests);
    this.matchOfIn = new Int32Array(maxInputs).fill(-1);
    this.matchOfOut = new Int32Array(maxOutputs).fill(-1);
    this.bestKey = new Float64Array(maxOutputs);
    this.bestIn = new Int32Array(maxOutputs);
    this.acceptBest = new Int32Array(maxInputs);
  }

  add(input: number, output: number, key: number, aux = 0): void {
    const k = this.count++;
    this.reqAux[k] = aux;
    this.reqIn[k] = input;
    this.reqOut[k] = output;
    this.reqKey[k] = key;
  }

  /**
   * Runs `iterations` rounds. `grantPtr` (per output) and `acceptPtr` (per input) are the caller's
   * persistent round-robin pointers, indexed from `ptrBaseOut` / `ptrBaseIn`.
   * Returns the number of matches; read them from matchOfIn[reqIn[k]].
   */
  allocate(iterations: number, grantPtr: Int32Array, ptrBaseOut: number, acceptPtr: Int32Array, ptrBaseIn: number): number {
    const n = this.count;
    const { reqIn, reqOut, reqKey, matchOfIn, matchOfOut, bestKey, bestIn, acceptBest } = this;
    const nIn = this.maxInputs;
    const nOut = this.maxOutputs;
    for (let k = 0; k < n; k++) {
      matchOfIn[reqIn[k]] = -1;
      matchOfOut[reqOut[k]] = -1;
    }
    if (n === 1) {
      // A single request is always matched; pointers move exactly as a full iSLIP round would move them.
      const i = reqIn[0];
      const o = reqOut[0];
      matchOfIn[i] = o;
      matchOfOut[o] = i;
      grantPtr[ptrBaseOut + o] = (i + 1) % nIn;
      acceptPtr[ptrBaseIn + i] = (o + 1) % nOut;
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
      // Accept phase: each input takes the granting output nearest its pointer.
      for (let k = 0; k < n; k++) acceptBest[reqIn[k]] = -1;
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = reqOut[k];
        if (matchOfIn[i] >= 0 || matchOfOut[o] >= 0 || bestIn[o] !== i || bestKey[o] === Infinity) continue;
        const cur = acceptBest[i];
        const ap = acceptPtr[ptrBaseIn + i];
        if (cur < 0 || roundRobinKey(o, ap, nOut) < roundRobinKey(cur, ap, nOut)) acceptBest[i] = o;
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
          grantPtr[ptrBaseOut + o] = (i + 1) % nIn;
          acceptPtr[ptrBaseIn + i] = (o + 1) % nOut;
        }
      }
      if (!progressed) break;
    }
    return matches;
  }

  reset(): void {
    this.count = 0;
  }
}

registerAllocator({
  name: 'islip',
  description: 'sparse iSLIP, 1..k iterations (BookSim iSLIP_Sparse)',
  bookSimName: 'islip',
  create: (maxInputs, maxOutputs, maxRequests) => new IslipAllocator(maxInputs, maxOutputs, maxRequests),
});
