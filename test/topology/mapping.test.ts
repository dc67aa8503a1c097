import { describe, expect, it } from 'vitest';
import { applyHostList, applyMapping, buildTopology, checkPermutation, selfRouteOf } from '../../src/topology/index.js';
import { loadTopology } from '../../src/node/index.js';
import { SIMGRID_DIR } from '../helpers/simgrid-cases.js';
import { distanceSummary } from '../../src/topology/metrics/distances.js';

describe('rank mappings', () => {
  const mesh = buildTopology('mesh:3x3');
  it('identity keeps the generator order (dimension 0 fastest)', () => {
    expect(Array.from(applyMapping(mesh, 'identity').endpoints)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });
  it('reverse puts rank r on old rank N−1−r and records the mapping in params', () => {
    const t = applyMapping(mesh, 'reverse');
    expect(Array.from(t.endpoints)).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(t.params.mapping).toBe('reverse');
    expect(t.rankOfNode[8]).toBe(0);
  });
  it('snake walks odd rows backwards so consecutive ranks are mesh neighbours', () => {
    expect(Array.from(applyMapping(mesh, 'snake').endpoints)).toEqual([0, 1, 2, 5, 4, 3, 6, 7, 8]);
    const cube = applyMapping(buildTopology('mesh:2x2x2'), 'snake');
    expect(Array.from(cube.endpoints)).toEqual([0, 1, 3, 2, 6, 7, 5, 4]);
    for (let r = 1; r < 8; r++) expect(cube.channelBetween(cube.endpoints[r - 1], cube.endpoints[r])).toBeGreaterThanOrEqual(0);
  });
  it('random:seed=N is a permutation, the same for the same seed and different for another', () => {
    const t = buildTopology('ring:64');
    const a = Array.from(applyMapping(t, 'random:seed=7').endpoints);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 64 }, (_, i) => i));
    expect(Array.from(applyMapping(t, 'random:seed=7').endpoints)).toEqual(a);
    expect(Array.from(applyMapping(t, 'random:seed=8').endpoints)).not.toEqual(a);
  });
  it('keeps declared symmetry pointing at the same nodes', () => {
    const t = applyMapping(buildTopology('fattree:k=2,levels=2'), 'reverse');
    expect(t.symmetry?.classes).toEqual([{ rank: 3, count: 4 }]);
  });
  it('a mapping onto some endpoints only drops the symmetry classes, and distances are of those endpoints', () => {
    // Ranks on one row of torus:4x4 (a 4-ring): ordered pairs at 1, 2, 1 hops from each end, mean 4/3.
    const row = applyMapping(buildTopology('torus:4x4'), [0, 1, 2, 3]);
    expect(row.numEndpoints).toBe(4);
    expect(row.symmetry).toBeUndefined();
    expect(distanceSummary(row).meanWithoutSelf).toBeCloseTo(4 / 3, 12);
    expect(applyMapping(buildTopology('torus:4x4'), 'reverse').symmetry?.classes).toEqual([{ rank: 15, count: 16 }]);
  });
  it('applies an explicit permutation and refuses a broken one, naming the entry', () => {
    expect(Array.from(applyMapping(buildTopology('ring:3'), [2, 0, 1]).endpoints)).toEqual([2, 0, 1]);
    expect(() => checkPermutation([0, 1], 3)).toThrow(/^mapping: got "2 entries"; accepted: exactly 3 entries/);
    expect(() => checkPermutation([0, 3, 1], 3)).toThrow(/^mapping\[1\]: got 3; accepted: a rank 0\.\.2$/);
    expect(() => checkPermutation([0, 2, 0], 3)).toThrow(/^mapping\[2\]: got 0; accepted: each rank 0\.\.2 exactly once \(0 is already mapping\[0\]\)$/);
  });
  it('refuses unknown orders, stray keys, and snake on a graph without coordinates', () => {
    expect(() => applyMapping(mesh, 'zigzag')).toThrow(/^mapping: got "zigzag"; accepted: identity, reverse, random, snake/);
    expect(() => applyMapping(mesh, 'random:sed=3')).toThrow(/mapping\.sed/);
    expect(() => applyMapping(buildTopology('hypercube:2'), 'snake')).toThrow(/a topology with node coordinates/);
  });
});

describe('several ranks on one host (applyHostList: an SMPI hostfile that lists a host twice)', () => {
  const looped = buildTopology('torus:4x4,loopback_bw=1GBps,loopback_lat=1us');
  const pairs = Int32Array.from({ length: 16 }, (_, r) => r >> 1);
  const names = Array.from(pairs, (h) => `node-${h}`);

  it('keeps the ranks in hostfile order, records how many hosts run them, and keeps no symmetry', () => {
    expect(looped.symmetry).toBeDefined();
    const t = applyHostList(looped, pairs, 'file:pairs.txt', names);
    expect(Array.from(t.endpoints)).toEqual(Array.from(pairs, (h) => looped.endpoints[h]));
    expect([t.numEndpoints, t.ranksShareHosts, t.params.rankHosts, t.params.mapping]).toEqual([16, true, 8, 'file:pairs.txt']);
    // The automorphisms of the torus move hosts, not the ranks two hosts hold: a quotient would be wrong.
    expect(t.symmetry).toBeUndefined();
    expect(t.rankOfNode[looped.endpoints[3]]).toBe(6);
    // A permutation keeps both.
    const permuted = applyHostList(looped, Int32Array.from({ length: 16 }, (_, r) => 15 - r), 'file:reverse.txt', names);
    expect([permuted.ranksShareHosts, permuted.symmetry !== undefined, permuted.params.rankHosts]).toEqual([false, true, undefined]);
  });

  it('refuses a second rank on a host without a route to itself, naming the entry, as smpirun aborts', () => {
    expect(() => applyHostList(buildTopology('torus:4x4'), pairs, 'file:pairs.txt', names, 'hostfile(pairs.txt)')).toThrow(
      /^hostfile\(pairs\.txt\)\[1\]: got "node-0"; accepted: a host with a route to itself for its second rank \(smpirun aborts/,
    );
    expect(() => applyHostList(looped, [0, 16], 'x', ['a', 'b'])).toThrow(/^mapping\[1\]: got 16; accepted: a host 0\.\.15$/);
  });
});

describe('selfRouteOf: the route two ranks on one host cross', () => {
  const channels = new Int32Array(16);
  it('is the route a platform declares from a host to itself (small_platform.xml: Tremblay → Tremblay over "loopback")', () => {
    const t = loadTopology(`simgrid:${SIMGRID_DIR}/examples/small_platform.xml`);
    const selfRoute = selfRouteOf(t)!;
    expect(selfRoute).toBeDefined();
    const hops = selfRoute(t, t.endpoints[0], channels);
    expect(hops).toBe(1);
    expect(t.explicitRoutes!.channelNames[channels[0]]).toBe('loopback');
  });
  it('is undefined on a torus, which applyHostList refuses twice-listed hosts on unless it has a loopback', () => {
    expect(selfRouteOf(buildTopology('torus:4x4'))).toBeUndefined();
    expect(() => applyHostList(buildTopology('torus:4x4'), [0, 0], 'x', ['a', 'a'])).toThrow(/route to itself/);
    expect(applyHostList(buildTopology('torus:4x4,loopback_bw=1GBps,loopback_lat=1us'), [0, 0], 'x', ['a', 'a']).ranksShareHosts).toBe(true);
  });
});
