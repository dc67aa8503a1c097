import { resized } from '../../util/typed-arrays.js';

/**
 * The engine's event queue: events pop in (time, insertion order). Hand-written rather than a
 * dependency because it is the hot core of the engine: it must not allocate per event (millions of
 * events), and ties must pop in insertion order so that runs are deterministic (a library heap
 * gives no order guarantee for equal keys).
 *
 * Collectives push events in long runs at one time (every flow of a hop group finishes together,
 * and its deliveries share one latency), so events are kept in FIFO buckets of equal time and only
 * the buckets sit in a binary heap on (time, creation order). A push at the time of the newest
 * bucket appends to it: every event already queued at that time is older, so FIFO order within
 * the bucket is insertion order. At 32×32×32 this replaced 27 M heap pops (a tenth of the engine)
 * by a few thousand.
 */
export class EventQueue {
  // Events: FIFO lists through eNext, recycled through a free list.
  private eKind: Uint8Array;
  private eArg: Int32Array;
  private eNext: Int32Array;
  private eFree = -1;
  private eUsed = 0;
  // Buckets: time, creation order, list head and tail; recycled through bFree (chained in bHead).
  private bTime = new Float64Array(64);
  private bSeq = new Float64Array(64);
  private bHead = new Int32Array(64);
  private bTail = new Int32Array(64);
  private bFree = -1;
  private bUsed = 0;
  /** Heap of bucket ids. */
  private heap = new Int32Array(64);
  private heapSize = 0;
  /** The newest bucket while it is still queued, else -1. */
  private newest = -1;
  private counter = 0;
  private size = 0;
  /** Total events ever pushed (events per second is reported from it). */
  pushed = 0;

  constructor(capacity = 1024) {
    this.eKind = new Uint8Array(capacity);
    this.eArg = new Int32Array(capacity);
    this.eNext = new Int32Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  push(time: number, kind: number, arg: number): void {
    this.pushed++;
    this.size++;
    let e: number;
    if (this.eFree >= 0) {
      e = this.eFree;
      this.eFree = this.eNext[e];
    } else {
      if (this.eUsed === this.eKind.length) {
        const n = 2 * this.eUsed;
        this.eKind = resized(this.eKind, n);
        this.eArg = resized(this.eArg, n);
        this.eNext = resized(this.eNext, n);
      }
      e = this.eUsed++;
    }
    this.eKind[e] = kind;
    this.eArg[e] = arg;
    this.eNext[e] = -1;
    const b = this.newest;
    if (b >= 0 && this.bTime[b] === time) {
      this.eNext[this.bTail[b]] = e;
      this.bTail[b] = e;
      return;
    }
    this.newest = this.newBucket(time, e);
  }

  peekTime(): number {
    return this.heapSize > 0 ? this.bTime[this.heap[0]] : Infinity;
  }

  peekKind(): number {
    return this.eKind[this.bHead[this.heap[0]]];
  }

  peekArg(): number {
    return this.eArg[this.bHead[this.heap[0]]];
  }

  /** Removes the earliest event; read it with peek* first. */
  pop(): void {
    this.size--;
    const b = this.heap[0];
    const e = this.bHead[b];
    const next = this.eNext[e];
    this.eNext[e] = this.eFree;
    this.eFree = e;
    if (next >= 0) {
      this.bHead[b] = next;
      return;
    }
    // The bucket is empty: drop it from the heap and recycle it.
    if (b === this.newest) this.newest = -1;
    this.bHead[b] = this.bFree;
    this.bFree = b;
    const n = --this.heapSize;
    if (n > 0) this.siftDown(this.heap[n], n);
  }

  private newBucket(time: number, e: number): number {
    let b: number;
    if (this.bFree >= 0) {
      b = this.bFree;
      this.bFree = this.bHead[b];
    } else {
      if (this.bUsed === this.bTime.length) {
        const n = 2 * this.bUsed;
        this.bTime = resized(this.bTime, n);
        this.bSeq = resized(this.bSeq, n);
        this.bHead = resized(this.bHead, n);
        this.bTail = resized(this.bTail, n);
      }
      b = this.bUsed++;
    }
    this.bTime[b] = time;
    this.bSeq[b] = this.counter++;
    this.bHead[b] = e;
    this.bTail[b] = e;
    if (this.heapSize === this.heap.length) this.heap = resized(this.heap, 2 * this.heapSize);
    // Sift up: a new bucket is the newest, so it goes below every bucket of equal time.
    const heap = this.heap;
    let i = this.heapSize++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.bTime[heap[p]] <= time) break;
      heap[i] = heap[p];
      i = p;
    }
    heap[i] = b;
    return b;
  }

  private before(a: number, b: number): boolean {
    const ta = this.bTime[a];
    const tb = this.bTime[b];
    return ta < tb || (ta === tb && this.bSeq[a] < this.bSeq[b]);
  }

  private siftDown(b: number, n: number): void {
    const heap = this.heap;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.before(heap[c + 1], heap[c])) c++;
      if (!this.before(heap[c], b)) break;
      heap[i] = heap[c];
      i = c;
    }
    heap[i] = b;
  }
}

