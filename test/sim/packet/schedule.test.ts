import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildTopology, simulatePacketSchedule } from '../../../src/index.js';

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
    const prog = new FlowProgramBuilder(16).beginStream(0).barrier('b').beginStream(1).copy(0).barrier('b').build();
    const r = simulatePacketSchedule({ topology: t, program: prog, model: { alpha: 0, barrierStageLatency: stage } });
    expect(Math.round(r.makespan_s / cycle)).toBe(Math.ceil((1 * stage) / cycle - 1e-9));
  });

  it('refuses a schedule that cannot complete instead of hanging', () => {
    const prog = new FlowProgramBuilder(16).beginStream(1).recv(0, 64).build();
    expect(() => simulatePacketSchedule({ topology: t, program: prog })).toThrow(/program/);
  });
});
