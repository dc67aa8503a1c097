import { describe, expect, it } from 'vitest';
import { buildTopology, fatTree, twoLevel } from '../../src/topology/index.js';
import { assertConsistent, countKinds, isAutomorphism, profile, rankDistances } from './graph-checks.js';

describe('fattree (k-ary n-tree)', () => {
  it('fattree:k=4,levels=3: 64 terminals, 3 levels of 16 switches, distances 1/3/5 with counts 3/12/48', () => {
    const t = buildTopology('fattree:k=4,levels=3');
    assertConsistent(t);
    expect(countKinds(t)).toEqual({ terminals: 64, switches: 48 });
    expect(t.distanceConvention).toBe('switches-traversed');
    const d = rankDistances(t, 0);
    const count = (x: number): number => d.filter((v) => v === x).length;
    // A terminal's LCA is at level l for (k−1)·k^l others, l = 0..n−1, at 2l+1 switches.
    expect([count(1), count(3), count(5)]).toEqual([3, 12, 48]);
    // Switches below the top have k down and k up ports; the top ones only k down.
    const firstSwitch = 64;
    expect([t.outDegree(firstSwitch), t.outDegree(firstSwitch + 32)]).toEqual([8, 4]);
  });
  it("reproduces seed 004's FT mean distance rule 2L−3+3·2^−L at L = 10 (spec §Table 1 inferred rules)", () => {
    const t = fatTree({ k: 2, levels: 10 });
    expect(countKinds(t)).toEqual({ terminals: 1024, switches: 5120 });
    const d = rankDistances(t, 0);
    const mean = d.reduce((a, b) => a + b, 0) / 1024;
    expect(mean).toBeCloseTo(2 * 10 - 3 + 3 * 2 ** -10, 12);
    expect(Math.max(...d)).toBe(2 * 10 - 1);
  });
  it('declares all terminals equivalent, and every terminal has the same distance profile', () => {
    const t = fatTree({ k: 3, levels: 3 });
    expect(t.symmetry?.classes).toEqual([{ rank: 0, count: 27 }]);
    for (let r = 1; r < 27; r++) expect(profile(t, r)).toBe(profile(t, 0));
  });
});

describe('twolevel (seed 003)', () => {
  it('defaults to uplinks = hosts and spines = uplinks (constant bisection bandwidth)', () => {
    const t = buildTopology('twolevel:leaves=4,hosts=8');
    assertConsistent(t);
    expect(t.params).toMatchObject({ leaves: 4, hosts: 8, spines: 8, uplinks: 8, constantBisection: true });
    expect(countKinds(t)).toEqual({ terminals: 32, switches: 12 });
    const leaf = 32;
    expect([t.outDegree(leaf), t.inDegree(leaf)]).toEqual([16, 16]);
    expect(new Set(t.classNames)).toEqual(new Set(['host-up', 'host-down', 'up', 'down']));
    // Hosts on one leaf cross 1 switch, on different leaves 3 (leaf, spine, leaf).
    const d = rankDistances(t, 0);
    expect(d.slice(1, 8)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(new Set(d.slice(8))).toEqual(new Set([3]));
  });
  it('spreads U uplinks over K spines: U = 2K gives 2 parallel links to each spine', () => {
    const t = twoLevel({ leaves: 3, hosts: 4, spines: 2, uplinks: 4 });
    assertConsistent(t);
    const leaf0 = 12;
    const spine0 = 15;
    const toSpine0 = Array.from({ length: t.numChannels }, (_, c) => c).filter((c) => t.chSrc[c] === leaf0 && t.chDst[c] === spine0);
    expect(toSpine0).toHaveLength(2);
    expect(t.symmetry).toBeDefined();
  });
  it('declares symmetry when spines divide leaves, and leaf/spine rotation is then an automorphism', () => {
    const [S, m, K, U] = [8, 2, 4, 2];
    const t = twoLevel({ leaves: S, hosts: m, spines: K, uplinks: U });
    expect(t.symmetry?.classes).toEqual([{ rank: 0, count: S * m }]);
    const hosts = S * m;
    const map = Int32Array.from({ length: t.numNodes }, (_, v) => {
      if (v < hosts) return ((Math.floor(v / m) + 1) % S) * m + (v % m);
      if (v < hosts + S) return hosts + ((v - hosts + 1) % S);
      return hosts + S + ((v - hosts - S + 1) % K);
    });
    expect(isAutomorphism(t, map)).toBe(true);
    for (let r = 1; r < hosts; r++) expect(profile(t, r)).toBe(profile(t, 0));
  });
  it('declares nothing for uneven spreading, where the leaves really differ', () => {
    // Windows {0,1}, {1,2}, {2,3}: hosts of leaf 0 reach leaf 2 only through leaf 1 (5 switches).
    const t = twoLevel({ leaves: 3, hosts: 2, spines: 4, uplinks: 2 });
    assertConsistent(t);
    expect(t.symmetry).toBeUndefined();
    expect(Math.max(...rankDistances(t, 0))).toBe(5);
    expect(Math.max(...rankDistances(t, 2))).toBe(3);
  });
  it('refuses wirings that disconnect leaves or idle spines, naming the field', () => {
    expect(() => buildTopology('twolevel:leaves=2,hosts=2,spines=2,uplinks=1')).toThrow(/topology.uplinks|twolevel.uplinks/);
    expect(() => buildTopology('twolevel:leaves=2,hosts=4,spines=8,uplinks=2')).toThrow(/twolevel.spines: got 8; accepted: at most leaves \+ uplinks − 1 = 3/);
    expect(() => buildTopology('twolevel:leaves=2')).toThrow(/topology.hosts/);
  });
});
