import { describe, expect, it } from 'vitest';
import {
  FlowProgramBuilder,
  buildSchedule,
  buildTopology,
  lowerSchedule,
  presetConfig,
  runFlow,
  simulate,
  simulatePacketSchedule,
  applyMapping,
  dimensionOrderRouting,
} from '../../../src/index.js';
import { PacketNetwork } from '../../../src/sim/packet/network.js';

describe('schedule-driven packet simulation', () => {
  // torus:4x4 with 32-byte flits and 1 flit per cycle: a cycle is 32 B / bandwidth.
  const t = buildTopology('torus:4x4,bw=32GBps,lat=1ns');
  const cycle = 32 / 32e9;

  it('times one message: α, then 128 flits serialised after the head latency', () => {
    const prog = new FlowProgramBuilder(16).beginStream(0).send(1, 4096).beginStream(1).recv(0, 4096).build();
    const r = simulatePacketSchedule({ topology: t, program: prog, model: { alpha: 0 } });
    expect(r.engine).toBe('packet');
    const cycles = Math.round(r.makespan_s / cycle);
    // 16 packets of 8 flits, 1 hop, channel latency 1: the zero-load 7 + (4 + 1) cycles less the one
    // cycle a traffic source waits (a schedule posts before the cycle's step), then 127 more flits.
    expect(cycles).toBe(6 + 5 + 127);
    expect(r.stats.messages).toBe(1);
    expect(r.stats.bytes).toBe(4096);
  });

  it('pace(g) spaces the packets of a stream by (g + 1) packet times', () => {
    const plain = new FlowProgramBuilder(16).beginStream(0).send(1, 4096).beginStream(1).recv(0, 4096).build();
    const paced = new FlowProgramBuilder(16).beginStream(0).pace(1).send(1, 4096).beginStream(1).recv(0, 4096).build();
    const a = simulatePacketSchedule({ topology: t, program: plain, model: { alpha: 0 } }).makespan_s / cycle;
    const b = simulatePacketSchedule({ topology: t, program: paced, model: { alpha: 0 } }).makespan_s / cycle;
    // 15 gaps of 8 extra cycles each.
    expect(Math.round(b - a)).toBe(15 * 8);
  });

  it('a barrier waits for every participant and costs ⌈log2 P⌉ stages', () => {
    const stage = 100e-9;
    // Rank 1 reaches the barrier only after receiving 4,096 B from rank 2 (138 cycles, as the
    // one-message case above); rank 0 arrives at once, must wait for it, and only then sends
    // 4,096 B to its neighbour rank 4 (138 cycles more). P = 2: one stage.
    const message = 6 + 5 + 127;
    const prog = new FlowProgramBuilder(16)
      .beginStream(0)
      .barrier('b')
      .send(4, 4096)
      .beginStream(1)
      .recv(2, 4096)
      .barrier('b')
      .beginStream(2)
      .send(1, 4096)
      .beginStream(4)
      .recv(0, 4096)
      .build();
    const r = simulatePacketSchedule({ topology: t, program: prog, model: { alpha: 0, barrierStageLatency: stage } });
    expect(Math.round(r.makespan_s / cycle)).toBe(message + Math.ceil(stage / cycle - 1e-9) + message);
  });

  it('refuses a schedule that cannot complete instead of hanging', () => {
    const prog = new FlowProgramBuilder(16).beginStream(1).recv(0, 64).build();
    // The same words as the flow engine: both report through the shared stream semantics.
    expect(() => simulatePacketSchedule({ topology: t, program: prog })).toThrow(/deadlock at rank 1 stream 0 op 0.*recv from rank 0 tag 0 never matched/);
  });
});

