/**
 * Seed 001 ratios with the registered seed algorithms (collectives area) on the generated full
 * mesh, in the seed's units: N = 8, 20 Gbps, 2 µs direct (α = 2 µs, channel latency 0). Large
 * messages, within 2%. Multicast, reduce and two-group scatter are checked at engine level in
 * seed001.test.ts with hand-written schedules of the same data movement.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, runCollectiveFlow } from '../../../src/index.js';

const S = 64 * 1024 * 1024;

describe('seed 001 with the registered algorithms (N = 8, 20 Gbps, 2 µs)', () => {
  const topology = buildTopology('fullmesh:8,bw=20Gbps,lat=0');
  const time = (collective: 'one-to-one' | 'broadcast', algorithm: string): number =>
    runCollectiveFlow({ topology, collective, algorithm, size: S, model: { alpha: 2e-6 } }).makespan_s;

  it('1-to-1 split over K = N−2 turnaround nodes and the direct link: 1/(N−1)', () => {
    const ratio = time('one-to-one', 'fullmesh-split') / time('one-to-one', 'direct');
    expect(Math.abs(ratio * 7 - 1)).toBeLessThan(0.02);
  });

  it('6th-embodiment multicast with K = N−1 against the 3rd (K = N): 1/7 against ≈ 2/N = 1/4', () => {
    // Both against the direct fan-out time α + S/B (the sender drives its N−1 links at once).
    const direct = 2e-6 + S / (20e9 / 8);
    expect(Math.abs((time('broadcast', 'fullmesh-multicast:embodiment=6') / direct) * 7 - 1)).toBeLessThan(0.02);
    expect(Math.abs((time('broadcast', 'fullmesh-multicast:embodiment=3') / direct) * 4 - 1)).toBeLessThan(0.02);
  });
});
