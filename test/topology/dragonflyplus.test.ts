import { describe, expect, it } from 'vitest';
import { buildTopology, distanceSummary, dragonflyPlus } from '../../src/topology/index.js';
import { resolveRouting } from '../../src/routing/index.js';
import { assertConsistent, countKinds, rankDistances } from './graph-checks.js';

describe('dragonflyplus (Dragonfly+ / Megafly)', () => {
  it('defaults to the balanced radix-2h router: h leaves, h spines, h terminals per leaf, h²+1 groups', () => {
    // Shpiner et al. (HOTI'17): groups joined all-to-all through spines, so g = spines·h + 1 and the
    // system holds leaves·p·g = h²(h²+1) terminals with radix-2h routers (h = 4: 272).
    const t = buildTopology('dragonflyplus:h=4');
    assertConsistent(t);
    expect(t.params).toMatchObject({ h: 4, spines: 4, leaves: 4, p: 4, g: 17, linksPerGroupPair: 1 });
    expect(countKinds(t)).toEqual({ terminals: 272, switches: 17 * 8 });
    // Leaf: p terminals + spines up; spine: leaves down + h global.
    for (let v = 272; v < 272 + 17 * 8; v++) expect(t.outDegree(v)).toBe(8);
  });
  it('answers to its documented aliases, dragonfly+ and megafly (docs/topology.md; the spec grammar refused the "+")', () => {
    for (const alias of ['dragonfly+:h=2', 'megafly:h=2', 'Dragonfly+:h=2']) expect(buildTopology(alias).numEndpoints).toBe(buildTopology('dragonflyplus:h=2').numEndpoints);
  });
  it('terminals are 1 switch apart on one leaf, 3 inside a group, 4 between groups (BFS)', () => {
    const t = dragonflyPlus({ h: 2, spines: 2, leaves: 3, p: 2, g: 5 });
    assertConsistent(t);
    const d = rankDistances(t, 0);
    const perGroup = 3 * 2;
    for (let r = 1; r < t.numEndpoints; r++) {
      const expected = Math.floor(r / 2) === 0 ? 1 : Math.floor(r / perGroup) === 0 ? 3 : 4;
      expect(d[r]).toBe(expected);
    }
    // Mean over distinct pairs from that closed form, against the symmetry method.
    const n = t.numEndpoints;
    const mean = (1 * 1 + 4 * 3 + (n - perGroup) * 4) / (n - 1);
    expect(distanceSummary(t).meanWithoutSelf).toBeCloseTo(mean, 12);
    expect(distanceSummary(t).histogram).toEqual(distanceSummary(t, { method: 'all-pairs' }).histogram);
  });
  it('routes minimally with at most one global channel, deadlock free', () => {
    const t = buildTopology('dragonflyplus:h=2');
    const routing = resolveRouting(t);
    expect(routing.deadlockFree).toBe(true);
  });
  it('refuses group counts that leave unequal links between groups', () => {
    expect(() => buildTopology('dragonflyplus:h=2,g=4')).toThrow(/g − 1 dividing spines·h = 4/);
    expect(() => buildTopology('dragonflyplus:h=2,g=6')).toThrow(/at most spines·h \+ 1 = 5/);
  });
});