describe('schedule-driven packet simulation: route hints, critical path, throughput', () => {
  const fm = buildTopology('fullmesh:4,bw=32GBps,lat=1ns');

  it('seed 001 one-to-one over turnaround nodes takes the hinted 1-hop paths at packet level', () => {
    // fullmesh-split, K = 2, L = 1 (spec/seed001_fullmesh.md §2.1): 3,072 B from rank 0 to rank 1 in three
    // 1,024 B pieces: direct 0→1, and 0→2→1, 0→3→1 turned around in the switches of nodes 2 and 3.
    const schedule = buildSchedule({ collective: 'one-to-one', algorithm: 'fullmesh-split:K=2,L=1', topology: fm, size: 3072, root: 0, peer: 1 });
    const r = simulate({ topology: fm, schedule, engine: 'packet', model: { alpha: 0 } });
    const bytes = r.channels.bytes!;
    const on = (a: number, b: number): number => bytes[fm.channelBetween(a, b)];
    for (const [a, b] of [[0, 1], [0, 2], [2, 1], [0, 3], [3, 1]]) expect(on(a, b)).toBe(1024);
    expect(bytes.reduce((x, y) => x + y, 0)).toBe(5 * 1024);
    // The two legs of a 1-hop path use separate VC class bands (hop-indexed): 2 classes, 2 VCs each.
    expect(r.routing.params.vcClassBands).toBe(2);
    expect(r.model.vcs).toBe(4);
  });

  it('seed 001 multicast (6th embodiment) is copied at the turnaround node: each piece crosses the link to it once', () => {
    // spec/seed001_fullmesh.md, 6th embodiment, N = 4: 48 KiB from rank 0 in three 16 KiB pieces;
    // piece j goes to node j only and node j copies it to the two other receivers (and keeps it).
    const piece = 16384;
    const b = new FlowProgramBuilder(4);
    for (let j = 1; j < 4; j++) b.beginStream(0, j - 1).send([1, 2, 3], piece, j, { kind: 'via', nodes: [j] });
    for (let r = 1; r < 4; r++) for (let j = 1; j < 4; j++) b.beginStream(r, j - 1).recv(0, piece, j);
    const prog = b.build();
    const r = simulatePacketSchedule({ topology: fm, program: prog, model: { alpha: 0 } });
    const bytes = r.channels.bytes!;
    const on = (a: number, c: number): number => bytes[fm.channelBetween(a, c)];
    for (let j = 1; j < 4; j++) {
      expect(on(0, j)).toBe(piece);
      for (let k = 1; k < 4; k++) if (k !== j) expect(on(j, k)).toBe(piece);
    }
    // 3 first legs + 3 × 2 copies; one copy per destination from the source would be 3 × (1 + 2 × 2) hops.
    expect(r.channels.total_bytes).toBe(9 * piece);
    expect(r.stats.messages).toBe(9);
    // The gain survives in time: cut-through copies keep every link busy for one piece time (512
    // cycles of 1 ns) plus the two hops' pipeline, as the flow engine's tree flow; one copy per
    // destination from the source would take 3 pieces on link 0 → j (1.7× the flow time, issue 17).
    const flow = runFlow({ topology: fm, program: prog, model: { alpha: 0 } }).makespan_s;
    expect(Math.abs(r.makespan_s / flow - 1)).toBeLessThan(0.05);
  });

  it('records the critical path ending at the makespan and a throughput series that integrates to the bytes injected', () => {
    const t = buildTopology('torus:4x4,bw=32GBps,lat=1ns');
    // Rank 0 sends to 1; rank 1 reduces, then forwards to 2; rank 2 receives: the chain is send, recv, reduce, send, recv.
    const prog = new FlowProgramBuilder(16)
      .beginStream(0)
      .send(1, 2048)
      .beginStream(1)
      .recv(0, 2048)
      .reduce(2048)
      .send(2, 2048)
      .beginStream(2)
      .recv(1, 2048)
      .build();
    const r = simulatePacketSchedule({ topology: t, program: prog, model: { alpha: 0, gammaReduce: 1e-9 } });
    const ops = r.critical_path.ops;
    expect(ops.map((o) => `${o.rank}:${o.kind}`)).toEqual(['0:send', '1:recv', '1:reduce', '1:send', '2:recv']);
    expect(ops[ops.length - 1].end_s).toBeCloseTo(r.makespan_s, 15);
    // The reduce takes 2,048 B × 1 ns/B = 2,048 ns, rounded up to whole 1 ns cycles.
    expect(ops[2].end_s - ops[2].start_s).toBeCloseTo(2048e-9, 12);
    // 2 × 2,048 B entered the network; the series' integral over its equal bins is that total.
    const width = r.makespan_s / r.throughput.t_s.length;
    const integral = r.throughput.bytes_per_s.reduce((a, b) => a + b, 0) * width;
    expect(integral).toBeCloseTo(4096, 6);
    expect(Math.max(...r.throughput.bytes_per_s)).toBeLessThanOrEqual(32e9 * 1.000001);
  });
});

