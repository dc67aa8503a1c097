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
 *
 * Drawing from the run's stream instead (`drawFrom`, BookSim's under `--random-stream booksim`), it
 * draws as BookSim's does: in every iteration an offset for every output of the router, in order,
 * then for every input, all in BookSim's numbering of the router's ports (`portGeometry`), and in
 * every call, with or without requests (`allocatesWhenIdle`).
 */
import { Rng, type RandomStream } from '../../../util/rng.js';
import { registerAllocator } from './table.js';
import { SparseAllocator } from './sparse.js';
import type { AllocatorGeometry } from '../port-lanes.js';

export class PimAllocator extends SparseAllocator {
  private readonly rng: Rng;
  /** Per output: this iteration's offset (-1: not drawn yet), its best distance and granted input. */
  private outOffset: Int32Array;
  private readonly grantDistance: Int32Array;
  private readonly granted: Int32Array;
  /** Per input: this iteration's offset (-1: not drawn yet), its best distance and accepted output. */
  private inOffset: Int32Array;
  private readonly acceptDistance: Int32Array;
  private readonly accepted: Int32Array;
  /** The run's stream to draw from as BookSim does, or null (own generator, offsets drawn as needed). */
  private stream: RandomStream | null = null;
  private geometry: AllocatorGeometry | null = null;

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

  get allocatesWhenIdle(): boolean {
    return this.stream !== null;
  }

  portGeometry(geometry: AllocatorGeometry): void {
    this.geometry = geometry;
  }

  drawFrom(stream: RandomStream): void {
    this.stream = stream;
  }

  allocate(iterations: number, _grantPtr?: Int32Array, ptrBaseOut = 0, _acceptPtr?: Int32Array, ptrBaseIn = 0): number {
    const n = this.count;
    const { reqIn, reqOut, matchOfIn, matchOfOut, grantDistance, granted, acceptDistance, accepted } = this;
    // BookSim's way (drawFrom): every offset drawn, in BookSim's numbering of the router's ports.
    const eager = this.stream !== null;
    const rng = this.stream ?? this.rng;
    const geometry = eager ? this.geometry : null;
    const nIn = geometry === null ? this.maxInputs : geometry.inputs[ptrBaseOut];
    const nOut = geometry === null ? this.maxOutputs : geometry.outputs[ptrBaseOut];
    if (this.outOffset.length < nOut) this.outOffset = new Int32Array(nOut);
    if (this.inOffset.length < nIn) this.inOffset = new Int32Array(nIn);
    const { outOffset, inOffset } = this;
    this.clearMatches();
    let matches = 0;
    for (let it = 0; it < Math.max(1, iterations); it++) {
      for (let k = 0; k < n; k++) {
        granted[reqOut[k]] = -1;
        accepted[reqIn[k]] = -1;
        if (!eager) {
          outOffset[reqOut[k]] = -1;
          inOffset[reqIn[k]] = -1;
        }
      }
      // Grant: each output the unmatched requesting input nearest at or after its offset.
      if (eager) for (let o = 0; o < nOut; o++) outOffset[o] = rng.int(nIn);
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = reqOut[k];
        if (matchOfIn[i] >= 0 || matchOfOut[o] >= 0) continue;
        const on = geometry === null ? o : geometry.outIndex[ptrBaseOut + o];
        if (outOffset[on] < 0) outOffset[on] = rng.int(nIn);
        const d = ((geometry === null ? i : geometry.inIndex[ptrBaseIn + i]) - outOffset[on] + nIn) % nIn;
        if (granted[o] < 0 || d < grantDistance[o]) {
          granted[o] = i;
          grantDistance[o] = d;
        }
      }
      // Accept: each input the granting output nearest at or after its offset.
      if (eager) for (let i = 0; i < nIn; i++) inOffset[i] = rng.int(nOut);
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = reqOut[k];
        if (granted[o] !== i || matchOfIn[i] >= 0) continue;
        const inNo = geometry === null ? i : geometry.inIndex[ptrBaseIn + i];
        if (inOffset[inNo] < 0) inOffset[inNo] = rng.int(nOut);
        const d = ((geometry === null ? o : geometry.outIndex[ptrBaseOut + o]) - inOffset[inNo] + nOut) % nOut;
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
      // BookSim runs every iteration, drawing each time.
      if (!progressed && !eager) break;
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
