/**
 * The order of BookSim's per-router allocation queues (iq_router.cpp `_vc_alloc_vcs`,
 * `_sw_alloc_vcs`), kept as sort keys per input VC. It decides one thing the allocators do not:
 * under output speedup an output takes several flits in one step, and its FIFO takes them in the
 * order `_SWAllocUpdate` walks the switch queue, which is not the input ports' order.
 *
 * How BookSim's queues move. Each cycle a stage evaluates every VC in its queue, then its update
 * pops them from the front and pushes back the ones that stay; VCs that enter the queue from an
 * earlier stage's update in the same cycle were pushed before that re-queue, so they end up ahead
 * of every VC that was waiting. A VC that enters from `_InputQueuing` (a flit arriving into an empty
 * buffer) or from the switch update (a tail leaving with the next head behind it) is pushed after
 * it instead. So each queue is:
 * - first the VCs the previous stage handed over, newest first (within one cycle, in the order the
 *   previous stage's update walked them);
 * - then the VCs that joined at the back, oldest first (within one cycle, the switch update's
 *   before the next cycle's arrivals, and arrivals by input port).
 * A key here is (major, minor), lowest first; keys are only compared within one router.
 *
 * - VC allocation queue, from routing (routing_delay ≥ 1): major −(cycle routed); minor: the heads
 *   that waited behind a tail first, in the switch order that tail left in, then the heads that
 *   arrived into an idle VC that cycle, by input. With lookahead routing (routing_delay 0) a head
 *   joins at the back: a head behind a tail in the cycle the tail left, an arriving head in the
 *   cycle it arrives.
 * - Switch allocation queue: a VC made active by VC allocation in step t has major −t and, as minor,
 *   its place in the VC allocation queue; a body flit arriving into an empty active VC in cycle c
 *   gives it major REFILLED + c, minor its input index.
 */

/** Above any cycle: a switch-queue key from a refill sorts after every key from VC allocation. */
const REFILLED = 2 ** 40;
/** Minor keys of one cycle: a head behind a tail (its rank) below a head that arrived (rank + this). */
const ARRIVED = 2 ** 20;

export class AllocationQueueOrder {
  /** VC allocation queue: (major, minor) per input VC. */
  private readonly vaMajor: Float64Array;
  private readonly vaMinor: Float64Array;
  /** Switch allocation queue: (major, minor) per input VC. */
  private readonly swMajor: Float64Array;
  private readonly swMinor: Float64Array;
  /** Per input VC: its place in its router's crossing order of the last step it crossed in. */
  private readonly crossRank: Int32Array;

  constructor(
    numInputVcs: number,
    /** BookSim's routing_delay is 0 (lookahead routing): heads join the VC allocation queue at its back. */
    private readonly lookahead: boolean,
  ) {
    this.vaMajor = new Float64Array(numInputVcs);
    this.vaMinor = new Float64Array(numInputVcs);
    this.swMajor = new Float64Array(numInputVcs);
    this.swMinor = new Float64Array(numInputVcs);
    this.crossRank = new Int32Array(numInputVcs);
  }

  /**
   * A head starts routing in cycle `now`: `arrivedNow` when it arrived into its idle VC this cycle,
   * else it waited behind the previous packet's tail, which crossed last cycle; `index` is the VC's
   * index at its router (input port · V + VC).
   */
  routed(ivc: number, now: number, arrivedNow: boolean, index: number): void {
    const minor = this.routeRank(ivc, arrivedNow, index);
    if (!this.lookahead) {
      this.vaMajor[ivc] = -now;
      this.vaMinor[ivc] = minor;
    } else {
      // Back of the queue: the tail's switch update in cycle now − 1, an arrival's input queuing now.
      this.vaMajor[ivc] = arrivedNow ? now : now - 1;
      this.vaMinor[ivc] = minor;
    }
  }

  /**
   * A head's place among those its router routes in one cycle (BookSim's `_route_vcs` order): the
   * heads that waited behind a tail, in the order the tails crossed last cycle, then the heads that
   * arrived this cycle (`arrivedNow`), by their VC's index at the router.
   */
  routeRank(ivc: number, arrivedNow: boolean, index: number): number {
    return arrivedNow ? ARRIVED + index : this.crossRank[ivc];
  }

  /** VC allocation made `ivc` active in step `tick`: it heads the switch queue. */
  activated(ivc: number, tick: number): void {
    this.swMajor[ivc] = -tick;
    // The VC allocation queue's order, folded into one number (majors are cycles, minors < 2 · ARRIVED).
    this.swMinor[ivc] = this.vaMajor[ivc] * 4 * ARRIVED + this.vaMinor[ivc];
  }

  /** A body flit arrived in cycle `now` into the empty buffer of active `ivc` (index: its index at its router). */
  refilled(ivc: number, now: number, index: number): void {
    this.swMajor[ivc] = REFILLED + now;
    this.swMinor[ivc] = index;
  }

  /** `ivc` crossed as the `rank`-th grant of its router's step. */
  crossed(ivc: number, rank: number): void {
    this.crossRank[ivc] = rank;
  }

  /** Whether `a` is ahead of `b` in their router's switch queue. */
  switchAhead(a: number, b: number): boolean {
    const d = this.swMajor[a] - this.swMajor[b];
    return d < 0 || (d === 0 && this.swMinor[a] < this.swMinor[b]);
  }
}
