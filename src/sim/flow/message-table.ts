/**
 * The flow engine's messages: one row per message in flight (source, destination, tag and send op
 * for the stream semantics, its path latency, a link for chains), typed-array columns recycled
 * through a free list, so millions of messages make no objects.
 */
import { resized } from '../../util/typed-arrays.js';

export class MessageTable {
  src = new Int32Array(1024);
  dst = new Int32Array(1024);
  tag = new Int32Array(1024);
  op = new Int32Array(1024);
  /** -1 while the first of a message's two half flows is still to arrive; 0 otherwise. */
  parts = new Int32Array(1024);
  /** The next message of a fan-out tree's chain, or of the free list; -1 ends either. */
  next = new Int32Array(1024);
  /** Latency paid after the last byte left (path, router and turnaround), seconds. */
  lat = new Float64Array(1024);
  /** Messages created so far. */
  created = 0;
  private free = -1;
  private used = 0;

  add(src: number, dst: number, tag: number, op: number): number {
    let m: number;
    if (this.free >= 0) {
      m = this.free;
      this.free = this.next[m];
    } else {
      if (this.used === this.src.length) this.grow(2 * this.used);
      m = this.used++;
    }
    this.created++;
    this.src[m] = src;
    this.dst[m] = dst;
    this.tag[m] = tag;
    this.op[m] = op;
    this.parts[m] = 0;
    this.next[m] = -1;
    this.lat[m] = 0;
    return m;
  }

  /** Message m was delivered: its row is reused. */
  release(m: number): void {
    this.next[m] = this.free;
    this.free = m;
  }

  private grow(n: number): void {
    this.src = resized(this.src, n);
    this.dst = resized(this.dst, n);
    this.tag = resized(this.tag, n);
    this.op = resized(this.op, n);
    this.parts = resized(this.parts, n);
    this.next = resized(this.next, n);
    this.lat = resized(this.lat, n);
  }
}
