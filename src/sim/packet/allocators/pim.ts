/**
 * Parallel iterative matching (Anderson et al. 1993), as BookSim's `pim` allocator
 * (allocators/pim.cpp): in each iteration every unmatched output grants one of its unmatched
 * requesting inputs, the first at or after a random offset over the inputs, and every input accepts
 * one of its grants, the first at or after a random offset over the outputs. It never reads the
 * requests' priorities (BookSim's dense PIM ignores them), so it is registered with
 * `readsPriority: false`. Iterations: `pim(N)`, else one (BookSim's iq router builds its allocators
 * without the configuration, so `alloc_iters` does not reach them).
 *
 * The offsets are drawn from the run's seed (a generator per allocator, per VC or switch
 * allocation), in the order the routers allocate: the same run gives the same matches. Hand-written
 * over flat arrays: it runs per router per cycle in the packet engine's hot loop.
 */
import { Rng } from '../../../util/rng.js';
import { registerAllocator } from './table.js';
import { SparseAllocator } from './sparse.js';

export class PimAllocator extends SparseAllocator {
  private readonly rng: Rng;
  /** Per output: this iteration's offset (-1: not drawn yet), its best distance and granted input. */
  private readonly outOffset: Int32Array;
  private readonly grantDistance: Int32Array;
  private readonly granted: Int32Array;
  /** Per input: this iteration's offset (-1: not drawn yet), its best distance and accepted output. */
  private readonly inOffset: Int32Array;
  private readonly acceptDistance: Int32Array;
  private readonly accepted: Int32Array;

  constructor(maxInputs: number, maxOutputs: number, maxRequests: number, seed: number) {
    super(maxInputs, maxOutputs, maxRequests);
    this.rng = new Rng(seed);
    this.outOffset = new Int32Array(maxOutputs).fill(-1);
    this.grantDistance = new Int32Array(maxOutputs);
    this.granted = new Int32Array(maxOutputs).fill(-1);
    this.inOffset = new Int32Array(maxInputs).fill(-1);
    this.acceptDistance = new Int32Array(maxInputs);
    this.accepted = new Int32Array(maxInputs).fill(-1);
  }

  allocate(iterations: number): number {
    const n = this.count;
    const { reqIn, reqOut, matchOfIn, matchOfOut, outOffset, grantDistance, granted, inOffset, acceptDistance, accepted, rng } = this;
    const nIn = this.maxInputs;
    const nOut = this.maxOutputs;
    this.clearMatches();
    let matches = 0;
    for (let it = 0; it < Math.max(1, iterations); it++) {
      for (let k = 0; k < n; k++) {
        outOffset[reqOut[k]] = -1;
        granted[reqOut[k]] = -1;
        inOffset[reqIn[k]] = -1;
        accepted[reqIn[k]] = -1;
      }
      // Grant: each output the requesting input nearest at or after its offset.
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = reqOut[k];
        if (matchOfIn[i] >= 0 || matchOfOut[o] >= 0) continue;
        if (outOffset[o] < 0) outOffset[o] = rng.int(nIn);
        const d = (i - outOffset[o] + nIn) % nIn;
        if (granted[o] < 0 || d < grantDistance[o]) {
          granted[o] = i;
          grantDistance[o] = d;
        }
      }
      // Accept: each input the granting output nearest at or after its offset.
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = reqOut[k];
        if (granted[o] !== i || matchOfIn[i] >= 0) continue;
        if (inOffset[i] < 0) inOffset[i] = rng.int(nOut);
        const d = (o - inOffset[i] + nOut) % nOut;
        if (accepted[i] < 0 || d < acceptDistance[i]) {
          accepted[i] = o;
          acceptDistance[i] = d;
        }
      }
      let progressed = false;
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = accepted[i];
        if (o < 0 || matchOfIn[i] >= 0) continue;
        matchOfIn[i] = o;
        matchOfOut[o] = i;
        matches++;
        progressed = true;
      }
      if (!progressed) break;
    }
    return matches;
  }
}

registerAllocator({
  name: 'pim',
  description: "BookSim's pim: parallel iterative matching, grants and accepts from random offsets (the run's seed)",
  bookSimName: 'pim',
  readsPriority: false,
  create: (maxInputs, maxOutputs, maxRequests, seed) => new PimAllocator(maxInputs, maxOutputs, maxRequests, seed),
});
