import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { generateTransformer, generatedTrace } from '../../src/workload/generate.js';
import { RING_ALGORITHMS } from './chakra-helpers.js';
import { runWorkload } from '../../src/workload/run.js';

/**
 * TP 2 × DP 2, 2 layers, hidden 64, sequence 32, 2-byte elements (T = 32 tokens):
 * attention (8Th² + 4T·seq·h) / TP = 655,360 FLOP, MLP 16Th² / TP = 1,048,576 FLOP; on a device of
 * 1.31072e11 FLOP/s (memory 1e15 B/s, never the bound) that is 5 us and 8 us forward, 10 and 16 us
 * backward; the optimizer 10 × 12h²·2 / TP = 491,520 FLOP = 3.75 us.
 * fullmesh:4 at 1 GB/s per direction, α = 0, no latency: a TP allreduce of T·h·e = 4,096 B is two
 * ring steps of 2,048 B = 4.096 us; a DP gradient allreduce of 12h²e / TP = 49,152 B is two steps of
 * 24,576 B = 49.152 us alone. TP pairs (0,1), (2,3) and DP pairs (0,2), (1,3) use separate links.
 *
 * Forward and backward chain (us): fwd L0 A 0–5, AR –9.096, M –17.096, AR –21.192; fwd L1 A –26.192,
 * AR –30.288, M –38.288, AR –42.384; bwd L1 M' –58.384, AR –62.48, A' –72.48 (DP AR L1 starts),
 * AR –76.576; bwd L0 M' –92.576, AR –96.672, A' –106.672 (DP AR L0 starts), AR –110.768.
 * DP AR L1: step 1 72.48–97.056, step 2 97.056–121.632. DP AR L0's step 1 is posted at 106.672 on the
 * same link; under the default NIC model (injection order fifo: a NIC's sends leave in order on
 * each link) it waits for L1's step 2 to leave: 121.632–146.208, its step 2 146.208–170.784.
 * The optimizer waits for both: 170.784–174.534 = the step time.
 * Per rank: compute 81.75 us; communication = 8 TP allreduces before 72.48 (5 × 4.096) ∪
 * [72.48, 170.784] = 20.48 + 98.304 = 118.784 us; exposed = 118.784 − (M' 16 + A' 10 under the DP
 * allreduces) = 92.784 us, and compute + exposed = the step (the rank is never idle).
 */
describe('generated transformer workload', () => {
  const gen = generateTransformer({ tp: 2, dp: 2, layers: 2, hidden: 64, sequence: 32 });
  const device = { name: 'test', peakFlops: 1.31072e11, memoryBandwidth: 1e15 };
  const topology = buildTopology('fullmesh:4,bw=8Gbps,lat=0');

  it('has the process groups of TP 2 × DP 2 (TP consecutive ranks)', () => {
    expect([...gen.groups.values()]).toEqual([[0, 1], [2, 3], [0, 2], [1, 3]]);
  });

  it('per-rank exposed communication matches the hand-computed case', () => {
    const { report } = runWorkload({ topology, trace: generatedTrace(gen), algorithms: RING_ALGORITHMS, device, model: { alpha: 0 } });
    expect(report.step_time_s * 1e6).toBeCloseTo(174.534, 6);
    for (const r of report.ranks) {
      expect(r.compute_s * 1e6).toBeCloseTo(81.75, 6);
      expect(r.communication_s * 1e6).toBeCloseTo(118.784, 6);
      expect(r.exposed_communication_s * 1e6).toBeCloseTo(92.784, 6);
    }
    const dp = report.collectives.filter((c) => c.bytes === 49152);
    const spans = dp.map((c) => [c.start_s * 1e6, c.end_s * 1e6].map((x) => Number(x.toFixed(3)))).sort((a, b) => a[0] - b[0]);
    expect(spans).toEqual([
      [72.48, 121.632],
      [106.672, 170.784],
    ].flatMap((x) => [x, x]).sort((a, b) => a[0] - b[0]));
  });

  it('expert parallelism adds all-to-all dispatch and combine on the EP groups', () => {
    const moe = generateTransformer({ tp: 2, dp: 4, ep: 2, layers: 1, hidden: 64, sequence: 32 });
    const trace = generatedTrace(moe);
    const a2a = trace.collectives.filter((c) => c.collective === 'alltoall');
    // Per EP group: dispatch and combine, forward and backward = 4; 2 TP positions × 2 EP groups.
    expect(a2a).toHaveLength(16);
    expect(new Set(a2a.map((c) => c.ranks.length))).toEqual(new Set([2]));
  });

  it('pipeline stages exchange activations and gradients by send/recv', () => {
    const pp = generateTransformer({ tp: 1, pp: 2, dp: 1, layers: 2, hidden: 64, sequence: 32, microbatches: 2 });
    const kinds = pp.ranks.map((nodes) => nodes.filter((n) => n.kind === 'send' || n.kind === 'recv').map((n) => n.kind));
    expect(kinds).toEqual([['send', 'send', 'recv', 'recv'], ['recv', 'recv', 'send', 'send']]);
    const { report } = runWorkload({ topology: buildTopology('ring:2'), trace: generatedTrace(pp), algorithms: RING_ALGORITHMS, device });
    expect(report.step_time_s).toBeGreaterThan(0);
  });
});

it('refuses sizes whose FLOPs or bytes per node leave the trace\'s exact integers, before any file', () => {
  // hidden 1e8 at sequence 2048: the backward MLP alone is 2 × 16 × 2048² × 1e16 / 8 ≈ 3.4e22 FLOPs.
  expect(() => generateTransformer({ tp: 8, dp: 1, layers: 1, hidden: 100_000_000 })).toThrow(/^hidden: got 100000000; accepted: at most 2\^53 FLOPs or bytes in one trace node \(8\.19e\+19 here, with sequence 2048 and microbatch 1;/);
  // The edge: 2 × 16 × T × h² / tp < 2^53 with T = 2048, tp = 8 holds for h below 2^20 (at 2^20 it is 2^53).
  expect(() => generateTransformer({ tp: 8, dp: 1, layers: 1, hidden: (1 << 20) - 1 })).not.toThrow();
  expect(() => generateTransformer({ tp: 8, dp: 1, layers: 1, hidden: 1 << 20 })).toThrow(/^hidden:/);
});
