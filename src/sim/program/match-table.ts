/**
 * Receive matching for the flow engine: per (source, destination, tag) key, a FIFO of messages that
 * arrived and are not yet received, and a FIFO of receives waiting (a stream blocked in a receive,
 * or a non-blocking receive its stream posted and went past). Hand-written over
 * typed arrays (open addressing with linear probing and backward-shift deletion) because a
 * 32×32×32 alltoall matches 9 M messages: a Map of per-key objects and arrays (keys beyond 2^31)
 * was a sixth of the engine's CPU profile, much of it garbage collection. Only keys with something
 * pending are stored, so the table stays as small as the messages in flight.
 */
import { resized } from '../../util/typed-arrays.js';

const EMPTY = -1;

export class MatchTable {
  // Slot columns, (re)allocated together by allocate().
  private keys!: Float64Array;
  private arrHead!: Int32Array;
  private arrTail!: Int32Array;
  private waitHead!: Int32Array;
  private waitTail!: Int32Array;
  private mask = 0;
  private size = 0;
  // Arrived messages: a pool of list nodes, recycled through a free list.
  private aTime = new Float64Array(1024);
  private aOp = new Int32Array(1024);
  private aNext = new Int32Array(1024);
  private aFree = -1;
  private aUsed = 0;
  // Waiting receives: a pool of list nodes (stream, non-blocking op or -1), recycled through a free list.
  private wStream = new Int32Array(1024);
  private wOp = new Int32Array(1024);
  private wNext = new Int32Array(1024);
  private wFree = -1;
  private wUsed = 0;
  /** Set by takeArrival: the received message's arrival time and sending op. */
  time = 0;
  op = -1;
  /** Set by takeWaiting: the non-blocking receive op that waited, or -1 for a stream blocked in its receive. */
  waitOp = -1;

  constructor() {
    this.allocate(1024);
  }

  /** Takes the oldest arrival of `key` into (time, op); false if none arrived. */
  takeArrival(key: number): boolean {
    const slot = this.find(key);
    if (slot < 0) return false;
    const a = this.arrHead[slot];
    if (a < 0) return false;
    this.time = this.aTime[a];
    this.op = this.aOp[a];
    this.arrHead[slot] = this.aNext[a];
    this.aNext[a] = this.aFree;
    this.aFree = a;
    if (this.arrHead[slot] < 0 && this.waitHead[slot] < 0) this.remove(slot);
    return true;
  }

  /** Takes the longest-waiting receive of `key`: its stream (and `waitOp`), or -1 if none waits. */
  takeWaiting(key: number): number {
    const slot = this.find(key);
    if (slot < 0) return -1;
    const w = this.waitHead[slot];
    if (w < 0) return -1;
    this.waitHead[slot] = this.wNext[w];
    this.wNext[w] = this.wFree;
    this.wFree = w;
    if (this.arrHead[slot] < 0 && this.waitHead[slot] < 0) this.remove(slot);
    this.waitOp = this.wOp[w];
    return this.wStream[w];
  }

  addArrival(key: number, time: number, op: number): void {
    const slot = this.slotFor(key);
    let a: number;
    if (this.aFree >= 0) {
      a = this.aFree;
      this.aFree = this.aNext[a];
    } else {
      if (this.aUsed === this.aTime.length) {
        const n = this.aUsed * 2;
        this.aTime = resized(this.aTime, n);
        this.aOp = resized(this.aOp, n);
        this.aNext = resized(this.aNext, n);
      }
      a = this.aUsed++;
    }
    this.aTime[a] = time;
    this.aOp[a] = op;
    this.aNext[a] = -1;
    if (this.arrHead[slot] < 0) this.arrHead[slot] = a;
    else this.aNext[this.arrTail[slot]] = a;
    this.arrTail[slot] = a;
  }

