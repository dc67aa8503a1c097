/**
 * Traffic sources drive a PacketNetwork cycle by cycle: open-loop Bernoulli injection with
 * infinite source queues (materialised lazily, as BookSim does with its per-source `qtime`), and
 * seed 004's closed-loop mesh emulation.
 */
import { InputError } from '../../util/errors.js';
import { Rng, type RandomStream } from '../../util/rng.js';
import type { PacketNetwork } from '../packet/network.js';
import { GRID_EDGES, type GridEdges, type TrafficPattern } from './patterns.js';

export interface TrafficSource {
  /**
   * Generates the packets of cycle `t`: called by the network's step of cycle t after its injection
   * and before its routers (PacketNetwork.step), or after the whole step under `afterRouters`.
   */
  generate(net: PacketNetwork, t: number): void;
  /** The source reads the packets the routers retired in cycle t (batch mode): generate after the step. */
  readonly afterRouters?: boolean;
  /**
   * Whether every packet due up to cycle `t` has been generated (BookSim's `_qdrained`: a source's
   * `qtime` has passed the drain time). Sources without a backlog omit it.
   */
  generatedUpTo?(t: number): boolean;
}

/**
 * BookSim's packet-size list (`packet_size = {{1,8}}` with `packet_size_rate = {{3,1}}`): each new
 * packet is `sizes[i]` flits long with probability `weights[i] / Σ weights`, drawn as the packet is
 * generated, before its destination (trafficmanager.cpp `_GetNextPacketSize`).
 */
export interface PacketSizeMix {
  readonly sizes: readonly number[];
  readonly weights: readonly number[];
}

/** Mean flits per packet of a mix (BookSim's `_GetAveragePacketSize`, by which it divides a flit rate). */
export function meanPacketSize(mix: PacketSizeMix): number {
  let flits = 0;
  let total = 0;
  for (let i = 0; i < mix.sizes.length; i++) {
    flits += mix.sizes[i] * mix.weights[i];
    total += mix.weights[i];
  }
  return flits / total;
}

/** Refuses a mix that is not one positive size per non-negative integer weight, with some weight. */
export function checkPacketSizeMix(mix: PacketSizeMix): void {
  const text = `sizes {${mix.sizes.join(',')}} weights {${mix.weights.join(',')}}`;
  const ok =
    mix.sizes.length > 0 &&
    mix.sizes.length === mix.weights.length &&
    mix.sizes.every((x) => Number.isInteger(x) && x >= 1 && x <= 1 << 16) &&
    mix.weights.every((w) => Number.isInteger(w) && w >= 0 && w <= 1 << 20) &&
    mix.weights.some((w) => w > 0);
  if (!ok) throw new InputError('packet-sizes', text, 'as many integer weights in [0, 2^20] (not all 0) as integer sizes in [1, 65536]');
}

/**
 * Bernoulli injection: each cycle each source creates a packet with probability rate / packetSize
 * (rate in flits per node per cycle, BookSim's injection_rate_uses_flits = 1). A source whose queue
 * is non-empty generates nothing yet; when it empties it catches up cycle by cycle from `qtime`,
 * stamping each packet with the cycle it was due (source queueing included in the latency), or with
 * the cycle it is generated when `includeQueuing` is false (BookSim include_queuing = 0).
 */
export class BernoulliSource implements TrafficSource {
  private readonly qtime: Int32Array;
  private readonly p: number;
  private readonly rng: RandomStream;
  /** On/off (Markov-modulated) injection, or null for Bernoulli. */
  private readonly onOff: { alpha: number; beta: number; r1: number; on: Uint8Array } | null;
  /** The packet sizes and their cumulative weights (one size: no draw). */
  private readonly sizes: Int32Array;
  private readonly weightsUpTo: Int32Array;

