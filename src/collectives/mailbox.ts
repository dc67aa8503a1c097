/**
 * Messages in flight, columnar: one FIFO per (source, destination) pair, matched by tag. A payload
 * of one slot is stored inline (no allocation); longer payloads keep their Float64Array. Hand-written
 * because a 4,096-rank alltoall pushes 16.7 M messages through here.
 */
const DENSE_LIMIT = 1 << 25;

export type Payload = Float64Array | number;

export class Mailbox {
  private cap = 1024;
  tag = new Int32Array(this.cap);
  op = new Int32Array(this.cap);
  step = new Int32Array(this.cap);
  private next = new Int32Array(this.cap);
  private val = new Float64Array(this.cap);
  private data: Array<Float64Array | undefined> = [];
  heard: Array<Uint32Array | undefined> = [];
  private used = 0;
  private freeHead = -1;
  private readonly n: number;
  private readonly denseHead: Int32Array | undefined;
  private readonly denseTail: Int32Array | undefined;
  private readonly mapHead = new Map<number, number>();
  private readonly mapTail = new Map<number, number>();
  count = 0;

  constructor(numRanks: number) {
    this.n = numRanks;
    if (numRanks * numRanks <= DENSE_LIMIT) {
      this.denseHead = new Int32Array(numRanks * numRanks).fill(-1);
      this.denseTail = new Int32Array(numRanks * numRanks).fill(-1);
    }
  }

  private head(key: number): number {
    return this.denseHead ? this.denseHead[key] : (this.mapHead.get(key) ?? -1);
  }
  private tail(key: number): number {
    return this.denseTail ? this.denseTail[key] : (this.mapTail.get(key) ?? -1);
  }
  private setHead(key: number, id: number): void {
    if (this.denseHead) this.denseHead[key] = id;
    else if (id < 0) this.mapHead.delete(key);
    else this.mapHead.set(key, id);
  }
  private setTail(key: number, id: number): void {
    if (this.denseTail) this.denseTail[key] = id;
    else if (id < 0) this.mapTail.delete(key);
    else this.mapTail.set(key, id);
  }

  private alloc(): number {
    if (this.freeHead >= 0) {
      const id = this.freeHead;
      this.freeHead = this.next[id];
      return id;
    }
    if (this.used === this.cap) {
      this.cap *= 2;
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(this.cap);
        b.set(a);
        return b;
      };
      this.tag = grow(this.tag);
      this.op = grow(this.op);
      this.step = grow(this.step);
      this.next = grow(this.next);
      this.val = grow(this.val);
    }
    return this.used++;
  }

  put(src: number, dst: number, tag: number, payload: Payload, op: number, step: number, heard: Uint32Array | undefined): void {
    const id = this.alloc();
    this.tag[id] = tag;
    this.op[id] = op;
    this.step[id] = step;
    this.next[id] = -1;
    if (typeof payload === 'number') {
      this.val[id] = payload;
      this.data[id] = undefined;
    } else this.data[id] = payload;
    if (heard) this.heard[id] = heard;
    const key = src * this.n + dst;
    const t = this.tail(key);
    if (t < 0) this.setHead(key, id);
    else this.next[t] = id;
    this.setTail(key, id);
    this.count++;
  }

  /** Unlinks and returns the oldest message (src, dst, tag) sent before `step`, or -1. */
  take(src: number, dst: number, tag: number, step: number): number {
    const key = src * this.n + dst;
    let prev = -1;
    for (let id = this.head(key); id >= 0; prev = id, id = this.next[id]) {
      if (this.tag[id] !== tag) continue;
      if (this.step[id] >= step) return -1;
      const nx = this.next[id];
      if (prev < 0) this.setHead(key, nx);
      else this.next[prev] = nx;
      if (this.tail(key) === id) this.setTail(key, prev);
      this.count--;
      return id;
    }
    return -1;
  }

  payload(id: number): Payload {
    return this.data[id] ?? this.val[id];
  }

  release(id: number): void {
    this.data[id] = undefined;
    this.heard[id] = undefined;
    this.next[id] = this.freeHead;
    this.freeHead = id;
  }

  /** Every pending message as (src, dst, id), for reports. */
  *pending(): Generator<{ src: number; dst: number; id: number }> {
    if (this.count === 0) return;
    const keys = this.denseHead ? Array.from({ length: this.n * this.n }, (_, k) => k) : [...this.mapHead.keys()];
    for (const key of keys) {
      for (let id = this.head(key); id >= 0; id = this.next[id]) yield { src: Math.floor(key / this.n), dst: key % this.n, id };
    }
  }

  clear(): void {
    this.denseHead?.fill(-1);
    this.denseTail?.fill(-1);
    this.mapHead.clear();
    this.mapTail.clear();
    this.count = 0;
  }
}