/**
 * A min-heap of ids keyed by time, holding each id at most once: set() moves an id in place, so a
 * key that changes leaves no stale entry behind (the local rate updates re-time hundreds of flows
 * per update; a lazy heap of their old finish times grew large and slow). Ties pop in any order:
 * the engine sorts what it collects.
 */
export class IndexedTimeHeap {
  private key: Float64Array = new Float64Array(0);
  private id: Int32Array = new Int32Array(0);
  /** Heap slot of each id, -1 when absent. */
  private slot: Int32Array = new Int32Array(0);
  private size = 0;

  get length(): number {
    return this.size;
  }

  peekTime(): number {
    return this.size > 0 ? this.key[0] : Infinity;
  }

  peekId(): number {
    return this.id[0];
  }

  /** Inserts id with key `time`, or moves it there; Infinity removes it. */
  set(id: number, time: number): void {
    if (id >= this.slot.length) this.slot = grownSlots(this.slot, id);
    const at = this.slot[id];
    if (time === Infinity) {
      if (at >= 0) this.removeAt(at);
      return;
    }
    if (at < 0) {
      if (this.size === this.key.length) {
        this.key = resized(this.key, Math.max(64, this.size * 2));
        this.id = resized(this.id, Math.max(64, this.size * 2));
      }
      this.up(this.size++, id, time);
    } else if (time < this.key[at]) this.up(at, id, time);
    else this.down(at, id, time);
  }

  /** Removes the earliest id. */
  pop(): void {
    this.removeAt(0);
  }

  private removeAt(at: number): void {
    this.slot[this.id[at]] = -1;
    const n = --this.size;
    if (at === n) return;
    const id = this.id[n];
    const time = this.key[n];
    if (at > 0 && time < this.key[(at - 1) >> 1]) this.up(at, id, time);
    else this.down(at, id, time);
  }

  private up(i: number, id: number, time: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.key[p] <= time) break;
      this.place(i, this.id[p], this.key[p]);
      i = p;
    }
    this.place(i, id, time);
  }

  private down(i: number, id: number, time: number): void {
    const n = this.size;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.key[c + 1] < this.key[c]) c++;
      if (time <= this.key[c]) break;
      this.place(i, this.id[c], this.key[c]);
      i = c;
    }
    this.place(i, id, time);
  }

  private place(i: number, id: number, time: number): void {
    this.key[i] = time;
    this.id[i] = id;
    this.slot[id] = i;
  }
}

function grownSlots(slot: Int32Array, id: number): Int32Array {
  const next = new Int32Array(Math.max(1024, (id + 1) * 2)).fill(-1);
  next.set(slot);
  return next;
}
