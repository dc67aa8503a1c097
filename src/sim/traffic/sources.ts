/**
 * Traffic sources drive a PacketNetwork cycle by cycle: open-loop Bernoulli injection with
 * infinite source queues (materialised lazily, as BookSim does with its per-source `qtime`), and
 * seed 004's closed-loop mesh emulation.
 */
import { InputError } from '../../util/errors.js';
import { Rng } from '../../util/rng.js';
import type { PacketNetwork } from '../packet/network.js';
import type { TrafficPattern } from './patterns.js';

export interface TrafficSource {
  /** Generates the packets of cycle `t` (called after the network simulated cycle t). */
  generate(net: PacketNetwork, t: number): void;
  /**
   * Whether every packet due up to cycle `t` has been generated (BookSim's `_qdrained`: a source's
   * `qtime` has passed the drain time). Sources without a backlog omit it.
   */
  generatedUpTo?(t: number): boolean;
}

/**
 * Bernoulli injection: each cycle each source creates a packet with probability rate / packetSize
 * (rate in flits per node per cycle, BookSim's injection_rate_uses_flits = 1). A source whose queue
 * is non-empty generates nothing yet; when it empties it catches up cycle by cycle from `qtime`,
 * stamping each packet with the cycle it was due (source queueing included in the latency).
 */
export class BernoulliSource implements TrafficSource {
  private readonly qtime: Int32Array;
  private readonly p: number;
  private readonly rng: Rng;

  constructor(
    private readonly pattern: TrafficPattern,
    readonly rate: number,
    private readonly packetSize: number,
    nodes: number,
    seed: number,
  ) {
    if (!(rate > 0 && rate <= 1)) throw new InputError('rates', rate, 'injection rates in (0, 1] flits/node/cycle');
    this.qtime = new Int32Array(nodes);
    this.p = rate / packetSize;
    this.rng = new Rng(seed);
  }

  generate(net: PacketNetwork, t: number): void {
    const n = this.qtime.length;
    const rng = this.rng;
    const p = this.p;
    for (let s = 0; s < n; s++) {
      if (!net.sourceIdle(s)) continue;
      let q = this.qtime[s];
      while (q <= t) {
        const due = q++;
        if (rng.next() < p) {
          net.enqueue(s, this.pattern.dest(s, rng), this.packetSize, due);
          break;
        }
      }
      this.qtime[s] = q;
    }
  }

  generatedUpTo(t: number): boolean {
    for (let s = 0; s < this.qtime.length; s++) if (this.qtime[s] <= t) return false;
    return true;
  }
}

/**
 * Seed 004 mesh emulation (spec §5.3.4): ranks mapped to a side×side grid by address
 * (x = rank mod side, y = rank div side), wrap-around neighbours (4 of them). Each PE sends one
 * packet to each neighbour, waits until it has received 4 packets of that round, then starts the
 * next round no earlier than `period` cycles after the previous one started. The load axis of a
 * sweep is this period: a rate r gives period = ceil(4·P / r), so r is the offered load in
 * flits/node/cycle when the network keeps up.
 */
export class MeshEmulationSource implements TrafficSource {
  private readonly side: number;
  private readonly round: Int32Array;
  private readonly received: Int32Array;
  private readonly early: Int32Array;
  private readonly nextStart: Int32Array;
  readonly period: number;

  constructor(
    nodes: number,
    private readonly packetSize: number,
    rate: number,
  ) {
    if (!(rate > 0 && rate <= 1)) throw new InputError('rates', rate, 'injection rates in (0, 1] flits/node/cycle');
    const side = Math.round(Math.sqrt(nodes));
    if (side * side !== nodes) throw new InputError('pattern', 'meshemu', 'a square number of terminals (e.g. 1,024 = 32×32)');
    this.side = side;
    this.period = Math.ceil((4 * packetSize) / rate);
    this.round = new Int32Array(nodes);
    this.received = new Int32Array(nodes);
    this.early = new Int32Array(nodes);
    this.nextStart = new Int32Array(nodes);
  }

  generate(net: PacketNetwork, t: number): void {
    // Deliveries of this cycle: a packet tagged with its round counts for the receiver's round.
    for (let k = 0; k < net.retiredCount; k++) {
      const dst = net.retiredDst[k];
      if (net.retiredTag[k] === this.round[dst] - 1) this.received[dst]++;
      else this.early[dst]++;
    }
    const side = this.side;
    const n = side * side;
    for (let s = 0; s < n; s++) {
      const started = this.round[s] > 0;
      if (started && this.received[s] < 4) continue;
      if (t < this.nextStart[s]) continue;
      const x = s % side;
      const y = (s - x) / side;
      const tag = this.round[s];
      net.enqueue(s, y * side + ((x + 1) % side), this.packetSize, t, tag);
      net.enqueue(s, y * side + ((x + side - 1) % side), this.packetSize, t, tag);
      net.enqueue(s, ((y + 1) % side) * side + x, this.packetSize, t, tag);
      net.enqueue(s, ((y + side - 1) % side) * side + x, this.packetSize, t, tag);
      this.round[s]++;
      // Packets of the new round that arrived before this PE finished its previous round.
      this.received[s] = this.early[s];
      this.early[s] = 0;
      this.nextStart[s] = t + this.period;
    }
  }
}
