/**
 * The NIC model of the flow engine (model.injectionOrder): a stream's flows wait in per-queue FIFOs
 * and only a queue's head shares bandwidth; under 'shared' there are no queues. A queue's key:
 * fifo, the NIC's injection port (when modelled) or the NIC and first link, as the packet engine's
 * source queues; per-destination, the NIC and destination rank. A collective library's stream has
 * a lane of its own in place of its NIC (program/send-lanes.ts). Waiting flows keep their path in
 * the arena and are listed in `pending` (for its compaction).
 */
import { resized } from '../../util/typed-arrays.js';
import type { InjectionOrder } from '../program/model.js';
import type { FlowProgram } from '../program/program.js';
import { librarySendLanes, type SendLanes } from '../program/send-lanes.js';

export class NicSendQueues {
  /** Flows waiting behind another in their queue; the first `numPending` entries are live. */
  pending: Int32Array;
  numPending = 0;
  /** fifo queues are few and dense (one per NIC port, or per first link and NIC): queue tails by key. */
  private readonly fifoTail: Int32Array;
  /** per-destination queues are sparse: queue tails in a map. */
  private readonly destTail = new Map<number, number>();
  private next = new Int32Array(1024);
  private key = new Float64Array(1024);
  private pendingPos = new Int32Array(1024);
  /** The library streams' lanes (null: none), and a rank's queues: its NICs, then its lanes. */
  private readonly lanes: SendLanes | null;
  private readonly nics: number;
  private readonly queuesPerRank: number;

  constructor(
    readonly order: InjectionOrder,
    private readonly program: FlowProgram,
    nics: number,
    /** Whether injection ports are modelled (then a fifo queue is the port's, whatever the first link). */
    private readonly byPort: boolean,
    numChannels: number,
  ) {
    const R = program.numRanks;
    this.lanes = librarySendLanes(program, order, byPort);
    this.nics = nics;
    this.queuesPerRank = nics + (this.lanes?.count ?? 0);
    this.fifoTail = new Int32Array(order === 'fifo' ? (byPort ? R * nics : numChannels * this.queuesPerRank) : 0).fill(-1);
    this.pending = new Int32Array(order === 'shared' ? 0 : 1024);
  }

  /** The queue of a send of stream s whose path starts with `firstResource`, to rank `dstRank`. */
  keyOf(firstResource: number, s: number, dstRank: number): number {
    const lane = this.lanes === null ? -1 : this.lanes.lane[s];
    // A rank's queue: one of its NICs, or after them a library stream's lane.
    const queue = lane >= 0 ? this.nics + lane : this.program.streamLocal[s] % this.nics;
    if (this.order === 'per-destination') return (this.program.streamRank[s] * this.queuesPerRank + queue) * this.program.numRanks + Math.max(0, dstRank);
    return this.byPort ? this.program.streamRank[s] * this.nics + queue : firstResource * this.queuesPerRank + queue;
  }

  /** Enters flow f at the tail of queue `key`; true when it waits behind another flow. */
  enqueue(f: number, key: number, capacity: number): boolean {
    if (this.next.length < capacity) {
      this.next = resized(this.next, capacity);
      this.key = resized(this.key, capacity);
      this.pendingPos = resized(this.pendingPos, capacity);
    }
    this.key[f] = key;
    this.next[f] = -1;
    const tail = this.tail(key);
    this.setTail(key, f);
    if (tail < 0) return false;
    this.next[tail] = f;
    if (this.numPending === this.pending.length) this.pending = resized(this.pending, this.numPending * 2);
    this.pendingPos[f] = this.numPending;
    this.pending[this.numPending++] = f;
    return true;
  }

  /** The queue head f finished: returns the flow that now leads its queue (no longer pending), or -1. */
  advance(f: number): number {
    const next = this.next[f];
    if (next < 0) {
      this.setTail(this.key[f], -1);
      return -1;
    }
    const pos = this.pendingPos[next];
    const last = this.pending[--this.numPending];
    this.pending[pos] = last;
    this.pendingPos[last] = pos;
    return next;
  }

  private tail(key: number): number {
    return this.order === 'fifo' ? this.fifoTail[key] : (this.destTail.get(key) ?? -1);
  }

  private setTail(key: number, f: number): void {
    if (this.order === 'fifo') this.fifoTail[key] = f;
    else if (f < 0) this.destTail.delete(key);
    else this.destTail.set(key, f);
  }
}
