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
  private readonly outOffset: Int32Array;
  private readonly grantDistance: Int32Array;
  private readonly granted: Int32Array;
  /** Per input: this iteration's offset (-1: not drawn yet), its best distance and accepted output. */
  private readonly inOffset: Int32Array;
  private readonly acceptDistance: Int32Array;
  private readonly accepted: Int32Array;
  /** The run's stream to draw from as BookSim does, or null (own generator, offsets drawn as needed). */
  private stream: RandomStream | null = null;
  private geometry: AllocatorGeometry | null = null;
  /** BookSim mode: this iteration's offset per output and per input, by BookSim's port numbers. */
  private outDrawn = new Int32Array(16);
  private inDrawn = new Int32Array(16);

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
    if (this.stream !== null) return this.allocateAsBookSim(this.stream, iterations, ptrBaseOut, ptrBaseIn);
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

  /** BookSim's PIM::Allocate, drawing from `stream`: every offset of every iteration, in BookSim's order. */
  private allocateAsBookSim(stream: RandomStream, iterations: number, ptrBaseOut: number, ptrBaseIn: number): number {
    const n = this.count;
    const { reqIn, reqOut, matchOfIn, matchOfOut, grantDistance, granted, acceptDistance, accepted, geometry } = this;
    const nIn = geometry === null ? this.maxInputs : geometry.inputs[ptrBaseOut];
    const nOut = geometry === null ? this.maxOutputs : geometry.outputs[ptrBaseOut];
    if (this.outDrawn.length < nOut) this.outDrawn = new Int32Array(nOut);
    if (this.inDrawn.length < nIn) this.inDrawn = new Int32Array(nIn);
    const { outDrawn, inDrawn } = this;
    const inNo = (i: number): number => (geometry === null ? i : geometry.inIndex[ptrBaseIn + i]);
    const outNo = (o: number): number => (geometry === null ? o : geometry.outIndex[ptrBaseOut + o]);
    this.clearMatches();
    let matches = 0;
    for (let it = 0; it < Math.max(1, iterations); it++) {
      for (let k = 0; k < n; k++) {
        granted[reqOut[k]] = -1;
        accepted[reqIn[k]] = -1;
      }
      // Grant: each output, in order, draws its offset over the inputs; it grants the unmatched
      // requesting input nearest at or after it.
      for (let o = 0; o < nOut; o++) outDrawn[o] = stream.int(nIn);
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = reqOut[k];
        if (matchOfIn[i] >= 0 || matchOfOut[o] >= 0) continue;
        const d = (inNo(i) - outDrawn[outNo(o)] + nIn) % nIn;
        if (granted[o] < 0 || d < grantDistance[o]) {
          granted[o] = i;
          grantDistance[o] = d;
        }
      }
      // Accept: each input, in order, draws its offset over the outputs; it accepts the granting
      // output nearest at or after it.
      for (let i = 0; i < nIn; i++) inDrawn[i] = stream.int(nOut);
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = reqOut[k];
        if (granted[o] !== i) continue;
        const d = (outNo(o) - inDrawn[inNo(i)] + nOut) % nOut;
        if (accepted[i] < 0 || d < acceptDistance[i]) {
          accepted[i] = o;
          acceptDistance[i] = d;
        }
      }
      for (let k = 0; k < n; k++) {
        const i = reqIn[k];
        const o = accepted[i];
        if (o < 0 || matchOfIn[i] >= 0) continue;
        matchOfIn[i] = o;
        matchOfOut[o] = i;
        matches++;
      }
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
