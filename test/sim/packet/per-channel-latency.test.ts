/**
 * A schedule run at packet level takes each channel's own latency (a class used to take its first
 * channel's: a file graph's 2 µs link of class `link` ran at its 100 ns neighbour's latency, so the
 * packet time missed 1.9 µs the flow time has), and each channel its own rate: on a topology of
 * mixed rates a cycle is a flit time on the fastest channel and a slower one takes proportionally
 * more cycles per flit (every channel used to move a flit per cycle at the slowest one's rate).
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, simulate, simulateTraffic, topologyFromDocument, type LoadPoint } from '../../../src/index.js';

// A line of three routers, 0 - 1 - 2, one class `link`: 100 ns then 2 µs; 25 Gbps, the second link 100 Gbps.
const line = topologyFromDocument({
  format: 'meshwork-topology',
  version: 1,
  defaults: { bw: '25Gbps', lat: '100ns' },
  nodes: 3,
  links: [{ src: 0, dst: 1 }, { src: 1, dst: 2, lat: '2us', bw: '100Gbps' }],
}, { name: 'line.json' });

function run(engine: 'flow' | 'packet') {
  const schedule = buildSchedule({ collective: 'one-to-one', algorithm: 'direct', topology: line, size: 32, root: 0, peer: 2 });
  return simulate({ topology: line, schedule, engine, model: { alpha: 0 } });
}

describe('packet level on a graph of mixed link latencies', () => {
  it('takes each channel its own latency: one flit from 0 to 2 pays 100 ns + 2 µs at both levels', () => {
    const flow = run('flow');
    const packet = run('packet');
    // Flow: 32 B at 25 Gbps (10.24 ns) + 2.1 µs of links (the 100 Gbps link adds no serialisation of its own at flow level).
    expect(flow.makespan_s).toBeGreaterThan(2.1e-6);
    // Packet: 39 + 781 cycles of 2.56 ns (a flit at 100 Gbps) plus router pipeline cycles (the flow model has none): within 10 %, the engines' band.
    expect(packet.makespan_s).toBeGreaterThan(2.1e-6);
    expect(Math.abs(packet.makespan_s / flow.makespan_s - 1)).toBeLessThan(0.1);
    expect(packet.model.channelLatencyRange).toEqual({ link: [39, 781] });
  });

  it('times each channel at its own rate: a long message over a slow then a fast link takes the slow one\'s time at both levels', () => {
    expect(run('packet').model.channelRates).toMatchObject({ slowest_Bps: 3.125e9, fastest_Bps: 1.25e10 });
    // 1 MiB over the 100 Gbps link alone takes a quarter of its time over the 25 Gbps link, at both
    // levels (when every channel moved a flit per cycle at the slowest rate, the packet times were equal).
    const fastOnly = buildSchedule({ collective: 'one-to-one', algorithm: 'direct', topology: line, size: 1 << 20, root: 1, peer: 2 });
    const slowOnly = buildSchedule({ collective: 'one-to-one', algorithm: 'direct', topology: line, size: 1 << 20, root: 0, peer: 1 });
    const time = (schedule: typeof fastOnly, engine: 'flow' | 'packet') => simulate({ topology: line, schedule, engine, model: { alpha: 0 }, packet: { config: { vcBuf: 4096 } } }).makespan_s;
    for (const engine of ['flow', 'packet'] as const) expect(time(slowOnly, engine) / time(fastOnly, engine)).toBeGreaterThan(3.5);
    expect(time(fastOnly, 'packet') / time(fastOnly, 'flow')).toBeCloseTo(1, 1);
  });
});

describe("traffic on BookSim's flatfly with its on-chip wires (use_noc_latency = 1)", () => {
  it('each channel takes its wire length under the booksim preset, recorded per class; --channel-latency replaces it', () => {
    const topology = buildTopology('flatfly:k=4,n=2,c=4,x=4,xr=2,yr=2');
    const at = (config: Record<string, unknown>) => simulateTraffic({ topology, pattern: 'uniform', rates: [0.05], preset: 'booksim', config: { packetSize: 1, vcs: 8, ...config } });
    const wires = at({});
    // Router channels 2, 4 or 6 cycles along a row or column of 2×2 tiles; terminal channels 1.
    expect(wires.channelLatencyRange).toEqual({ terminal: [1, 1], d0: [2, 6], d1: [2, 6] });
    const flat = at({ channelLatency: 1 });
    expect(flat.channelLatencyRange).toBeUndefined();
    // At zero load a hop along a dimension adds its wire length less the 1 cycle it had: over the
    // 16 ordered column pairs of a 4-router row, |Δ| = 0, 1, 2, 3 four, six, four and two times, so
    // (6·1 + 4·3 + 2·5) / 16 = 1.75 cycles per dimension, 3.5 in all (uniform traffic, self included).
    const gap = (wires.points[0] as LoadPoint).packet_latency! - (flat.points[0] as LoadPoint).packet_latency!;
    expect(Math.abs(gap - 3.5)).toBeLessThan(0.25);
  });
});
