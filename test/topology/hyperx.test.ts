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
  it("numbering=tiles gives BookSim's terminal ids: across the chip's x·xr-wide grid, router r's tile at column r mod x, row r div x (flatfly_transformation)", () => {
    const t = buildTopology('flatfly:k=4,n=2,c=4,x=4,xr=2,yr=2,numbering=tiles');
    assertConsistent(t);
    const routerOfRank = (rank: number): number => t.chDst[t.outChannels[t.outStart[t.endpoints[rank]]]] - t.numEndpoints;
    // BookSim's comment: "the first node has 0,1,8,9"; router 1 the next two columns, router 4 the rows 2 and 3.
    expect([0, 1, 8, 9].map(routerOfRank)).toEqual([0, 0, 0, 0]);
    expect([2, 3, 10, 11].map(routerOfRank)).toEqual([1, 1, 1, 1]);
    expect([16, 17, 24, 25].map(routerOfRank)).toEqual([4, 4, 4, 4]);
    expect(routerOfRank(63)).toBe(15);
    // flatfly_transformation(id) / c is the router, for every id; the router's ports list its terminals in id order.
    for (let id = 0; id < 64; id++) {
      const [col, row] = [id % 8, Math.floor(id / 8)];
      expect(routerOfRank(id)).toBe(Math.floor(row / 2) * 4 + Math.floor(col / 2));
    }
    const ports = (r: number): number[] => Array.from(t.outChannels.subarray(t.outStart[64 + r], t.outStart[64 + r] + 4), (c) => t.rankOfNode[t.chDst[c]]);
    expect(ports(5)).toEqual([18, 19, 26, 27]);
    // Router numbering (the default) is unchanged: rank r·c + t on router r.
    const plain = buildTopology('flatfly:k=4,n=2,c=4,x=4,xr=2,yr=2');
    expect(plain.chDst[plain.outChannels[plain.outStart[plain.endpoints[8]]]] - 64).toBe(2);
    // With x = 8 (BookSim's default) the grid is 16 terminals wide, two rows of 8 tiles.
    const wide = buildTopology('flatfly:k=4,n=2,c=4,x=8,xr=2,yr=2,numbering=tiles');
    expect(wide.chDst[wide.outChannels[wide.outStart[wide.endpoints[16 + 15]]]] - 64).toBe(7);
  });
  it('numbering=tiles needs the layout, c = xr·yr and whole rows of tiles', () => {
    expect(() => buildTopology('flatfly:k=4,n=2,c=4,numbering=tiles')).toThrow(/topology\.numbering: got "tiles"; accepted: routers, or tiles with the layout x, xr and yr given/);
    expect(() => buildTopology('flatfly:k=4,n=2,c=2,x=4,xr=2,yr=2,numbering=tiles')).toThrow(/topology\.c: got 2; accepted: xr·yr = 4/);
    expect(() => buildTopology('flatfly:k=4,n=2,c=4,x=3,xr=2,yr=2,numbering=tiles')).toThrow(/topology\.x: got 3; accepted: a divisor of the 16 routers/);
    expect(() => buildTopology('flatfly:k=4,n=2,c=4,x=4,xr=2,yr=2,numbering=rows')).toThrow(/topology\.numbering: got "rows"; accepted: one of routers, tiles/);
  });
  it('refuses sides below 2 and bad trunking, naming the field', () => {
    expect(() => buildTopology('hyperx:4x1')).toThrow(/hyperx\.dims|topology\.dims/);
    expect(() => buildTopology('hyperx:4x4,k=0')).toThrow(/topology\.k: got "0"/);
  });
});