  /** `packetSize`: flits per packet, or a mix of sizes (the rate is then divided by their mean). */
  constructor(
    private readonly pattern: TrafficPattern,
    readonly rate: number,
    packetSize: number | PacketSizeMix,
    nodes: number,
    /** A seed for Meshwork's Rng, or the stream to draw from (BookSimRandom: BookSim's own draws). */
    random: number | RandomStream,
    onOff?: OnOffParams,
    /** Stamp packets with the cycle they were due (BookSim include_queuing = 1) or generated (0). */
    private readonly includeQueuing = true,
  ) {
    if (!(rate > 0 && rate <= 1)) throw new InputError('rates', rate, 'injection rates in (0, 1] flits/node/cycle');
    const mix = typeof packetSize === 'number' ? { sizes: [packetSize], weights: [1] } : packetSize;
    checkPacketSizeMix(mix);
    this.sizes = Int32Array.from(mix.sizes);
    let upTo = 0;
    this.weightsUpTo = Int32Array.from(mix.weights, (w) => (upTo += w));
    this.qtime = new Int32Array(nodes);
    this.p = rate / meanPacketSize(mix);
    this.rng = typeof random === 'number' ? new Rng(random) : random;
    this.onOff = onOff ? resolveOnOff(onOff, this.p, nodes, this.rng.setupStream?.() ?? this.rng) : null;
  }

  generate(net: PacketNetwork, t: number): void {
    const n = this.qtime.length;
    const rng = this.rng;
    const p = this.p;
    const onOff = this.onOff;
    for (let s = 0; s < n; s++) {
      if (!net.sourceIdle(s)) continue;
      let q = this.qtime[s];
      while (q <= t) {
        const due = q++;
        // BookSim's OnOffInjectionProcess::test: advance the source's state, then inject at r1 when on.
        if (onOff !== null) onOff.on[s] = onOff.on[s] ? (rng.next() >= onOff.beta ? 1 : 0) : rng.next() < onOff.alpha ? 1 : 0;
        if (onOff === null ? rng.next() < p : onOff.on[s] === 1 && rng.next() < onOff.r1) {
          const size = this.sizes.length === 1 ? this.sizes[0] : this.drawSize(rng);
          net.enqueue(s, this.pattern.dest(s, rng), size, this.includeQueuing ? due : t);
          rng.endPacket?.();
          break;
        }
      }
      this.qtime[s] = q;
    }
  }

  /** One packet's size from the mix: a uniform draw over the total weight, as BookSim's RandomInt. */
  private drawSize(rng: RandomStream): number {
    const upTo = this.weightsUpTo;
    const pick = rng.int(upTo[upTo.length - 1]);
    let i = 0;
    while (upTo[i] <= pick) i++;
    return this.sizes[i];
  }

  generatedUpTo(t: number): boolean {
    for (let s = 0; s < this.qtime.length; s++) if (this.qtime[s] <= t) return false;
    return true;
  }
}

/**
 * BookSim's `on_off` injection process (injection.cpp): each source is on or off; each cycle an off
 * source turns on with probability alpha and an on one turns off with probability beta, and an on
 * source creates a packet with probability r1. Exactly one of the three is negative and is derived
 * from the other two and the packet rate p so that the mean rate is p: r1 = p·(alpha + beta)/alpha.
 */
export interface OnOffParams {
  alpha: number;
  beta: number;
  r1: number;
}

function resolveOnOff(params: OnOffParams, p: number, nodes: number, rng: RandomStream): { alpha: number; beta: number; r1: number; on: Uint8Array } {
  let { alpha, beta, r1 } = params;
  const negative = [alpha, beta, r1].filter((x) => x < 0).length;
  if (negative !== 1 || alpha > 1 || beta > 1 || r1 > 1) {
    throw new InputError('injection', `on_off(alpha=${alpha}, beta=${beta}, r1=${r1})`, 'exactly one of burst_alpha, burst_beta, burst_r1 negative (derived from the rate), the others in [0, 1]');
  }
  if (alpha < 0) alpha = (beta * p) / (r1 - p);
  else if (beta < 0) beta = (alpha * (r1 - p)) / p;
  else r1 = (p * (alpha + beta)) / alpha;
  if (!(alpha >= 0 && alpha <= 1 && beta >= 0 && beta <= 1 && r1 >= 0 && r1 <= 1)) {
    throw new InputError('injection', `on_off(alpha=${alpha}, beta=${beta}, r1=${r1})`, `parameters that give a probability in [0, 1] at packet rate ${p}`);
  }
  // Initial states: a fair coin per source, as BookSim's RandomInt(1) when no initial list is given.
  const on = new Uint8Array(nodes);
  for (let s = 0; s < nodes; s++) on[s] = rng.int(2);
  return { alpha, beta, r1, on };
}

