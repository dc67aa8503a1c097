import { describe, expect, it } from 'vitest';
import { buildTopology, fullmesh, hypercube, ring } from '../../src/topology/index.js';
import { LimitError } from '../../src/util/errors.js';
import { assertConsistent, profile, rankDistances } from './graph-checks.js';

describe('ring and uring', () => {
  it('ring:N has 2N channels of classes ring+/ring-, degree 2 and distance min(|i−j|, N−|i−j|)', () => {
    const t = buildTopology('ring:7');
    assertConsistent(t);
    expect(t.numChannels).toBe(14);
    expect(new Set(t.classNames)).toEqual(new Set(['ring+', 'ring-']));
    for (let v = 0; v < 7; v++) expect([t.outDegree(v), t.inDegree(v)]).toEqual([2, 2]);
    expect(rankDistances(t, 0)).toEqual([0, 1, 2, 3, 3, 2, 1]);
    expect(t.channelBetween(6, 0)).toBeGreaterThanOrEqual(0);
    expect(t.className(t.channelBetween(6, 0))).toBe('ring+');
  });
  it('ring:2 is one link (two channels), like a 2-ary torus dimension', () => {
    expect(ring({ n: 2 }).numChannels).toBe(2);
  });
  it('uring:N is unidirectional: from 0 the distance to j is j', () => {
    const t = buildTopology('uring:5');
    assertConsistent(t);
    expect(t.numChannels).toBe(5);
    expect(rankDistances(t, 0)).toEqual([0, 1, 2, 3, 4]);
    expect(rankDistances(t, 3)).toEqual([2, 3, 4, 0, 1]);
  });
  it('accepts n=N as well as the positional form, but not both', () => {
    expect(buildTopology('ring:n=6').numNodes).toBe(6);
    expect(() => buildTopology('ring:6,n=6')).toThrow(/topology.n/);
    expect(() => buildTopology('ring:1')).toThrow(/topology.n: got "1"; accepted: an integer from 2/);
  });
});

describe('hypercube', () => {
  it('hypercube:4: 16 nodes of degree 4, distance = Hamming distance, classes d0..d3', () => {
    const t = hypercube(4);
    assertConsistent(t);
    expect([t.numNodes, t.numChannels]).toEqual([16, 64]);
    expect(t.classNames).toEqual(['d0', 'd1', 'd2', 'd3']);
    const popcount = (x: number): number => x.toString(2).split('').filter((b) => b === '1').length;
    for (const r of [0, 5, 15]) expect(rankDistances(t, r)).toEqual(Array.from({ length: 16 }, (_, s) => popcount(r ^ s)));
  });
  it('refuses hypercube:40 naming the node limit, before allocating', () => {
    expect(() => buildTopology('hypercube:40')).toThrow(LimitError);
    expect(() => buildTopology('hypercube:40')).toThrow(/at most 16777216 nodes/);
    expect(() => buildTopology('hypercube:0')).toThrow(/topology.d/);
  });
});

describe('fullmesh (seed 001)', () => {
  it('fullmesh:5 has N−1 = 4 links per node, class direct, every distance 1', () => {
    const t = buildTopology('fullmesh:5');
    assertConsistent(t);
    expect(t.numChannels).toBe(20);
    for (let v = 0; v < 5; v++) expect(t.outDegree(v)).toBe(4);
    expect(t.classNames).toEqual(['direct']);
    expect(rankDistances(t, 2)).toEqual([1, 1, 0, 1, 1]);
  });
  it('mult=M gives M parallel channels per ordered pair', () => {
    const t = fullmesh(4, 3);
    assertConsistent(t);
    expect(t.numChannels).toBe(4 * 3 * 3);
    expect(t.outDegree(0)).toBe(9);
    const toOne = Array.from({ length: t.numChannels }, (_, c) => c).filter((c) => t.chSrc[c] === 0 && t.chDst[c] === 1);
    expect(toOne).toHaveLength(3);
  });
});

describe('vertex-transitive families declare one source class, and every node has the same profile', () => {
  for (const spec of ['ring:9', 'uring:6', 'hypercube:5', 'fullmesh:6,mult=2', 'torus:4x3']) {
    it(spec, () => {
      const t = buildTopology(spec);
      expect(t.symmetry?.classes).toEqual([{ rank: 0, count: t.numEndpoints }]);
      const p0 = profile(t, 0);
      for (let r = 1; r < t.numEndpoints; r++) expect(profile(t, r)).toBe(p0);
    });
  }
});

describe('link attributes and params', () => {
  it('bw= and lat= reach every channel and are recorded in params', () => {
    const t = buildTopology('hypercube:3,bw=100Gbps,lat=2us');
    expect(new Set(t.chBandwidth)).toEqual(new Set([100e9 / 8]));
    expect(t.chLatency[5]).toBeCloseTo(2e-6, 15);
    expect(t.params).toMatchObject({ d: 3, bandwidth: 100e9 / 8 });
  });
});
