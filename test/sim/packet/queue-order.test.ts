/**
 * BookSim's allocation-queue order (queue-order.ts), on the cases traced in BookSim 2.0's watch
 * output (`watch_packets`) of mesh88_output_speedup2_p4.cfg at 0.05 and 0.15, seed 1.
 */
import { describe, expect, it } from 'vitest';
import { AllocationQueueOrder } from '../../../src/sim/packet/queue-order.js';

describe("BookSim's switch-allocation queue order", () => {
  it('puts the VC made active last ahead of one made active earlier (router (5,7), cycles 51 and 52)', () => {
    const q = new AllocationQueueOrder(8, false);
    q.routed(0, 50, true, 0);
    q.activated(0, 51);
    q.routed(1, 51, true, 2);
    q.activated(1, 52);
    expect(q.switchAhead(1, 0)).toBe(true);
    expect(q.switchAhead(0, 1)).toBe(false);
  });

  it('puts a VC refilled by an arriving flit behind every VC made active, and earlier refills first', () => {
    const q = new AllocationQueueOrder(8, false);
    q.routed(0, 10, true, 0);
    q.activated(0, 11);
    q.refilled(1, 20, 4);
    q.refilled(2, 21, 0);
    expect(q.switchAhead(0, 1)).toBe(true);
    expect(q.switchAhead(1, 2)).toBe(true);
  });

  it('orders VCs made active in one step as their heads were routed: a head behind a tail before an arriving head (router (2,3), cycle 2240)', () => {
    // Input 4's head waited behind its VC's tail, which crossed in 2238; input 1's head arrived in
    // 2239. Both were routed in 2239 and made active in 2240: input 4 crosses first.
    const q = new AllocationQueueOrder(16, false);
    q.crossed(9, 0);
    q.routed(9, 2239, false, 9);
    q.routed(3, 2239, true, 3);
    q.activated(3, 2240);
    q.activated(9, 2240);
    expect(q.switchAhead(9, 3)).toBe(true);
  });

  it('with lookahead routing (routing_delay 0), heads join the VC queue at its back: the older first', () => {
    const q = new AllocationQueueOrder(8, true);
    q.routed(0, 30, true, 5);
    q.routed(1, 31, true, 0);
    q.activated(0, 32);
    q.activated(1, 32);
    expect(q.switchAhead(0, 1)).toBe(true);
  });
});