/** Right, left, down, up: the order the wrap-around version always used. */
const NEIGHBOUR_STEPS: ReadonlyArray<readonly [number, number]> = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

/**
 * Seed 004 mesh emulation (spec §5.3.4): ranks mapped to a side×side grid by address
 * (x = rank mod side, y = rank div side). With `wrap` edges every PE has 4 neighbours (torus-like);
 * with `open` edges (spec §5.3 [R]) edge PEs have 3 and corners 2, so the emulated mesh never asks
 * a 2D mesh for a 31-hop packet. Each PE sends one packet to each neighbour, waits until it has
 * received one from each, then starts the next round no earlier than `period` cycles after the
 * previous one started. The load axis of a sweep is this period: a rate r gives
 * period = ceil(4·P / r), so r is the offered load in flits/node/cycle when the network keeps up.
 */
export class MeshEmulationSource implements TrafficSource {
  /** Neighbours of PE s at 4s…4s+needed[s]−1 (flat, no per-PE arrays). */
  private readonly neighbours: Int32Array;
  private readonly needed: Int8Array;
  private readonly round: Int32Array;
  private readonly received: Int32Array;
  private readonly early: Int32Array;
  private readonly nextStart: Int32Array;
  readonly period: number;
  /** A round waits for the packets the routers retired this cycle (net.retiredCount): generate after them. */
  readonly afterRouters = true;

  constructor(
    nodes: number,
    private readonly packetSize: number,
    rate: number,
    edges: GridEdges = 'wrap',
  ) {
    if (!(rate > 0 && rate <= 1)) throw new InputError('rates', rate, 'injection rates in (0, 1] flits/node/cycle');
    if (!GRID_EDGES.includes(edges)) throw new InputError('edges', edges, GRID_EDGES.join(' | '));
    const side = Math.round(Math.sqrt(nodes));
    if (side * side !== nodes) throw new InputError('pattern', 'meshemu', 'a square number of terminals (e.g. 1,024 = 32×32)');
    this.period = Math.ceil((4 * packetSize) / rate);
    this.neighbours = new Int32Array(4 * nodes);
    this.needed = new Int8Array(nodes);
    const wrap = edges === 'wrap';
    for (let s = 0; s < nodes; s++) {
      const x = s % side;
      const y = (s - x) / side;
      let k = 0;
      for (const [dx, dy] of NEIGHBOUR_STEPS) {
        let nx = x + dx;
        let ny = y + dy;
        if (wrap) {
          nx = (nx + side) % side;
          ny = (ny + side) % side;
        } else if (nx < 0 || nx >= side || ny < 0 || ny >= side) continue;
        this.neighbours[4 * s + k++] = ny * side + nx;
      }
      this.needed[s] = k;
    }
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
    const n = this.needed.length;
    for (let s = 0; s < n; s++) {
      const started = this.round[s] > 0;
      if (started && this.received[s] < this.needed[s]) continue;
      if (t < this.nextStart[s]) continue;
      const tag = this.round[s];
      for (let k = 0; k < this.needed[s]; k++) net.enqueue(s, this.neighbours[4 * s + k], this.packetSize, t, tag);
      this.round[s]++;
      // Packets of the new round that arrived before this PE finished its previous round.
      this.received[s] = this.early[s];
      this.early[s] = 0;
      this.nextStart[s] = t + this.period;
    }
  }
}
