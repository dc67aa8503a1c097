import { describe, expect, it } from 'vitest';
import { torus, mesh, FlowProgramBuilder, simulateFlow, resolveRouting, InputError } from '../../src/index.js';
import { demandOf } from '../../src/sim/bounds/demand.js';
import { topologyBounds, bestBound } from '../../src/sim/bounds/topology-bounds.js';

const B = 25e9 / 8;
const MODEL = { alpha: 1e-6, routerLatency: 0, nics: 1, injectionBandwidth: null, ejectionBandwidth: null };

describe('topology lower bounds', () => {
  it('alltoall on a k-ary n-cube: injection, hop-bytes, bisection and latency in closed form', () => {
    const k = 8;
    const t = torus([k, k]);
    const n = 64;
    const m = 1 << 20;
    const b = Object.fromEntries(topologyBounds(t, demandOf('alltoall', n, m), MODEL).map((x) => [x.name, x.seconds]));
    // Injection: (N−1)m through 4 links of B.
    expect(b.injection).toBeCloseTo(((n - 1) * m) / (4 * B), 15);
    // Hop-bytes: mean ring distance k/4 per dimension → m·N·N·2·k/4 over N·4 channels.
    expect(b['hop-bytes']).toBeCloseTo((m * n * n * 2 * (k / 4)) / (n * 4 * B), 12);
    // Bisection: (N/2)² m across 2·k channels per direction (wrap doubles the cut).
    expect(b.bisection).toBeCloseTo(((n / 2) * (n / 2) * m) / (2 * k * B), 12);
    // Latency: α + diameter (k/2 + k/2) × 100 ns.
    expect(b.latency).toBeCloseTo(1e-6 + 8 * 100e-9, 15);
    expect(bestBound(topologyBounds(t, demandOf('alltoall', n, m), MODEL)).name).toMatch(/hop-bytes|bisection/);
  });

  it('a mesh bisection has no wrap-around links', () => {
    const t = mesh([4, 4]);
    const b = topologyBounds(t, demandOf('alltoall', 16, 1000), MODEL).find((x) => x.name === 'bisection')!;
    expect(b.seconds).toBeCloseTo((8 * 8 * 1000) / (4 * B), 15);
  });

  it('no run beats its bounds (linear alltoall, several sizes)', () => {
    const t = torus([4, 4]);
    for (const m of [1, 1000, 1 << 20]) {
      const p = new FlowProgramBuilder(16);
      for (let r = 0; r < 16; r++) {
        p.beginStream(r);
        for (let j = 1; j < 16; j++) p.send((r + j) % 16, m);
        for (let j = 1; j < 16; j++) p.recv((r - j + 16) % 16, m);
      }
      const out = simulateFlow(t, resolveRouting(t), p.build(), { alpha: 1e-6 });
      for (const b of topologyBounds(t, demandOf('alltoall', 16, m), MODEL)) expect(out.makespan).toBeGreaterThanOrEqual(b.seconds * (1 - 1e-12));
    }
  });

  it('a route hint through a node with no such link is refused by the engine', () => {
    const t = torus([4, 4]);
    const p = new FlowProgramBuilder(16);
    p.beginStream(0).send(5, 100, 0, { kind: 'path', nodes: [0, 5] });
    p.beginStream(5).recv(0, 100);
    expect(() => simulateFlow(t, resolveRouting(t), p.build())).toThrow(InputError);
  });
});
