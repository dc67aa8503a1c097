/**
 * The request list every sparse allocator fills and matches: flat typed arrays reset and reused
 * every cycle (the packet engine's hot loop allocates nothing per request).
 */
import type { Allocator } from './registry.js';

export abstract class SparseAllocator implements Allocator {
  /** Request list: input, output and a priority key (lower wins) for the output's decision. */
  readonly reqIn: Int32Array;
  readonly reqOut: Int32Array;
  readonly reqKey: Float64Array;
  /** Caller's payload per request (e.g. which VC of the input made it). */
  readonly reqAux: Int32Array;
  /**
   * The request's priority at its input (higher first; BookSim's `in_pri`, which a routing's
   * candidates carry), valid when `prioritized`: separable allocators' input arbiters read it, iSLIP
   * ignores it as BookSim's does.
   */
  readonly reqInPri: Int32Array;
  /** Whether this cycle's requests came through `addPrioritized` (a caller uses one or the other per cycle). */
  prioritized = false;
  count = 0;
  /** Result: matched output per input (-1 when unmatched), valid for the inputs that requested. */
  readonly matchOfIn: Int32Array;
  protected readonly matchOfOut: Int32Array;

  constructor(
    readonly maxInputs: number,
    readonly maxOutputs: number,
    maxRequests: number,
  ) {
    this.reqIn = new Int32Array(maxRequests);
    this.reqOut = new Int32Array(maxRequests);
    this.reqKey = new Float64Array(maxRequests);
    this.reqAux = new Int32Array(maxRequests);
    this.reqInPri = new Int32Array(maxRequests);
    this.matchOfIn = new Int32Array(maxInputs).fill(-1);
    this.matchOfOut = new Int32Array(maxOutputs).fill(-1);
  }

  /** `add` with the request's input priority; plain `add` leaves it unwritten (the hot loop's requests have none). */
  addPrioritized(input: number, output: number, key: number, aux: number, inPri: number): void {
    this.reqInPri[this.count] = inPri;
    this.prioritized = true;
    this.add(input, output, key, aux);
  }

  add(input: number, output: number, key: number, aux = 0): void {
    const k = this.count++;
    this.reqAux[k] = aux;
    this.reqIn[k] = input;
    this.reqOut[k] = output;
    this.reqKey[k] = key;
  }

  /** Clears the matches of every input and output that has a request. */
  protected clearMatches(): void {
    for (let k = 0; k < this.count; k++) {
      this.matchOfIn[this.reqIn[k]] = -1;
      this.matchOfOut[this.reqOut[k]] = -1;
    }
  }

  abstract allocate(iterations: number, grantPtr: Int32Array, ptrBaseOut: number, acceptPtr: Int32Array, ptrBaseIn: number): number;

  reset(): void {
    this.count = 0;
    this.prioritized = false;
  }
}