  /** Stream `s` waits on `key`: blocked in its receive, or (`op` >= 0) through non-blocking receive `op`. */
  addWaiting(key: number, s: number, op = -1): void {
    const slot = this.slotFor(key);
    let w: number;
    if (this.wFree >= 0) {
      w = this.wFree;
      this.wFree = this.wNext[w];
    } else {
      if (this.wUsed === this.wStream.length) {
        const n = this.wUsed * 2;
        this.wStream = resized(this.wStream, n);
        this.wOp = resized(this.wOp, n);
        this.wNext = resized(this.wNext, n);
      }
      w = this.wUsed++;
    }
    this.wStream[w] = s;
    this.wOp[w] = op;
    this.wNext[w] = -1;
    if (this.waitHead[slot] < 0) this.waitHead[slot] = w;
    else this.wNext[this.waitTail[slot]] = w;
    this.waitTail[slot] = w;
  }

  /** The smallest key with an arrival nobody received, or -1. */
  firstUnreceived(): number {
    let best = -1;
    for (let i = 0; i <= this.mask; i++) {
      if (this.keys[i] !== EMPTY && this.arrHead[i] >= 0 && (best < 0 || this.keys[i] < best)) best = this.keys[i];
    }
    return best;
  }

  private hash(key: number): number {
    // Keys reach 2^53: mix the low and high 32-bit halves. `key | 0` is key mod 2^32 (ToInt32) without
    // the floating-point remainder `%` compiles to (a library call per probe start).
    const lo = key | 0;
    const hi = (key / 4294967296) | 0;
    let h = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1);
    h ^= h >>> 15;
    return h & this.mask;
  }

  private find(key: number): number {
    const keys = this.keys;
    for (let i = this.hash(key); ; i = (i + 1) & this.mask) {
      const k = keys[i];
      if (k === key) return i;
      if (k === EMPTY) return -1;
    }
  }

  private slotFor(key: number): number {
    const found = this.find(key);
    if (found >= 0) return found;
    if (2 * (this.size + 1) > this.mask + 1) this.grow();
    let i = this.hash(key);
    while (this.keys[i] !== EMPTY) i = (i + 1) & this.mask;
    this.keys[i] = key;
    this.arrHead[i] = -1;
    this.waitHead[i] = -1;
    this.size++;
    return i;
  }

  private grow(): void {
    const { keys, arrHead, arrTail, waitHead, waitTail } = this;
    this.allocate(2 * keys.length);
    for (let j = 0; j < keys.length; j++) {
      if (keys[j] === EMPTY) continue;
      let i = this.hash(keys[j]);
      while (this.keys[i] !== EMPTY) i = (i + 1) & this.mask;
      this.move(i, keys[j], arrHead[j], arrTail[j], waitHead[j], waitTail[j]);
    }
  }

  private allocate(cap: number): void {
    this.mask = cap - 1;
    this.keys = new Float64Array(cap).fill(EMPTY);
    this.arrHead = new Int32Array(cap);
    this.arrTail = new Int32Array(cap);
    this.waitHead = new Int32Array(cap);
    this.waitTail = new Int32Array(cap);
  }

  private move(i: number, key: number, ah: number, at: number, wh: number, wt: number): void {
    this.keys[i] = key;
    this.arrHead[i] = ah;
    this.arrTail[i] = at;
    this.waitHead[i] = wh;
    this.waitTail[i] = wt;
  }

  /** Backward-shift deletion: no tombstones, so probes stay short as keys come and go. */
  private remove(slot: number): void {
    const keys = this.keys;
    const mask = this.mask;
    let hole = slot;
    for (let j = (slot + 1) & mask; keys[j] !== EMPTY; j = (j + 1) & mask) {
      const home = this.hash(keys[j]);
      // Move j into the hole unless its home lies cyclically in (hole, j].
      const inRange = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (inRange) continue;
      this.move(hole, keys[j], this.arrHead[j], this.arrTail[j], this.waitHead[j], this.waitTail[j]);
      hole = j;
    }
    keys[hole] = EMPTY;
    this.size--;
  }
}
