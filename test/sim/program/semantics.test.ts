import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildTopology, runFlow, simulatePacketSchedule } from '../../../src/index.js';

// One meaning of a program in both engines (issue 17; sim/program/semantics.ts).
describe('shared stream semantics', () => {
  const t = buildTopology('torus:4x4,bw=32GBps,lat=1ns');
  const cycle = 32 / 32e9;

  it('a barrier among 4 ranks × 2 streams costs ⌈log2 4⌉ = 2 stages in both engines (P = participating ranks)', () => {
    // Issue 17's case: before, flow took P = ranks (2.0 µs) and packet P = streams (3.0 µs).
    const b = new FlowProgramBuilder(16);
    for (let r = 0; r < 4; r++) for (let s = 0; s < 2; s++) b.beginStream(r, s).barrier('b');
    const prog = b.build();
    const model = { alpha: 0, barrierStageLatency: 1e-6 };
    expect(runFlow({ topology: t, program: prog, model }).makespan_s).toBeCloseTo(2e-6, 12);
    const packet = simulatePacketSchedule({ topology: t, program: prog, model });
    expect(Math.round(packet.makespan_s / cycle)).toBe(Math.ceil(2e-6 / cycle - 1e-9));
  });

  it('a barrier waits for its last participant in both engines', () => {
    // Rank 1 arrives late (γ_copy × 32 KiB = 1 µs); rank 0 must wait for it.
    const prog = new FlowProgramBuilder(16).beginStream(0).barrier('b').beginStream(1).copy(32768).barrier('b').build();
    const model = { alpha: 0, barrierStageLatency: 0, gammaCopy: 1e-6 / 32768 };
    const flow = runFlow({ topology: t, program: prog, model });
    expect(flow.ranks.finish_s[0]).toBeCloseTo(1e-6, 12);
    const packet = simulatePacketSchedule({ topology: t, program: prog, model });
    expect(Math.round(packet.ranks.finish_s[0] / cycle)).toBe(Math.ceil(1e-6 / cycle - 1e-9));
  });

  it('both engines refuse a deadlocked program with the same message', () => {
    const prog = new FlowProgramBuilder(16).beginStream(1).recv(0, 64).build();
    const words = /deadlock at rank 1 stream 0 op 0.*recv from rank 0 tag 0 never matched/;
    expect(() => runFlow({ topology: t, program: prog })).toThrow(words);
    expect(() => simulatePacketSchedule({ topology: t, program: prog })).toThrow(words);
  });
});
