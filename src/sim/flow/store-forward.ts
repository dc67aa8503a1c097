/**
 * Store-and-forward links (model.sharing 'store-forward'): ASTRA-sim's congestion-aware analytical
 * backend (astra-network-analytical congestion_aware: Link.cpp, Chunk.cpp, Device.cpp). A message
 * crosses its route link by link. A link sends one message at a time, in the order messages reached
 * it (first come first served), and is busy for bytes / its bandwidth (Link::serialization_delay);
 * the message reaches the link's far end its latency after that (Link::communication_delay, here
 * plus the model's router latency), and only then queues for its next link
 * (Chunk::chunk_arrived_next_device). The message has left its sender when its first link has
 * serialized it, and is delivered when it reaches its destination.
 *
 * ASTRA-sim keeps time in whole nanoseconds and truncates each delay to them; Meshwork keeps
 * seconds as they are (at most 1 ns per hop apart). Events at one time run in the order they were
 * scheduled, as ASTRA-sim's event queue runs them: a link schedules a message's arrival before its
 * own release.
 *
 * Hand-written core: transmissions (a message on its way) and links live in typed arrays, a link's
 * queue is a linked list through the transmissions, and ids are recycled through a free list, so a
 * hop costs two events and no allocation.
 */
import { resized } from '../../util/typed-arrays.js';
import type { EventQueue } from '../program/event-queue.js';
import { inFlightLimitError, MAX_FLOWS_IN_FLIGHT } from './flow-table.js';

export interface StoreForwardEvents {
  /** A transmission reached the far end of its current link (arg: transmission id). */
  readonly arrive: number;
  /** A link finished serializing a message (arg: channel). */
  readonly linkFree: number;
}

export class StoreForwardLinks {
  // Per transmission: its channels (stride entries each), hop count, current hop, message, bytes
  // and rate cap (pacing), and the next transmission in its link's queue.
  private path: Int32Array;
  private len: Int32Array;
  private hop: Int32Array;
  private msg: Int32Array;
  private stream: Int32Array;
  private bytes: Float64Array;
  private rateCap: Float64Array;
  private queueNext: Int32Array;
  private freeList = -1;
  private used = 0;
  // Per link: the stream whose first hop it is serializing (else -1), and its queue.
  private readonly firstHopStream: Int32Array;
  private readonly busy: Uint8Array;
  private readonly queueHead: Int32Array;
  private readonly queueTail: Int32Array;
  /** Bytes each link has sent (the result's channel loads). */
  readonly channelBytes: Float64Array;
  /** Link transmissions started (hops), for the result's counters. */
  hops = 0;

  constructor(
    private readonly events: EventQueue,
    private readonly kinds: StoreForwardEvents,
    private readonly bandwidth: Float64Array,
    private readonly latency: Float64Array,
    private readonly routerLatency: number,
    /** The most channels a route may have. */
    private readonly stride: number,
    /** The most messages in flight at once (the flow table's limit), refused before allocation past it. */
    private readonly maxInFlight = MAX_FLOWS_IN_FLIGHT,
  ) {
    const C = bandwidth.length;
    this.firstHopStream = new Int32Array(C).fill(-1);
    this.busy = new Uint8Array(C);
    this.queueHead = new Int32Array(C).fill(-1);
    this.queueTail = new Int32Array(C).fill(-1);
    this.channelBytes = new Float64Array(C);
    const n = 64;
    this.path = new Int32Array(n * stride);
    this.len = new Int32Array(n);
    this.hop = new Int32Array(n);
    this.msg = new Int32Array(n);
    this.stream = new Int32Array(n);
    this.bytes = new Float64Array(n);
    this.rateCap = new Float64Array(n);
    this.queueNext = new Int32Array(n);
  }

  /** Starts message `msg` of stream s (bytes on the wire, at most rateCap bytes/s) over channels[0..hops) at `now`. */
  send(channels: Int32Array, hops: number, msg: number, s: number, bytes: number, rateCap: number, now: number): void {
    const x = this.allocate();
    this.path.set(channels.subarray(0, hops), x * this.stride);
    this.len[x] = hops;
    this.hop[x] = 0;
    this.msg[x] = msg;
    this.stream[x] = s;
    this.bytes[x] = bytes;
    this.rateCap[x] = rateCap;
    this.offer(x, now);
  }

  /**
   * Transmission x reached the far end of its link at `now`: returns its message when that was
   * its destination (x is then released), else queues it for its next link and returns -1.
   */
  arrive(x: number, now: number): number {
    if (++this.hop[x] < this.len[x]) {
      this.offer(x, now);
      return -1;
    }
    const m = this.msg[x];
    this.queueNext[x] = this.freeList;
    this.freeList = x;
    return m;
  }

  /**
   * Link c finished serializing at `now` and takes the next message of its queue. Returns the stream
   * whose message it was when that was the message's first hop (it has then left its sender), else -1.
   */
  linkFree(c: number, now: number): number {
    const s = this.firstHopStream[c];
    this.firstHopStream[c] = -1;
    this.busy[c] = 0;
    const next = this.queueHead[c];
    if (next >= 0) {
      this.queueHead[c] = this.queueNext[next];
      if (this.queueHead[c] < 0) this.queueTail[c] = -1;
      this.start(next, c, now);
    }
    return s;
  }

  /** x asks for the link of its current hop: sent now when the link is idle, else queued behind the others. */
  private offer(x: number, now: number): void {
    const c = this.path[x * this.stride + this.hop[x]];
    if (this.busy[c] === 0) {
      this.start(x, c, now);
      return;
    }
    this.queueNext[x] = -1;
    if (this.queueTail[c] < 0) this.queueHead[c] = x;
    else this.queueNext[this.queueTail[c]] = x;
    this.queueTail[c] = x;
  }

  private start(x: number, c: number, now: number): void {
    this.busy[c] = 1;
    this.hops++;
    if (this.hop[x] === 0) this.firstHopStream[c] = this.stream[x];
    const bytes = this.bytes[x];
    this.channelBytes[c] += bytes;
    const serialization = bytes / Math.min(this.bandwidth[c], this.rateCap[x]);
    // ASTRA-sim's order at equal times: the arrival is scheduled before the link's release.
    this.events.push(now + serialization + this.latency[c] + this.routerLatency, this.kinds.arrive, x);
    this.events.push(now + serialization, this.kinds.linkFree, c);
  }

  private allocate(): number {
    if (this.freeList >= 0) {
      const x = this.freeList;
      this.freeList = this.queueNext[x];
      return x;
    }
    if (this.used === this.maxInFlight) throw inFlightLimitError(this.maxInFlight);
    if (this.used === this.len.length) {
      const n = Math.min(2 * this.used, this.maxInFlight);
      this.path = resized(this.path, n * this.stride);
      this.len = resized(this.len, n);
      this.hop = resized(this.hop, n);
      this.msg = resized(this.msg, n);
      this.stream = resized(this.stream, n);
      this.bytes = resized(this.bytes, n);
      this.rateCap = resized(this.rateCap, n);
      this.queueNext = resized(this.queueNext, n);
    }
    return this.used++;
  }
}
