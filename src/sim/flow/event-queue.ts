import { resized } from '../../util/typed-arrays.js';

/**
 * The engine's event queue: a binary min-heap on (time, insertion order) over typed arrays.
 * Hand-written rather than a dependency because it is the hot core of the engine: it must not
 * allocate per event (millions of events), and ties must pop in insertion order so that runs are
 * deterministic (a library heap gives no order guarantee for equal keys).
 */
export class EventQueue {
  private time: Float64Array;
  private seq: Float64Array;
  private kind: Uint8Array;
  private arg: Int32Array;
  private size = 0;
  private counter = 0;
  /** Total events ever pushed (events per second is reported from it). */
  pushed = 0;

  constructor(capacity = 1024) {
    this.time = new Float64Array(capacity);
    this.seq = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.arg = new Int32Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  push(time: number, kind: number, arg: number): void {
    if (this.size === this.time.length) this.grow();
    this.pushed++;
    let i = this.size++;
    const s = this.counter++;
    // Sift up.
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.time[p] < time || (this.time[p] === time && this.seq[p] < s)) break;
      this.time[i] = this.time[p];
      this.seq[i] = this.seq[p];
      this.kind[i] = this.kind[p];
      this.arg[i] = this.arg[p];
      i = p;
    }
    this.time[i] = time;
    this.seq[i] = s;
    this.kind[i] = kind;
    this.arg[i] = arg;
  }

  peekTime(): number {
    return this.size > 0 ? this.time[0] : Infinity;
  }

  peekKind(): number {
    return this.kind[0];
  }

  peekArg(): number {
    return this.arg[0];
  }

  /** Removes the earliest event; read it with peek* first. */
  pop(): void {
    const n = --this.size;
    if (n === 0) return;
    const t = this.time[n];
    const s = this.seq[n];
    const k = this.kind[n];
    const a = this.arg[n];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && (this.time[r] < this.time[l] || (this.time[r] === this.time[l] && this.seq[r] < this.seq[l]))) c = r;
      if (t < this.time[c] || (t === this.time[c] && s < this.seq[c])) break;
      this.time[i] = this.time[c];
      this.seq[i] = this.seq[c];
      this.kind[i] = this.kind[c];
      this.arg[i] = this.arg[c];
      i = c;
    }
    this.time[i] = t;
    this.seq[i] = s;
    this.kind[i] = k;
    this.arg[i] = a;
  }

  private grow(): void {
    const n = this.time.length * 2;
    const t = new Float64Array(n);
    t.set(this.time);
    this.time = t;
    const s = new Float64Array(n);
    s.set(this.seq);
    this.seq = s;
    const k = new Uint8Array(n);
    k.set(this.kind);
    this.kind = k;
    const a = new Int32Array(n);
    a.set(this.arg);
    this.arg = a;
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
