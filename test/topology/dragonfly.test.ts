import { describe, expect, it } from 'vitest';
import { buildTopology, dragonfly, NodeKind } from '../../src/topology/index.js';
import { assertConsistent, countKinds, isAutomorphism, profile, rankDistances } from './graph-checks.js';

/** Global links between each ordered pair of groups. */
function groupPairCounts(t: ReturnType<typeof dragonfly>, a: number, terminals: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let c = 0; c < t.numChannels; c++) {
    if (t.className(c) !== 'global') continue;
    const key = `${Math.floor((t.chSrc[c] - terminals) / a)}>${Math.floor((t.chDst[c] - terminals) / a)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe('dragonfly', () => {
  it('defaults to the balanced maximum: a = 2h, p = h, g = a·h + 1', () => {
    const t = buildTopology('dragonfly:h=2');
    assertConsistent(t);
    expect(t.params).toMatchObject({ a: 4, p: 2, h: 2, g: 9, linksPerGroupPair: 1 });
    expect(countKinds(t)).toEqual({ terminals: 72, switches: 36 });
    // Router ports: p terminal + (a−1) local + h global.
    for (let v = 72; v < 108; v++) expect([t.outDegree(v), t.inDegree(v)]).toEqual([7, 7]);
  });
  it('joins every pair of groups by exactly a·h/(g−1) global links, both ways', () => {
    for (const [a, h, g] of [[4, 2, 9], [4, 2, 5], [3, 2, 4], [2, 3, 7]]) {
      const p = 1;
      const t = dragonfly({ a, p, h, g });
      assertConsistent(t);
      const counts = groupPairCounts(t, a, g * a * p);
      for (let x = 0; x < g; x++) for (let y = 0; y < g; y++) expect(counts.get(`${x}>${y}`) ?? 0).toBe(x === y ? 0 : (a * h) / (g - 1));
      // Every global channel has its reverse channel (links are bidirectional).
      for (let c = 0; c < t.numChannels; c++) if (t.className(c) === 'global') expect(t.channelBetween(t.chDst[c], t.chSrc[c])).toBeGreaterThanOrEqual(0);
    }
  });
  it('router hop distances are at most 3 (local, global, local) in the maximal dragonfly', () => {
    const t = dragonfly({ a: 4, p: 1, h: 2, g: 9 });
    for (const r of [0, 1, 2, 3]) expect(Math.max(...rankDistances(t, r))).toBe(4); // 4 routers = 3 router hops
  });
  it('group rotation and the reflection r -> a−1−r are automorphisms; declared classes hold', () => {
    const [a, p, h, g] = [4, 2, 2, 5];
    const t = dragonfly({ a, p, h, g });
    const terminals = g * a * p;
    const move = (x: number, r: number, reflect: boolean): [number, number] => (reflect ? [(g - x) % g, a - 1 - r] : [(x + 1) % g, r]);
    for (const reflect of [false, true]) {
      const map = Int32Array.from({ length: t.numNodes }, (_, v) => {
        if (t.nodeKind[v] === NodeKind.Terminal) {
          const [x, r] = move(Math.floor(v / (a * p)), Math.floor(v / p) % a, reflect);
          return (x * a + r) * p + (v % p);
        }
        const [x, r] = move(Math.floor((v - terminals) / a), (v - terminals) % a, reflect);
        return terminals + x * a + r;
      });
      expect(isAutomorphism(t, map)).toBe(true);
    }
    expect(t.symmetry?.classes).toEqual([{ rank: 0, count: 2 * g * p }, { rank: p, count: 2 * g * p }]);
    for (let rank = 0; rank < terminals; rank++) {
      const r = Math.floor(rank / p) % a;
      expect(profile(t, rank)).toBe(profile(t, Math.min(r, a - 1 - r) * p));
    }
  });
  it('does not claim all terminals equivalent: in the maximal dragonfly routers 0 and 1 differ', () => {
    // Two-global-hop paths through a third group depend on the router, so the profiles differ.
    const t = dragonfly({ a: 4, p: 1, h: 2, g: 9 });
    expect(profile(t, 1)).not.toBe(profile(t, 0));
    expect(t.symmetry?.classes).toHaveLength(2);
  });
  it('refuses unbalanced or impossible group counts', () => {
    expect(() => buildTopology('dragonfly:a=4,h=2,g=10')).toThrow(/dragonfly.g: got 10; accepted: at most a·h \+ 1 = 9/);
    expect(() => buildTopology('dragonfly:a=4,h=2,g=4')).toThrow(/g − 1 dividing a·h = 8/);
    expect(() => buildTopology('dragonfly:a=4')).toThrow(/topology.h/);
  });
});

describe("dragonfly wiring=booksim: BookSim's input port numbers (dragonflynew, dragonfly.cpp _BuildNet @ 28f43299)", () => {
  it('each input port reads the channel BookSim wires there: terminals, local inputs, then global inputs', async () => {
    const { familyOf } = await import('../../src/index.js');
    for (const p of [1, 2, 3]) {
      const t = buildTopology(`dragonfly:h=${p},wiring=booksim`);
      const ports = familyOf(t)!.booksimPorts!(t);
      const a = 2 * p;
      const nps = 3 * p - 1; // BookSim's _num_ports_per_switch = _k − _p, router radix 4p − 1
      const T = t.numEndpoints;
      for (let node = 0; node < t.numNodes - T; node++) {
        const grp = Math.floor(node / a);
        const dim = node % a;
        // BookSim's _input channel ids, in the order it adds them; channel id / nps is the source router.
        const inputs: number[] = [];
        for (let cnt = 0; cnt < 2 * p - 1; cnt++) {
          inputs.push(cnt < dim ? grp * nps * a - (dim - cnt) * nps + dim * nps + (dim - 1) : grp * nps * a + dim * nps + (cnt - dim + 1) * nps + dim);
        }
        for (let cnt = 0; cnt < p; cnt++) {
          const out = dim * p + cnt;
          inputs.push(
            grp > out
              ? out * nps * a + (nps - p) * Math.floor((grp - 1) / p) + (nps - p) + grp - 1
              : (out + 1) * nps * a + (nps - p) * Math.floor(grp / p) + (nps - p) + grp,
          );
        }
        const byPort = new Map<number, number>();
        for (let i = t.inStart[T + node]; i < t.inStart[T + node + 1]; i++) byPort.set(ports.inPort[t.inChannels[i]], t.inChannels[i]);
        for (let j = 0; j < p; j++) expect(t.className(byPort.get(j)!), `router ${node} port ${j}`).toBe('terminal');
        inputs.forEach((id, j) => expect(t.chSrc[byPort.get(p + j)!] - T, `p ${p} router ${node} port ${p + j}`).toBe(Math.floor(id / nps)));
      }
    }
  });
});
