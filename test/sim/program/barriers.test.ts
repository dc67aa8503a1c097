/** `--barriers` (sim/program/barriers.ts): SMPI's linear barrier before and after, timed between them. */
import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildSchedule, buildTopology, runFlow, simulate } from '../../../src/index.js';

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

describe("barrier 'linear' run as its messages (lowerLinearBarriers)", () => {
  // ring:4, 1 µs links, α = 0: ranks 1 and 3 are one hop from rank 0 and from rank 2.
  const t = buildTopology('ring:4,bw=1GBps,lat=1us');
  const model = { alpha: 0, barrier: 'linear' as const };

  it('a barrier among the ranks of its key is rooted at the lowest of them; the others are untouched', () => {
    // Ranks 1, 2, 3 on key "b", root 1: 2 messages in and 2 answers. Rank 3's (two hops) reaches the
    // root at 2 µs; the answers reach rank 2 at 3 µs and rank 3 at 4 µs.
    const p = new FlowProgramBuilder(4).beginStream(0).copy(0).beginStream(1).barrier('b').beginStream(2).barrier('b').beginStream(3).barrier('b').build();
    const r = runFlow({ topology: t, program: p, model });
    expect(r.stats.messages).toBe(4);
    expect(r.ranks.finish_s[2]).toBeCloseTo(3e-6, 12);
    expect(r.ranks.finish_s[3]).toBeCloseTo(4e-6, 12);
    expect(r.ranks.finish_s[0]).toBe(0);
  });

  it("the root waits for the barrier's own requests only: an irecv posted before the barrier and matched after it does not deadlock", () => {
    const p = new FlowProgramBuilder(4)
      .beginStream(0).irecv(1, 8).barrier('b').waitall()
      .beginStream(1).barrier('b').send(0, 8)
      .build();
    const r = runFlow({ topology: t, program: p, model });
    // Barrier: rank 1's message at 1 µs, its answer at 2 µs; then its 8 B reach rank 0 at 3 µs + 8 ns.
    expect(r.ranks.finish_s[0]).toBeCloseTo(3e-6 + 8e-9, 12);
  });

  it("a dependency on a barrier waits for the end of that rank's part of it", () => {
    // Stream (1, 1) copies for 3 µs after rank 0 leaves the barrier (1 µs: rank 1's message arrives,
    // the answer is eager): it ends at 4 µs, not at 3 µs as it would after rank 0's first receive.
    const b = new FlowProgramBuilder(4).beginStream(0, 0).barrier('b');
    const rootBarrier = b.lastOp;
    b.beginStream(1, 0).barrier('b').beginStream(1, 1).copy(3000);
    b.dependsOn(b.lastOp, rootBarrier);
    const r = runFlow({ topology: t, program: b.build(), model: { ...model, gammaCopy: 1e-9 } });
    expect(r.ranks.finish_s[1]).toBeCloseTo(4e-6, 12);
  });

  it('a key used by several streams of one rank keeps the route-latency timing (no messages)', () => {
    const p = new FlowProgramBuilder(4).beginStream(0, 0).barrier('b').beginStream(0, 1).barrier('b').beginStream(2).barrier('b').build();
    const r = runFlow({ topology: t, program: p, model });
    expect(r.stats.messages).toBe(0);
    expect(r.ranks.finish_s[2]).toBeCloseTo(4e-6, 12);
  });
});
