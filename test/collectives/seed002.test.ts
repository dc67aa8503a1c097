// Seed 002 (US 8,775,698, IBM): the XOR-swap alltoall on the combining network.
// Spec: shared/spec/seed002_003_ibm.md part A (A1, A3.3, A3.4).
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, executeSchedule, ScheduleBuilder, scheduleFromJson, scheduleToJson } from '../../src/index.js';
import { emitXorSwapPair } from '../../src/collectives/algorithms/alltoall/xor-swap.js';

// Executor input ids (patterns.ts): rank r, byte k holds r·4 + k + 1 with 4 one-byte elements, so
// A..P of the example are ids 1..16 (buffer 1 = rank 0 = [A,B,C,D], ..., buffer 4 = rank 3 = [M,N,O,P]).
const letters = (v: number): string => String.fromCharCode(64 + v);

function stateAfter(allreduces: number): number[][] {
  const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 4, size: 1, inPlace: true });
  // Pair (i, j) = (2, 1) in the patent's 1-based ranks = (1, 0) here.
  emitXorSwapPair(b, 1, 0, b.group([0, 1, 2, 3]), allreduces);
  const r = executeSchedule(b.finish(), { keepBuffers: true });
  expect(r.problems).toEqual([]);
  return [0, 1, 2, 3].map((rank) => Array.from(r.buffer!(rank, 1)!));
}

describe('seed 002 4×4 example', () => {
  it('after the (2,1) swap: [A,E,C,D], [B,F,G,H], [I,J,K,L], [M,N,O,P] (spec A3.3)', () => {
    expect(stateAfter(3).map((row) => row.map(letters))).toEqual([
      ['A', 'E', 'C', 'D'],
      ['B', 'F', 'G', 'H'],
      ['I', 'J', 'K', 'L'],
      ['M', 'N', 'O', 'P'],
    ]);
  });

  it('the three allreduce results are B⊕E (stored by buffer 1), B (buffer 2), E (buffer 1) (spec A3.4)', () => {
    const B = 2;
    const E = 5;
    const first = stateAfter(1);
    expect(first[0][1]).toBe(B ^ E); // buf1.el2 = B⊕E
    expect(first[1][0]).toBe(E); // buf2.el1 unchanged: rank 1 contributed without storing
    const second = stateAfter(2);
    expect(second[0][1]).toBe(B ^ E);
    expect(second[1][0]).toBe(B);
    const third = stateAfter(3);
    expect(third[0][1]).toBe(E);
    expect(third[1][0]).toBe(B);
  });

  it('the whole exchange is a transpose in place, peak memory one buffer, 3·n(n−1)/2 allreduces (spec A1)', () => {
    for (const n of [4, 5, 7]) {
      const s = buildSchedule({ collective: 'alltoall', algorithm: 'xor-swap', topology: buildTopology(`torus:${n}`), size: 3 });
      const r = executeSchedule(s);
      expect(r.problems).toEqual([]);
      expect(r.pass).toBe(true);
      for (let rank = 0; rank < n; rank++) {
        expect(r.stats.peakBytes[rank]).toBe(n * 3); // one buffer of n blocks, no temporary
        expect(r.stats.hwOps[rank]).toBe((3 * n * (n - 1)) / 2);
        expect(r.stats.sentBytes[rank]).toBe(0); // no point-to-point traffic at all
      }
    }
  });

  it('survives a JSON round trip (hw ops that discard their result included)', () => {
    const s = buildSchedule({ collective: 'alltoall', algorithm: 'xor-swap', topology: buildTopology('torus:4'), size: 2 });
    const back = scheduleFromJson(JSON.parse(scheduleToJson(s)));
    expect(back.numOps).toBe(s.numOps);
    expect(executeSchedule(back).pass).toBe(true);
  });

  it('refuses more than 256 ranks, naming the limit', () => {
    const t = buildTopology('torus:17x16');
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'xor-swap', topology: t, size: 1 })).toThrow(/limit is 256 ranks/);
  });
});

describe('seed 002 baseline: pairwise exchange in place (issue 10)', () => {
  it('moves every block with n + 1 blocks per rank, and needs XOR partners', () => {
    const [build, topo, exec] = [buildSchedule, buildTopology, executeSchedule];
    for (const n of [4, 8, 16]) {
      const topology = topo(`torus:${n}`);
      const rep = exec(build({ collective: 'alltoall', algorithm: 'pairwise:buffers=inplace', topology, size: 64 }), {});
      expect(rep.pass).toBe(true);
      expect(Math.max(...rep.stats.peakBytes)).toBe((n + 1) * 64);
      expect(Math.max(...exec(build({ collective: 'alltoall', algorithm: 'pairwise', topology, size: 64 }), {}).stats.peakBytes)).toBe(2 * n * 64);
    }
    expect(() => build({ collective: 'alltoall', algorithm: 'pairwise:buffers=inplace', topology: topo('torus:6'), size: 64 })).toThrow(/XOR partners/);
  });
});

describe('seed 002 combining tree closed form (issue 10)', () => {
  it('is 3·n(n−1)/2 × (overhead + 2⌈log2 n⌉ levels + bytes / bandwidth) and equals the flow engine at zero overhead', async () => {
    const { xorSwapTreeTime } = await import('../../src/analysis/reproduce/seed002.js');
    const { runCollectiveFlow } = await import('../../src/index.js');
    // n = 8: 84 allreduces of 1 µs + 6 × 100 ns + 1000 B at 1 GB/s (1 µs).
    expect(xorSwapTreeTime(8, 1000, { levelLatency: 100e-9, bandwidth: 1e9, callOverhead: 1e-6 })).toBeCloseTo(84 * 2.6e-6, 12);
    const topology = buildTopology('torus:2x4');
    const flow = runCollectiveFlow({ topology, collective: 'alltoall', algorithm: 'xor-swap', size: 64 }).makespan_s;
    expect(xorSwapTreeTime(8, 64, { levelLatency: 100e-9, bandwidth: topology.chBandwidth[0], callOverhead: 0 }) / flow).toBeCloseTo(1, 9);
  });
});
