/**
 * The cross-engine agreement matrix (issue 17): every registered algorithm × a torus, a two-level
 * fat tree and a full mesh, at a bandwidth-bound size: flow and packet makespans within 10% (25%
 * for the latency-bound barrier). The packet engine runs in its schedule configuration, which is
 * the flow model's equivalent: a cycle is one 32-byte flit on the slowest link (so a link moves
 * its bandwidth), channel latency rounded to cycles, NIC injection into every link at once when
 * the flow model has no NIC limit, the same α, barrier, routing and NIC model (injectionOrder
 * fifo). Cases outside the band are named model differences (docs/flow.md, "Where the engines
 * differ") pinned to the ratio measured here, never skipped.
 */
import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildSchedule, buildTopology, listAlgorithms, simulate } from '../../../src/index.js';
import { COLLECTIVES, DIFFERENCES, LARGE, PIN_TOLERANCE, SIZE, caseKey, cases } from './agreement-cases.js';

describe('flow and packet engines agree', () => {
  const all = cases();
  it('covers every registered algorithm on at least one topology', () => {
    const covered = new Set(all.map((c) => `${c.collective}/${c.algorithm}`));
    for (const collective of COLLECTIVES) for (const a of listAlgorithms(collective)) expect(covered.has(`${collective}/${a.name}`), `${collective}/${a.name}`).toBe(true);
  });
  it.each(all)('$collective $algorithm on $topology', ({ topology, collective, algorithm }) => {
    const t = buildTopology(topology);
    const schedule = buildSchedule({ collective, algorithm, topology: t, size: SIZE[collective] ?? LARGE, root: 0, peer: 1 });
    const flow = simulate({ topology: t, schedule, engine: 'flow' });
    const packet = simulate({ topology: t, schedule, engine: 'packet' });
    expect(packet.model.injectionOrder).toBe(flow.model.injectionOrder);
    const ratio = packet.makespan_s / flow.makespan_s;
    const key = caseKey({ topology, collective, algorithm });
    const named = DIFFERENCES[key];
    if (named) expect(Math.abs(ratio - named.ratio), `${key}: ${named.why}`).toBeLessThan(PIN_TOLERANCE);
    else expect(Math.abs(ratio - 1), key).toBeLessThan(collective === 'barrier' ? 0.25 : 0.1);
  });
});

describe('torus contention: the mechanism behind the named difference', () => {
  it('a router shares an output among input ports round-robin (packet), where max-min shares it among flows (flow)', () => {
    // Parking lot on mesh:4 (0 - 1 - 2 - 3): 64 KiB from each of 0, 1, 2 to 3 at once. Link 2 → 3
    // carries all three. Max-min gives each a third: all finish at 3·S/B = 62.9 µs. Round-robin at
    // router 2 gives its own injection half the link and the through port (two flows) the other
    // half: rank 2's data has left at 2·S/B = 41.9 µs, the other two at 3·S/B. The link's total
    // time, hence the makespan, is the same: the difference is which message ends when.
    const t = buildTopology('mesh:4,bw=25Gbps,lat=100ns');
    const S = 65536;
    const linkTime = S / 3.125e9;
    const b = new FlowProgramBuilder(4);
    for (const src of [0, 1, 2]) b.beginStream(src).send(3, S, src);
    for (const src of [0, 1, 2]) b.beginStream(3).recv(src, S, src);
    const program = b.build();
    const flow = simulate({ topology: t, program, engine: 'flow', model: { alpha: 0 } });
    const packet = simulate({ topology: t, program, engine: 'packet', model: { alpha: 0 } });
    for (const src of [0, 1, 2]) expect(flow.ranks.finish_s[src] / (3 * linkTime)).toBeCloseTo(1, 2);
    expect(packet.ranks.finish_s[2] / (2 * linkTime)).toBeCloseTo(1, 1);
    for (const src of [0, 1]) expect(packet.ranks.finish_s[src] / (3 * linkTime)).toBeCloseTo(1, 1);
    expect(Math.abs(packet.makespan_s / flow.makespan_s - 1)).toBeLessThan(0.01);
  });
});

describe('direct terminals: a named model difference on latency (docs/flow.md, "Where the engines differ")', () => {
  // One HGX H100 node: 8 GPUs, each on one 150 ns NVLink each way to the NVSwitch. A ring allreduce of
  // 8 KiB is 14 steps of 64 B: per step α (1 µs) and, at flow level, the two links' 300 ns.
  const t = buildTopology('hgx-h100');
  const schedule = buildSchedule({ collective: 'allreduce', algorithm: 'ring', topology: t, size: 8192 });
  const flow = simulate({ topology: t, schedule, engine: 'flow' });
  it('packet level under terminals: direct (BookSim\'s) does not pay a terminal link\'s latency, and says so in the result', () => {
    const packet = simulate({ topology: t, schedule, engine: 'packet' });
    expect((flow.makespan_s - packet.makespan_s) / (14 * 300e-9)).toBeCloseTo(1, 1);
    const unpaid = packet.model.unpaidTerminalLatency as Record<string, { seconds: number }>;
    expect(Object.keys(unpaid).sort()).toEqual(['scaleup-down', 'scaleup-up']);
    expect(unpaid['scaleup-up'].seconds).toBeCloseTo(150e-9, 10);
    expect(flow.model.unpaidTerminalLatency).toBeUndefined();
  });
  it('terminals: routers pays it, and the engines agree within 0.5 %', () => {
    const packet = simulate({ topology: t, schedule, engine: 'packet', packet: { config: { terminals: 'routers' } } });
    expect(Math.abs(packet.makespan_s / flow.makespan_s - 1)).toBeLessThan(0.005);
    expect(packet.model.unpaidTerminalLatency).toBeUndefined();
  });
  it('names a BookSim fly\'s terminal links too, which enter its first stage and leave its last', () => {
    const fly = buildTopology('fly:k=2,n=3,lat=100ns');
    const ring = buildSchedule({ collective: 'allreduce', algorithm: 'ring', topology: fly, size: 8192 });
    const unpaid = simulate({ topology: fly, schedule: ring, engine: 'packet' }).model.unpaidTerminalLatency as Record<string, { cycles: number }>;
    // 100 ns is 10 cycles of a 64-bit flit at 25 Gb/s (10.24 ns); 1 cycle of each is paid as injection (ejection) latency.
    expect(unpaid).toEqual({ inject: { cycles: 10, seconds: expect.closeTo(102.4e-9, 15) }, eject: { cycles: 10, seconds: expect.closeTo(102.4e-9, 15) } });
  });
  it('a direct network (torus) has no terminal links and no such note', () => {
    const torus = buildTopology('torus:4x4,bw=25Gbps,lat=100ns');
    const ring = buildSchedule({ collective: 'allreduce', algorithm: 'ring', topology: torus, size: 8192 });
    expect(simulate({ topology: torus, schedule: ring, engine: 'packet' }).model.unpaidTerminalLatency).toBeUndefined();
  });
});