describe('explicit path hints on a torus', () => {
  it('non-minimal axis paths (k − 1 hops one way round) complete in dateline classes, with 1 VC per class', () => {
    // torus:4, every rank sends 16 KiB three hops in the + direction at once: the four paths cover the
    // ring and each crosses the wrap link 3 → 0, so in one class they would wait on each other in a cycle.
    const t = buildTopology('torus:4');
    const b = new FlowProgramBuilder(4);
    for (let r = 0; r < 4; r++) b.beginStream(r).send((r + 3) % 4, 16384, 0, { kind: 'path', nodes: [r, (r + 1) % 4, (r + 2) % 4, (r + 3) % 4] });
    for (let r = 0; r < 4; r++) b.beginStream(r).recv((r + 1) % 4, 16384, 0);
    const r = simulatePacketSchedule({ topology: t, program: b.build(), config: { vcs: 2, vcBuf: 2, deadlockCycles: 500 } });
    // Every byte crossed 3 channels: 4 × 16 KiB × 3 on the 4 '+' channels.
    expect(r.channels.total_bytes).toBe(4 * 16384 * 3);
  });
});

describe('NICs at packet level', () => {
  it('without a NIC limit (injection=links) a rank feeds all its links at once, as the flow model assumes', () => {
    // Linear alltoall on a full mesh of 6: every rank sends 5 × 64 KiB at once over 5 links. With one FIFO
    // per NIC (1 flit per cycle) that took 5× the flow time; with per-link queues both engines give the
    // one-link time of a 64 KiB block (21 µs at 25 Gbps) plus α and latency.
    const fm = buildTopology('fullmesh:6');
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'linear', topology: fm, size: 65536 });
    const flow = runFlow({ topology: fm, program: lowerSchedule(schedule) }).makespan_s;
    const packet = simulate({ topology: fm, schedule, engine: 'packet' });
    expect(packet.model.perLinkInjection).toBe(true);
    expect(Math.abs(packet.makespan_s / flow - 1)).toBeLessThan(0.05);
    const fifo = simulatePacketSchedule({ topology: fm, program: lowerSchedule(schedule), config: { perLinkInjection: false, perLinkEjection: false } });
    expect(fifo.makespan_s / flow).toBeGreaterThan(3.5);
  });

  it("injects at the rank's node under a rank mapping", () => {
    // mesh:4 reversed: rank 0 sits on node 3. Its packet must enter router 3, not router 0.
    const t = applyMapping(buildTopology('mesh:4'), 'reverse');
    expect(t.endpoints[0]).toBe(3);
    const net = new PacketNetwork(t, dimensionOrderRouting(t), presetConfig('default', t));
    net.enqueue(0, 1, 1, 0);
    net.step();
    expect(net.routerFlits(3)).toBe(1);
    expect(net.routerFlits(0)).toBe(0);
  });
});

describe('meshwork run --engine packet', () => {
  it('runs a collective at packet level, never faster than its bounds', async () => {
    const { runCli } = await import('../../helpers/cli.js');
    const r = runCli(['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '4KiB', '--engine', 'packet', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.engine).toBe('packet');
    expect(j.stats.messages).toBe(16 * 15);
    expect(j.makespan_s).toBeGreaterThanOrEqual(j.bound_s);
    expect(j.makespan_s).toBeGreaterThanOrEqual(j.schedule_bound_s);
    // The same result shape as the flow engine: a critical path ending at the makespan, 100 throughput bins.
    expect(j.critical_path.ops.at(-1).end_s).toBeCloseTo(j.makespan_s, 12);
    expect(j.throughput.t_s).toHaveLength(100);
  });
});
