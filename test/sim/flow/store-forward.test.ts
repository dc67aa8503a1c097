/**
 * Store-and-forward links (model.sharing 'store-forward', `--preset astra-congestion-aware'): ASTRA-sim's
 * congestion-aware analytical backend (astra-network-analytical congestion_aware Link.cpp: a link
 * sends one chunk at a time from a FIFO of pending chunks, busy for size / bandwidth, the chunk
 * reaching the next device latency later; Chunk.cpp: it then goes on to its next link). Times
 * checked against those rules written out by hand, and the refusals.
 */
import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildTopology, flowPreset, makeRouteBuffers, resolveRouting, simulateFlow } from '../../../src/index.js';
import { prepare } from '../../../src/sim/prepare.js';

const GIB = 2 ** 30;
const B = 50 * GIB;
const L = 500e-9;
const S = 1 << 20;
const SWITCH4 = 'astra:topology=Switch,npus=4,bandwidth=50,latency=500';

/** NPUs 0 and 1 each send S bytes to NPU 2 at time 0 (stream order: 0 first), the others idle. */
function twoIntoOne(): ReturnType<FlowProgramBuilder['build']> {
  const b = new FlowProgramBuilder(4);
  b.beginStream(0).send(2, S, 0);
  b.beginStream(1).send(2, S, 1);
  b.beginStream(2).recv(0, S, 0).recv(1, S, 1);
  b.beginStream(3);
  return b.build();
}

describe('store-and-forward links (ASTRA-sim congestion-aware)', () => {
  const topology = buildTopology(SWITCH4);
  const routing = resolveRouting(topology, { routing: 'astra-congestion-aware', engine: 'flow' });

  it('two messages into one NPU through a switch: each link serializes a whole message, the switch-to-NPU link one after the other, first come first served', () => {
    const run = simulateFlow(topology, routing, twoIntoOne(), { alpha: 0, sharing: 'store-forward' });
    // Up: both uplinks serialize S at once; both reach the switch at S/B + L, the message of NPU 0 first.
    // Down: it takes the link for S/B and lands L later; NPU 1's waits for the link, then the same.
    expect(run.rankFinish[2] / (3 * (S / B) + 2 * L)).toBeCloseTo(1, 12);
    // A sender is done when its first link has serialized its message.
    expect(run.rankFinish[0] / (S / B)).toBeCloseTo(1, 12);
    expect(run.rankFinish[1] / (S / B)).toBeCloseTo(1, 12);
    expect(run.stats.linkTransmissions).toBe(4);
    expect(Array.from(run.channelBytes).reduce((a, x) => a + x, 0)).toBe(4 * S);
    // Cut-through max-min: the two share the down link and serialize once end to end.
    const maxmin = simulateFlow(topology, routing, twoIntoOne(), { alpha: 0, injectionOrder: 'shared' });
    expect(maxmin.rankFinish[2] / (2 * (S / B) + 2 * L)).toBeCloseTo(1, 12);
  });

  it('a message alone pays its serialization once per link (ASTRA-sim: 7 ring steps on Switch 8 at 400 GB/s, 47,358 ns for its 1-split allgather)', () => {
    const b = new FlowProgramBuilder(4);
    b.beginStream(0).send(3, S, 0);
    b.beginStream(3).recv(0, S, 0);
    b.beginStream(1);
    b.beginStream(2);
    const run = simulateFlow(topology, routing, b.build(), { alpha: 10e-9, sharing: 'store-forward' });
    expect(run.makespan / (10e-9 + 2 * (S / B + L))).toBeCloseTo(1, 12);
  });

  it("ASTRA-sim's congestion-aware ring goes clockwise at a tie (Ring::route), the congestion-unaware charge anticlockwise; more than one dimension is refused", () => {
    const ring = buildTopology('astra:topology=Ring,npus=4,bandwidth=50,latency=500');
    const buf = makeRouteBuffers(4);
    const aware = resolveRouting(ring, { routing: 'astra-congestion-aware' });
    expect(aware.route(0, 2, 0, buf)).toBe(2);
    expect(ring.chDst[buf.channels[0]]).toBe(1);
    expect(aware.route(3, 1, 0, buf)).toBe(2);
    expect(ring.chDst[buf.channels[0]]).toBe(0);
    expect(aware.route(1, 0, 0, buf)).toBe(1);
    resolveRouting(ring, { routing: 'astra-first-dimension' }).route(0, 2, 0, buf);
    expect(ring.chDst[buf.channels[0]]).toBe(3);
    expect(() => resolveRouting(buildTopology('astra:topology=Ring_Switch,npus=4x2,bandwidth=50x25,latency=500x700'), { routing: 'astra-congestion-aware' })).toThrow(/one-dimensional astra network/);
  });

  it('--preset astra-congestion-aware chooses the routing on astra networks, records why, and keeps the default elsewhere', () => {
    const request = (topology: string) => ({ topology, workload: { kind: 'collective', collective: 'allreduce', algorithm: 'ring', size: 4096 }, preset: 'astra-congestion-aware' });
    const astra = prepare(request(SWITCH4));
    expect(astra.routing.name).toBe('astra-congestion-aware');
    expect(astra.routing.params.chosen_by).toMatch(/clockwise at a tie/);
    expect(prepare(request('torus:4x4')).routing.name).toMatch(/^dimension-order/);
    expect(flowPreset('astra-congestion-aware').model.sharing).toBe('store-forward');
  });

  it('refuses in one line what store-and-forward links do not model', () => {
    const program = twoIntoOne();
    const run = (opts: Parameters<typeof simulateFlow>[3]) => () => simulateFlow(topology, routing, program, { sharing: 'store-forward', ...opts });
    expect(run({ latencyRule: 'before-transfer' })).toThrow(/model\.latencyRule: got "before-transfer".*store-forward/);
    expect(run({ injectionOrder: 'fifo' })).toThrow(/model\.injectionOrder: got "fifo".*shared with sharing store-forward/);
    expect(run({ splitTies: true })).toThrow(/model\.splitTies/);
    expect(run({ injectionBandwidth: 1e9 })).toThrow(/model\.injectionBandwidth/);
    expect(run({ trace: { rates: () => {} } })).toThrow(/trace/);
  });
});
