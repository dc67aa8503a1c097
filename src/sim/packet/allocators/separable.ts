/**
 * Separable allocators, as BookSim's `separable_input_first` and `separable_output_first`
 * (allocators/separable_*.cpp): one arbiter per input and one per output, run once (no
 * iterations; `alloc_iters` does not apply). Input first: each input picks one of its requests,
 * then each output picks among the inputs that picked it. Output first: each output picks one
 * request, then each input picks among the outputs that picked it. Arbiters of a matched pair move
 * their round-robin pointers past each other (BookSim's `UpdateState`); unmatched ones keep them.
 * Output arbiters rank by the request's key (the configured arbitration); input arbiters rank by
 * the request's input priority (`reqInPri`, higher first; BookSim's round-robin arbiter), then
 * round-robin from the input's pointer, as iSLIP's accept step does. Hand-written over flat arrays:
 * it runs per router per cycle in the packet engine's hot loop.
 */
import { nextIndex, roundRobinKey } from './round-robin.js';
import { registerAllocator } from './table.js';
import { SparseAllocator } from './sparse.js';

export type SeparableOrder = 'input-first' | 'output-first';

export class SeparableAllocator extends SparseAllocator {
  /** Per input: the request its arbiter picked (-1: none). */
  private readonly inPick: Int32Array;
  /** Per output: the request its arbiter picked (-1: none). */
  private readonly outPick: Int32Array;

  constructor(
    readonly order: SeparableOrder,
    maxInputs: number,
    maxOutputs: number,
    maxRequests: number,
  ) {
    super(maxInputs, maxOutputs, maxRequests);
    this.inPick = new Int32Array(maxInputs).fill(-1);
    this.outPick = new Int32Array(maxOutputs).fill(-1);
  }

  allocate(_iterations: number, grantPtr: Int32Array, ptrBaseOut: number, acceptPtr: Int32Array, ptrBaseIn: number): number {
    const n = this.count;
    const { reqIn, reqOut, inPick, outPick, matchOfIn, matchOfOut } = this;
    this.clearMatches();
    for (let k = 0; k < n; k++) {
      inPick[reqIn[k]] = -1;
      outPick[reqOut[k]] = -1;
    }
    if (this.order === 'input-first') {
      for (let k = 0; k < n; k++) this.offerToInput(k, acceptPtr, ptrBaseIn, false);
      for (let k = 0; k < n; k++) if (inPick[reqIn[k]] === k) this.offerToOutput(k);
    } else {
      for (let k = 0; k < n; k++) this.offerToOutput(k);
      for (let k = 0; k < n; k++) this.offerToInput(k, acceptPtr, ptrBaseIn, true);
    }
    let matches = 0;
    const nIn = this.maxInputs;
    const nOut = this.maxOutputs;
    for (let k = 0; k < n; k++) {
      const i = reqIn[k];
      const o = reqOut[k];
      if (inPick[i] !== k || outPick[o] !== k) continue;
      matchOfIn[i] = o;
      matchOfOut[o] = i;
      grantPtr[ptrBaseOut + o] = nextIndex(i, nIn);
      acceptPtr[ptrBaseIn + i] = nextIndex(o, nOut);
      matches++;
    }
    return matches;
  }

  /** The input arbiter of request k's input considers it (only if its output picked it, when `granted`). */
  private offerToInput(k: number, acceptPtr: Int32Array, ptrBaseIn: number, granted: boolean): void {
    const i = this.reqIn[k];
    const o = this.reqOut[k];
    if (granted && this.outPick[o] !== k) return;
    const cur = this.inPick[i];
    if (cur < 0) {
      this.inPick[i] = k;
      return;
    }
    // BookSim's round-robin arbiter: the higher priority first, then the nearer the pointer.
    const pri = this.prioritized ? this.reqInPri[k] : 0;
    const curPri = this.prioritized ? this.reqInPri[cur] : 0;
    const ap = acceptPtr[ptrBaseIn + i];
    if (pri > curPri || (pri === curPri && roundRobinKey(o, ap, this.maxOutputs) < roundRobinKey(this.reqOut[cur], ap, this.maxOutputs))) this.inPick[i] = k;
  }

  /** The output arbiter of request k's output considers it: the lowest key wins, the first on a tie. */
  private offerToOutput(k: number): void {
    const o = this.reqOut[k];
    const cur = this.outPick[o];
    if (cur < 0 || this.reqKey[k] < this.reqKey[cur]) this.outPick[o] = k;
  }
}

registerAllocator({
  name: 'separable-input-first',
  description: 'separable, input arbiters first, one pass (BookSim separable_input_first)',
  bookSimName: 'separable_input_first',
  create: (maxInputs, maxOutputs, maxRequests) => new SeparableAllocator('input-first', maxInputs, maxOutputs, maxRequests),
});

registerAllocator({
  name: 'separable-output-first',
  description: 'separable, output arbiters first, one pass (BookSim separable_output_first)',
  bookSimName: 'separable_output_first',
  create: (maxInputs, maxOutputs, maxRequests) => new SeparableAllocator('output-first', maxInputs, maxOutputs, maxRequests),
});
