/** `--barriers` (sim/program/barriers.ts): SMPI's linear barrier before and after, timed between them. */
import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildSchedule, buildTopology, simulate } from '../../../src/index.js';

describe('--barriers', () => {
  // A ring of 4 with 1 µs links: rank 2 is two hops from rank 0, ranks 1 and 3 one hop.
  const t = buildTopology('ring:4,bw=1GBps,lat=1us');
  const model = { alpha: 0, protocol: 'smpi' as const };

  it('times from the first rank out of the first barrier to the last out of the second, in both engines', () => {
    // Barrier 1: the messages reach rank 0 by 2 µs (rank 2's), rank 0 answers and leaves at once
    // (zero-byte sends are detached): t0 = 2 µs. The others leave at 3, 4 and 3 µs, so barrier 2's
    // messages arrive by 4 + 2 = 6 µs and rank 2 has its answer at 8 µs: 8 − 2 = 6 µs.
    const empty = new FlowProgramBuilder(4).build();
    const flow = simulate({ topology: t, program: empty, model, barriers: true });
    expect(flow.makespan_s).toBeCloseTo(6e-6, 12);
    expect(Math.max(...flow.ranks.finish_s)).toBeCloseTo(8e-6, 12);
    expect(flow.workload).toMatchObject({ barriers: expect.stringContaining('Open MPI basic linear') });
    const packet = simulate({ topology: t, program: empty, model, barriers: true, engine: 'packet' });
    // Flits add router pipeline time per hop (7.4 µs here), but the origin is the same first exit.
    expect(packet.makespan_s).toBeGreaterThan(6e-6);
    expect(packet.makespan_s).toBeLessThan(Math.max(...packet.ranks.finish_s) - 1.5e-6);
  });

  it('adds the barriers around a collective without changing what it sends (the bracketed makespan exceeds the bare one)', () => {
    const s = buildSchedule({ collective: 'allreduce', algorithm: 'ring', topology: t, size: 4096 });
    const bare = simulate({ topology: t, schedule: s, model });
    const timed = simulate({ topology: t, schedule: s, model, barriers: true });
    expect(timed.stats.messages).toBe(bare.stats.messages + 2 * 2 * 3);
    expect(timed.makespan_s).toBeGreaterThan(bare.makespan_s);
    expect(timed.workload).toMatchObject({ algorithm_spec: 'ring' });
  });

  it('refuses a schedule with several streams per rank (an MPI rank has one)', () => {
    const p = new FlowProgramBuilder(2).beginStream(0, 0).send(1, 8).beginStream(0, 1).copy(8).beginStream(1).recv(0, 8).build();
    expect(() => simulate({ topology: t, program: p, barriers: true })).toThrow(/barriers: got "rank 0 has several streams"/);
  });
});
