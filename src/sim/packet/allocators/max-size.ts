/**
 * Maximum-size matching, as BookSim's `max_size` allocator (allocators/maxsize.cpp): augmenting
 * paths are added, shortest first, until none is left. Each search starts from the unmatched inputs
 * in order from a priority input that moves by one after every allocation (BookSim's `_prio`, per
 * router: kept here in the caller's grant pointer of the router's first output), and from each input
 * scans its requested outputs in ascending order, layer by layer, as BookSim's breadth-first search.
 * It never reads the requests' priorities (registered with `readsPriority: false`). Hand-written over
 * flat arrays: it runs per router per cycle in the packet engine's hot loop.
 *
 * BookSim's priority rotates over the router's own inputs, numbered by its ports (port · width +
 * VC or crossbar input), and moves on every Allocate() call, with or without requests. So the
 * engine gives it the ports' BookSim numbers (`portGeometry`: a mesh's edge routers keep the
 * numbers of the ports they lack) and calls it in every cycle a VC waits in the stage
 * (`allocatesWhenIdle`). Without the geometry, inputs are their request indices among the
 * largest router's.
 */
import { registerAllocator } from './table.js';
import { SparseAllocator } from './sparse.js';
import type { AllocatorGeometry } from '../port-lanes.js';

export class MaxSizeAllocator extends SparseAllocator {
  /** Request indices sorted by (input, output): each input's requested outputs in ascending order. */
  private readonly order: Int32Array;
  private readonly firstOf: Int32Array;
  private readonly endOf: Int32Array;
  /** Per output: the input the search reached it from (-1: not reached). */
  private readonly from: Int32Array;
  private stack: Int32Array;
  private next: Int32Array;
  /** Per request input index, from the allocate call's per-router base: its BookSim input number. */
  private inIndex: Int32Array | null = null;
  /** Per router, at its output base: its BookSim input count. */
  private inputsAt: Int32Array | null = null;
  readonly allocatesWhenIdle = true;

  constructor(maxInputs: number, maxOutputs: number, maxRequests: number) {
    super(maxInputs, maxOutputs, maxRequests);
    this.order = new Int32Array(maxRequests);
    this.firstOf = new Int32Array(maxInputs);
    this.endOf = new Int32Array(maxInputs);
    this.from = new Int32Array(maxOutputs).fill(-1);
    // A layer may list an input once per output that leads to it: at most one entry per request.
    this.stack = new Int32Array(maxRequests + maxInputs);
    this.next = new Int32Array(maxRequests + maxInputs);
  }

  portGeometry(geometry: AllocatorGeometry): void {
    this.inIndex = geometry.inIndex;
    this.inputsAt = geometry.inputs;
  }

  allocate(_iterations: number, grantPtr: Int32Array, ptrBaseOut: number, _acceptPtr?: Int32Array, ptrBaseIn = 0): number {
    const n = this.count;
    const { reqIn, reqOut, order, firstOf, endOf } = this;
    const nIn = this.inputsAt === null ? this.maxInputs : this.inputsAt[ptrBaseOut];
    this.clearMatches();
    const prio = grantPtr[ptrBaseOut] % nIn;
    // Sort by (input, output): insertion sort, a router's requests in one cycle are few.
    for (let a = 0; a < n; a++) {
      const key = reqIn[a] * this.maxOutputs + reqOut[a];
      let b = a - 1;
      while (b >= 0 && reqIn[order[b]] * this.maxOutputs + reqOut[order[b]] > key) {
        order[b + 1] = order[b];
        b--;
      }
      order[b + 1] = a;
    }
    for (let a = 0; a < n; a++) endOf[reqIn[order[a]]] = -1;
    for (let a = 0; a < n; a++) {
      const i = reqIn[order[a]];
      if (endOf[i] < 0) firstOf[i] = a;
      endOf[i] = a + 1;
    }
    let matches = 0;
    while (this.augment(prio, nIn, ptrBaseIn)) matches++;
    grantPtr[ptrBaseOut] = (prio + 1) % nIn;
    return matches;
  }

  /** Request input i's place in the search order: its distance from the priority input, in BookSim's numbers. */
  private rank(i: number, prio: number, nIn: number, base: number): number {
    return ((this.inIndex === null ? i : this.inIndex[base + i]) - prio + nIn) % nIn;
  }

  /** One shortest augmenting path, added to the matching; false when there is none. */
  private augment(prio: number, nIn: number, base: number): boolean {
    const n = this.count;
    const { reqIn, reqOut, order, firstOf, endOf, from, matchOfIn, matchOfOut } = this;
    let stack = this.stack;
    let next = this.next;
    // The unmatched inputs that request, in order from the priority input (by BookSim's numbers).
    let len = 0;
    for (let a = 0; a < n; a++) {
      const i = reqIn[order[a]];
      if (firstOf[i] === a && matchOfIn[i] < 0) stack[len++] = i;
    }
    for (let x = 1; x < len; x++) {
      const i = stack[x];
      const key = this.rank(i, prio, nIn, base);
      let y = x - 1;
      while (y >= 0 && this.rank(stack[y], prio, nIn, base) > key) {
        stack[y + 1] = stack[y];
        y--;
      }
      stack[y + 1] = i;
    }
    for (let k = 0; k < n; k++) from[reqOut[k]] = -1;
    let found = -1;
    for (let layer = 0; layer < nIn && found < 0 && len > 0; layer++) {
      let nextLen = 0;
      for (let e = 0; e < len && found < 0; e++) {
        const i = stack[e];
        for (let a = firstOf[i]; a < endOf[i]; a++) {
          const j = reqOut[order[a]];
          if (matchOfIn[i] === j || from[j] >= 0) continue;
          from[j] = i;
          if (matchOfOut[j] < 0) {
            found = j;
            break;
          }
          next[nextLen++] = matchOfOut[j];
        }
      }
      const t = stack;
      stack = next;
      next = t;
      len = nextLen;
    }
    this.stack = stack;
    this.next = next;
    if (found < 0) return false;
    // Flip the path back from its free output: each input on it takes the output it was reached by.
    let j = found;
    let i = from[j];
    matchOfOut[j] = i;
    while (matchOfIn[i] >= 0) {
      const previous = matchOfIn[i];
      matchOfIn[i] = j;
      j = previous;
      i = from[j];
      matchOfOut[j] = i;
    }
    matchOfIn[i] = j;
    return true;
  }
}

registerAllocator({
  name: 'max-size',
  description: "BookSim's max_size: a maximum-size matching by shortest augmenting paths, from a priority input that moves by one per allocation",
  bookSimName: 'max_size',
  readsPriority: false,
  create: (maxInputs, maxOutputs, maxRequests) => new MaxSizeAllocator(maxInputs, maxOutputs, maxRequests),
});
