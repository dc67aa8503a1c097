/**
 * The packet schedule runner's NIC model (model.injectionOrder) and pacing. fifo: a message's
 * packets all join the source queue of its NIC and first link when posted, so messages on one link
 * leave one after another. shared and per-destination: a sending message keeps one packet in that
 * queue and adds its next as that one leaves (`fedOut`, from the network's dequeued tags), so the
 * messages sending at once interleave packet by packet, sharing the link equally as max-min shares
 * it among them; per-destination lets one message per (NIC, destination) send at a time, the next
 * waiting behind it. After `pace(g)` a stream's packets are released (g + 1)·P cycles apart.
 * Stream s of a rank injects through NIC s mod `streamPorts`; a collective library's stream through
 * its lane's port, after the NICs (program/send-lanes.ts).
 */
import { resized } from '../../util/typed-arrays.js';
import type { InjectionOrder } from '../program/model.js';
import type { FlowProgram } from '../program/program.js';
import type { ScheduleMessageTable } from './schedule-messages.js';
import type { SendLanes } from '../program/send-lanes.js';

/** What the queues hand a packet to: the runner enqueues packet k of message m of stream s, released at `release`. */
export interface PacketSender {
  sendPacket(s: number, m: number, k: number, release: number): void;
}

export class PacketNicQueues {
  /** Per message: packets not yet in the network's queues (-1: not fed by a NIC, a turnaround's copy). */
  private unfed: Int32Array;
  /** Per message: its stream, and the next message in its per-destination queue. */
  private stream: Int32Array;
  private qNext: Int32Array;
  private readonly destTail = new Map<number, number>();
  /** Per stream, packets its sending messages still hold back (the NIC is not idle while any wait). */
  private readonly held: Int32Array;
  /** Per stream, the first cycle its next packet may leave (pacing). */
  private readonly nextRelease: Float64Array;
  /** Injection ports per rank: its NICs, then its library lanes. */
  private readonly portsPerRank: number;

  constructor(
    readonly order: InjectionOrder,
    private readonly program: FlowProgram,
    private readonly msgs: ScheduleMessageTable,
    private readonly streamPorts: number,
    /** The library streams' lanes (ports streamPorts + lane), or null. */
    private readonly lanes: SendLanes | null,
    /** Flits per full packet. */
    private readonly packetSize: number,
    /** Per stream, the gap in packet times set by its last pace op (StreamRunner.gap). */
    private readonly gap: Float64Array,
    private readonly sender: PacketSender,
  ) {
    const perMessage = order === 'fifo' ? 0 : 1024;
    this.unfed = new Int32Array(perMessage);
    this.stream = new Int32Array(perMessage);
    this.qNext = new Int32Array(perMessage);
    this.held = new Int32Array(order === 'fifo' ? 0 : program.numStreams);
    this.nextRelease = new Float64Array(program.numStreams);
    this.portsPerRank = streamPorts + (lanes?.count ?? 0);
  }

  /** The NIC (injection port) of stream s. */
  port(s: number): number {
    const lane = this.lanes === null ? -1 : this.lanes.lane[s];
    return lane >= 0 ? this.streamPorts + lane : this.program.streamLocal[s] % this.streamPorts;
  }

  /** Whether stream s holds back no packets (its NIC's queue then says whether its sends have left). */
  nothingHeld(s: number): boolean {
    return this.order === 'fifo' || this.held[s] === 0;
  }

  /** A new message m (not yet fed by any NIC). */
  added(m: number): void {
    if (this.order === 'fifo') return;
    if (m >= this.unfed.length) {
      const n = Math.max(2 * this.unfed.length, m + 1);
      this.unfed = resized(this.unfed, n);
      this.stream = resized(this.stream, n);
      this.qNext = resized(this.qNext, n);
    }
    this.unfed[m] = -1;
  }

  /** The cycle a packet of stream s posted at `now` leaves (pacing), and the stream's next release after it. */
  release(s: number, now: number): number {
    const release = Math.max(now, this.nextRelease[s]);
    const gap = this.gap[s];
    this.nextRelease[s] = release + (gap > 0 ? (gap + 1) * this.packetSize : 0);
    return release;
  }

  /** Message m of stream s is posted: all its packets join its NIC's queue (fifo), or its first does. */
  post(s: number, m: number, now: number): void {
    const npk = this.msgs.packets[m];
    if (this.order === 'fifo') {
      for (let k = 0; k < npk; k++) this.sender.sendPacket(s, m, k, this.release(s, now));
      return;
    }
    this.unfed[m] = npk;
    this.stream[m] = s;
    this.qNext[m] = -1;
    this.held[s] += npk;
    if (this.order === 'per-destination') {
      const key = this.destKey(m);
      const tail = this.destTail.get(key);
      this.destTail.set(key, m);
      if (tail !== undefined) {
        this.qNext[tail] = m;
        return;
      }
    }
    this.feed(m, now);
  }

  /** Message m's packet left its source queue: the next packet of m, or of the message waiting behind m. */
  fedOut(m: number, now: number): void {
    // A turnaround node's copies are not fed by a NIC (-1).
    if (this.unfed[m] < 0) return;
    if (this.unfed[m] > 0) {
      this.feed(m, now);
      return;
    }
    if (this.order !== 'per-destination') return;
    const next = this.qNext[m];
    if (next >= 0) this.feed(next, now);
    else {
      const key = this.destKey(m);
      if (this.destTail.get(key) === m) this.destTail.delete(key);
    }
  }

  /** Enqueues the next packet of message m (pacing: its stream's next release). */
  private feed(m: number, now: number): void {
    const s = this.stream[m];
    const k = this.msgs.packets[m] - this.unfed[m]--;
    this.held[s]--;
    this.sender.sendPacket(s, m, k, this.release(s, now));
  }

  private destKey(m: number): number {
    return (this.msgs.src[m] * this.portsPerRank + this.port(this.stream[m])) * this.program.numRanks + this.msgs.dst[m];
  }
}
