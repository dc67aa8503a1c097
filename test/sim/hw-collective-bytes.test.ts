/**
 * A combining-network collective (hwCollective) moves its largest contribution through the tree,
 * whoever arrives last: ranks that only contribute identities (seed 002's XOR allreduces, spec A3.4:
 * "the identity values flow from the non-participating nodes up") send values of that length.
 * Cost = 2⌈log2 P⌉ × level latency + bytes / tree bandwidth (docs/flow.md).
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, FlowProgramBuilder, simulateFlow, simulatePacketSchedule, resolveRouting } from '../../src/index.js';

function program(lateRank: number): ReturnType<FlowProgramBuilder['build']> {
  const b = new FlowProgramBuilder(4);
  // Rank 0 contributes 1 MB; the others identities (0 bytes). `lateRank` arrives 1 µs late.
  for (let r = 0; r < 4; r++) {
    b.beginStream(r);
    if (r === lateRank) b.copy(1000);
    b.hwCollective(r === 0 ? 1e6 : 0, 'g');
  }
  return b.build();
}

describe('hwCollective cost uses the largest contribution', () => {
  const t = buildTopology('ring:4,bw=8Gbps');
  const model = { alpha: 0, gammaCopy: 1e-9, hwLevelLatency: 100e-9 };
  // 1 µs late arrival + 2·2 levels × 100 ns + 1e6 B / 1e9 B/s.
  const expected = 1e-6 + 400e-9 + 1e-3;
  for (const late of [0, 3]) {
    it(`flow engine, last arrival rank ${late}`, () => {
      expect(simulateFlow(t, resolveRouting(t, {}), program(late), model).makespan).toBeCloseTo(expected, 12);
    });
    it(`packet schedule mode, last arrival rank ${late}`, () => {
      const r = simulatePacketSchedule({ topology: t, program: program(late), model });
      // Cycle rounding: within two cycles of 32-byte flits at 1 GB/s (32 ns each).
      expect(Math.abs(r.makespan_s - expected)).toBeLessThan(70e-9);
    });
  }
});
