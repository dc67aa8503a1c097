import { describe, expect, it } from 'vitest';
import { resolveRouting, FlowProgramBuilder, simulateFlow, torus, mesh } from '../../../src/index.js';

const GBPS = 1e9 / 8;

describe('flow engine closed forms', () => {
  it('one message: α + hops × (channel latency + router latency) + size / min(link bw, injection bw)', () => {
    // Source: issue 4, "Closed forms". Mesh 5x1, rank 0 -> rank 4 is 4 hops.
    const topo = mesh([5], { bandwidth: 25 * GBPS, latency: 100e-9 });
    const routing = resolveRouting(topo);
    const size = 1 << 20;
    for (const inj of [10 * GBPS, 40 * GBPS]) {
      const b = new FlowProgramBuilder(5);
      b.beginStream(0).send(4, size);
      b.beginStream(4).recv(0, size);
      for (let r = 1; r < 4; r++) b.beginStream(r);
      const out = simulateFlow(topo, routing, b.build(), { alpha: 1e-6, routerLatency: 20e-9, injectionBandwidth: inj });
      const expected = 1e-6 + 4 * (100e-9 + 20e-9) + size / Math.min(25 * GBPS, inj);
      expect(out.makespan).toBeCloseTo(expected, 15);
      expect(out.makespan / expected).toBeCloseTo(1, 12);
    }
  });

  it('k flows on one channel each get B/k', () => {
    // k senders on a 1D mesh all cross the channel 0 -> 1... use k streams of rank 0 to rank 1.
    const topo = mesh([2], { bandwidth: 10 * GBPS, latency: 0 });
    const routing = resolveRouting(topo);
    const size = 1e6;
    for (const k of [1, 2, 3, 7]) {
      const b = new FlowProgramBuilder(2);
      for (let i = 0; i < k; i++) b.beginStream(0).send(1, size, i);
      for (let i = 0; i < k; i++) b.beginStream(1).recv(0, size, i);
      const out = simulateFlow(topo, routing, b.build(), { alpha: 0 });
      // Each flow at B/k finishes at size / (B/k).
      expect(out.makespan).toBeCloseTo((size * k) / (10 * GBPS), 15);
      expect(out.channelBytes[topo.channelBetween(0, 1)]).toBe(size * k);
    }
  });

  it('ring allgather with per-rank block m: (p−1)(α + m/B)', () => {
    const p = 6;
    const topo = torus([p], { bandwidth: 25 * GBPS, latency: 0 });
    const routing = resolveRouting(topo);
    const m = 65536;
    const alpha = 2e-6;
    const b = new FlowProgramBuilder(p);
    for (let r = 0; r < p; r++) {
      b.beginStream(r);
      for (let step = 0; step < p - 1; step++) b.send((r + 1) % p, m, step).recv((r + p - 1) % p, m, step);
    }
    const out = simulateFlow(topo, routing, b.build(), { alpha });
    expect(out.makespan / ((p - 1) * (alpha + m / (25 * GBPS)))).toBeCloseTo(1, 12);
  });
});
