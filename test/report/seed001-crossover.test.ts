/**
 * Seed 001 crossover sizes (src/analysis/reproduce/seed001-timing.ts): the bisection at flow level
 * against spec/seed001_fullmesh.md §8, whose table gives the break-even sizes of its latency model
 * (T0 = 2 µs, each embodiment's T1; 1-to-1 S* = (N−1)/(N−2)·B·(T1−T0), multicast and reduce with
 * K = N: S* = N/(N−2)·B·(T1−T0)).
 */
import { describe, expect, it } from 'vitest';
import { OpKind, FlowProgramBuilder, buildSchedule, buildTopology, simulate } from '../../src/index.js';
import { lowerSchedule } from '../../src/sim/program/from-schedule.js';
import { closedFormCrossoverBits, parallelIssue, Seed001Timer, seed001Case, SEED001_CASES } from '../../src/analysis/reproduce/seed001-timing.js';

describe('seed 001 crossovers', () => {
  // Spec §8 table (kbit), "B = 20 Gbps" and "B = 25 Gbps" columns.
  const table: Array<[string, number, number, number]> = [
    ['p2p1', 4, 60, 75],
    ['p2p2', 4, 3, 3.75],
    ['mcast3', 8, 2.7, 3.3],
    ['reduce4', 4, 80, 100],
    ['reduce4', 8, 53, 67],
    ['reduce5', 4, 16, 20],
    ['reduce5', 8, 10.7, 13.3],
  ];
  for (const [id, n, at20, at25] of table) {
    it(`${id}, N = ${n}: the searched crossover is spec §8's ${at20} / ${at25} kbit`, () => {
      for (const [gbps, kbit] of [[20, at20], [25, at25]] as const) {
        const found = new Seed001Timer(seed001Case(id), n, gbps).crossoverBits()!;
        // The spec rounds to 2–3 digits; the closed form is exact.
        expect(Math.abs(found / 1e3 / kbit - 1)).toBeLessThan(0.02);
        expect(Math.abs(found / closedFormCrossoverBits(seed001Case(id), n, gbps)! - 1)).toBeLessThan(2e-4);
      }
    });
  }

  it('the one-latency reading gives the 5th embodiment the 4th one\'s crossover and the 1st the 2nd one\'s', () => {
    const x = (id: string) => new Seed001Timer(seed001Case(id), 8, 20, 'one-latency').crossoverBits()!;
    expect(x('reduce5') / x('reduce4')).toBeCloseTo(1, 3);
    expect(x('p2p1') / x('p2p2')).toBeCloseTo(1, 3);
    // Per embodiment, the 1st needs T1 − T0 = 2 µs: 20× the 2nd's 0.1 µs.
    const p = (id: string) => new Seed001Timer(seed001Case(id), 8, 20).crossoverBits()!;
    expect(p('p2p1') / p('p2p2')).toBeCloseTo(20, 2);
  });

  it('large-data ratios: 1/(N−1), 2/N, 1/K, 2/K and 2× within 1% at 1 Gbit (N = 8)', () => {
    const expected: Record<string, number> = { p2p1: 1 / 7, p2p2: 1 / 7, p2p6: 1 / 6, mcast3: 2 / 8, mcast6: 1 / 7, reduce4: 2 / 8, allreduce4: 2 / 8, reduce5: 2 / 8, reduce6: 2 / 4, scatter: 1 / 2 };
    for (const c of SEED001_CASES) {
      const t = new Seed001Timer(c, 8, 20).time(1e9 / 8);
      expect(Math.abs(t.variant / t.direct / expected[c.id] - 1), c.id).toBeLessThan(0.01);
    }
  });

  it('packet level: the multicasts keep 2/N and 1/(N−1) (copies at the turnaround node), as the flow level at the same size', () => {
    // Spec [0058], [0109]: 3rd embodiment ≈ 2/N, 6th 1/K with K = N−1. At 8 Mbit latency still adds
    // about 2% at flow level; the packet level must match the flow level at that size within 1%.
    for (const [id, doc] of [['mcast3', 2 / 8], ['mcast6', 1 / 7]] as const) {
      const at = (engine: 'flow' | 'packet'): number => {
        const t = new Seed001Timer(seed001Case(id), 8, 20, 'per-embodiment', engine).time(1e6);
        return t.variant / t.direct;
      };
      const packet = at('packet');
      expect(Math.abs(packet / at('flow') - 1), id).toBeLessThan(0.01);
      expect(Math.abs(packet / doc - 1), id).toBeLessThan(0.05);
    }
  });

  it('at small sizes direct only wins, and the direct time is T0 + S/B', () => {
    const t = new Seed001Timer(seed001Case('p2p2'), 8, 20).time(125);
    // 1 kbit at 20 Gbps = 50 ns, plus T0 = 2 µs.
    expect(t.direct).toBeCloseTo(2e-6 + 50e-9, 12);
    expect(t.variant).toBeGreaterThan(t.direct);
  });

  it('parallelIssue: the sends before a stream\'s first receive get streams of their own; later ones stay in order', () => {
    const b = new FlowProgramBuilder(3);
    b.beginStream(0).copy(8).send(1, 8, 0).send(2, 8, 1, { kind: 'via', nodes: [1] }).recv(1, 8, 2).send(2, 8, 3);
    b.beginStream(1).send(0, 8, 2).recv(0, 8, 0);
    b.beginStream(2).recv(0, 4, 1).recv(0, 8, 3);
    const p = parallelIssue(b.build(), 2, 'memory');
    expect(Array.from(p.streamRank)).toEqual([0, 0, 1, 2]);
    const kinds = (s: number) => Array.from(p.opKind.subarray(p.opStart[s], p.opStart[s + 1]));
    expect(kinds(0)).toEqual([OpKind.Copy, OpKind.Send, OpKind.Recv, OpKind.Send]);
    expect(kinds(1)).toEqual([OpKind.Send]);
    expect(p.opBytes[p.opStart[1]]).toBe(16);
    expect(p.hints).toEqual([{ kind: 'via', nodes: [1], turnaround: 'memory' }]);
  });

  it('parallelIssue keeps isends, irecvs and their waits: a retimed program runs under rendezvous as the schedule does', () => {
    const b = new FlowProgramBuilder(2);
    b.beginStream(0).irecv(1, 8, 0);
    const request = b.lastOp;
    b.isend(1, 8, 1).send(1, 8, 2).send(1, 8, 3).wait(request).waitall();
    b.beginStream(1).irecv(0, 8, 1).irecv(0, 8, 2).send(0, 8, 0).recv(0, 8, 3).waitall();
    const p = parallelIssue(b.build(), 2, 'memory');
    const kinds = (s: number) => Array.from(p.opKind.subarray(p.opStart[s], p.opStart[s + 1]));
    const flags = (s: number) => Array.from(p.opNonBlocking!.subarray(p.opStart[s], p.opStart[s + 1]));
    // Rank 0: the isends stay with their waits; the blocking send after the first goes to a stream of its own.
    expect(kinds(0)).toEqual([OpKind.Recv, OpKind.Send, OpKind.Send, OpKind.Wait, OpKind.Wait]);
    expect(flags(0)).toEqual([1, 1, 0, 0, 0]);
    expect(p.opPeer[p.opStart[0] + 3]).toBe(p.opStart[0]); // wait(request) names the retimed irecv
    expect(p.opPeer[p.opStart[0] + 4]).toBe(-1);
    expect(Array.from(p.streamRank)).toEqual([0, 0, 1]);
    expect(kinds(1)).toEqual([OpKind.Send]);
    expect(kinds(2)).toEqual([OpKind.Recv, OpKind.Recv, OpKind.Send, OpKind.Recv, OpKind.Wait]);
    expect(flags(2)).toEqual([1, 1, 0, 0, 0]);
    const t = buildTopology('fullmesh:2,bw=8Gbps,lat=0');
    expect(simulate({ topology: t, program: p, model: { protocol: 'mpi', eagerThreshold: 0, alpha: 0 } }).makespan_s).toBeGreaterThan(0);
  });

  it('fullmesh-turnaround (step 2 posted as isends + waitall) retimed by parallelIssue completes under rendezvous (its step-2 sends made blocking would all wait on each other)', () => {
    const t = buildTopology('fullmesh:8,bw=20Gbps,lat=0');
    for (const collective of ['allreduce', 'reduce'] as const) {
      const low = lowerSchedule(buildSchedule({ collective, algorithm: 'fullmesh-turnaround:embodiment=4', topology: t, size: 64 * 1024, root: 0 }));
      const p = parallelIssue(low, 1, 'switch');
      expect(p.opNonBlocking, collective).not.toBeNull();
      let waits = 0;
      for (let o = 0; o < p.numOps; o++) if (p.opKind[o] === OpKind.Wait) waits++;
      let lowWaits = 0;
      for (let o = 0; o < low.numOps; o++) if (low.opKind[o] === OpKind.Wait) lowWaits++;
      expect(waits, collective).toBe(lowWaits);
      const rendezvous = simulate({ topology: t, program: p, model: { protocol: 'mpi', eagerThreshold: 0, alpha: 0 } }).makespan_s;
      const eager = simulate({ topology: t, program: p, model: { protocol: 'eager', alpha: 0 } }).makespan_s;
      // A rendezvous send waits for its receive to be posted: never faster than eager.
      expect(rendezvous, collective).toBeGreaterThanOrEqual(eager * (1 - 1e-12));
    }
  });
});
