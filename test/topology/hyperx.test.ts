import { describe, expect, it } from 'vitest';
import { buildTopology, distanceSummary, hyperx } from '../../src/topology/index.js';
import { resolveRouting } from '../../src/routing/index.js';
import { makeRouteBuffers } from '../../src/routing/types.js';
import { assertConsistent, countKinds, profile, switchDegrees, switchHistogram } from './graph-checks.js';

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return r;
}

describe('hyperx', () => {
  it('has Ahn et al. (SC09) router degree K·Σ(S_i − 1) and the Hamming distance distribution', () => {
    const t = buildTopology('hyperx:4x4x4');
    assertConsistent(t);
    expect(countKinds(t)).toEqual({ terminals: 64, switches: 64 });
    expect(new Set(switchDegrees(t))).toEqual(new Set([9]));
    // Hamming graph H(3, 4): from any router, C(3, d)·3^d routers at d hops.
    const { histogram, unreachable } = switchHistogram(t);
    expect(unreachable).toBe(0);
    expect(histogram).toEqual([0, 1, 2, 3].map((d) => (d === 0 ? 0 : 64 * binomial(3, d) * 3 ** d)));
  });
  it('trunking multiplies every link: k=2 doubles the degree of a 3x5 HyperX', () => {
    const t = hyperx({ dims: [3, 5], trunking: 2, p: 2 });
    assertConsistent(t);
    expect(new Set(switchDegrees(t))).toEqual(new Set([2 * (2 + 4)]));
    expect(t.params).toMatchObject({ routers: 15, terminals: 30, trunking: 2 });
  });
  it('declares vertex-transitivity that BFS confirms: symmetry equals all-pairs', () => {
    const t = buildTopology('hyperx:3x4,p=2');
    const first = profile(t, 0);
    for (let r = 1; r < t.numEndpoints; r++) expect(profile(t, r)).toBe(first);
    const sym = distanceSummary(t);
    const all = distanceSummary(t, { method: 'all-pairs' });
    expect(sym.method).toBe('symmetry');
    expect(sym.histogram).toEqual(all.histogram);
  });
  it('routes shortest-path lowest-port as dimension order (deadlock free with one class)', () => {
    const t = buildTopology('hyperx:4x4x4');
    const routing = resolveRouting(t);
    expect(routing.deadlockFree).toBe(true);
    const out = makeRouteBuffers(routing.maxHops);
    // Router 0 (0,0,0) to router 63 (3,3,3): the three router hops correct d0, d1, d2 in order.
    const hops = routing.route(t.endpoints[0], t.endpoints[63], 0, out);
    const classes = Array.from(out.channels.subarray(0, hops), (c) => t.className(c));
    expect(classes).toEqual(['terminal', 'd0', 'd1', 'd2', 'terminal']);
  });
  it('flatfly:k=4,n=2 is BookSim flatfly: k^n routers of radix c + (k−1)·n, k^n·c nodes (flatfly_onchip.cpp)', () => {
    const t = buildTopology('flatfly:k=4,n=2,c=4');
    assertConsistent(t);
    expect(countKinds(t)).toEqual({ terminals: 64, switches: 16 });
    for (let v = 64; v < 80; v++) expect(t.outDegree(v)).toBe(4 + 3 * 2);
    expect(t.family).toBe('flatfly');
  });
  it('refuses sides below 2 and bad trunking, naming the field', () => {
    expect(() => buildTopology('hyperx:4x1')).toThrow(/hyperx\.dims|topology\.dims/);
    expect(() => buildTopology('hyperx:4x4,k=0')).toThrow(/topology\.k: got "0"/);
  });
});
