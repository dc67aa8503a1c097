/**
 * The packet schedule runner's messages: one row per message (source and destination rank, tag and
 * send op for the stream semantics, packets in total and not yet retired, the turnaround extra),
 * typed-array columns grown by doubling, so millions of messages make no objects. Rows are never
 * reused: a fan-out's copies are the rows right after its leg to the turnaround node.
 */
import { resized } from '../../util/typed-arrays.js';

export class ScheduleMessageTable {
  /** Packets not yet retired (arrived at the destination, or at the turnaround node for a leg). */
  left = new Int32Array(1024);
  /** Packets of the message in all. */
  packets = new Int32Array(1024);
  src = new Int32Array(1024);
  dst = new Int32Array(1024);
  tag = new Int32Array(1024);
  op = new Int32Array(1024);
  /** Cycles paid at arrival (a `via` hint's turnaround). */
  extra = new Int32Array(1024);
  /** A message to a turnaround node: its number of copies, whose messages follow it; 0 otherwise. */
  fanOut = new Int32Array(1024);
  count = 0;

  add(src: number, dst: number, tag: number, op: number, packets: number, extra: number): number {
    if (this.count === this.left.length) this.grow(2 * this.count);
    const m = this.count++;
    this.left[m] = packets;
    this.packets[m] = packets;
    this.src[m] = src;
    this.dst[m] = dst;
    this.tag[m] = tag;
    this.op[m] = op;
    this.extra[m] = extra;
    this.fanOut[m] = 0;
    return m;
  }

  private grow(n: number): void {
    this.left = resized(this.left, n);
    this.packets = resized(this.packets, n);
    this.src = resized(this.src, n);
    this.dst = resized(this.dst, n);
    this.tag = resized(this.tag, n);
    this.op = resized(this.op, n);
    this.extra = resized(this.extra, n);
    this.fanOut = resized(this.fanOut, n);
  }
}
