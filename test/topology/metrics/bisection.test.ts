import { describe, expect, it } from 'vitest';
import { bisection, buildTopology, cutOf, mesh, randomDigraph, torus, type Topology } from '../../../src/topology/index.js';
import { topologyFromDocument } from '../../../src/index.js';

/**
 * Exhaustive bisection of a direct network (every node an endpoint): the fewest channels across any
 * split into ⌊N/2⌋ and ⌈N/2⌉ nodes. Node 0 is fixed on side 0 (the cut is symmetric in the sides).
 */
function bruteForceBisection(t: Topology): number {
  const n = t.numNodes;
  const side = new Uint8Array(n);
  let best = Infinity;
  const half = Math.floor(n / 2);
  const choose = (next: number, left: number): void => {
    if (left === 0) {
      best = Math.min(best, cutOf(t, side).channels);
      return;
    }
    for (let v = next; v <= n - left; v++) {
      side[v] = 1;
      choose(v + 1, left - 1);
      side[v] = 0;
    }
  };
  // Side 1 gets ⌊N/2⌋ nodes drawn from 1..N−1 (for odd N also try side 1 containing the larger half
  // by symmetry: the complement of a ⌊N/2⌋ set containing node 0 — covered since node 0 stays on 0).
  choose(1, half);
  if (n % 2 === 1) choose(1, half + 1);
  return best;
}

/**
 * Exhaustive bisection with switches: every side assignment of all nodes whose endpoints split
 * ⌊E/2⌋ / ⌈E/2⌉ (node 0 fixed on side 0). For graphs of up to about 20 nodes.
 */
function bruteForceWithSwitches(t: Topology): number {
  const n = t.numNodes;
  const side = new Uint8Array(n);
  const e = t.numEndpoints;
  let best = Infinity;
  for (let mask = 0; mask < 2 ** (n - 1); mask++) {
    let ones = 0;
    for (let v = 1; v < n; v++) {
      side[v] = (mask >> (v - 1)) & 1;
      if (side[v] === 1 && t.rankOfNode[v] >= 0) ones++;
    }
    if (ones !== Math.floor(e / 2) && ones !== Math.ceil(e / 2)) continue;
    best = Math.min(best, cutOf(t, side).channels);
  }
  return best;
}

describe('bisection width', () => {
  it('fat tree: N/2 terminal links, equal to exhaustive search', () => {
    for (const spec of ['fattree:k=2,levels=2', 'fattree:k=2,levels=3', 'fattree:k=4,levels=1', 'fattree:k=2,levels=10']) {
      const t = buildTopology(spec);
      const b = bisection(t);
      expect(b.exact, spec).toBe(true);
      expect(b.links, spec).toBe(t.numEndpoints / 2);
      if (t.numNodes <= 20) expect(b.channels, spec).toBe(bruteForceWithSwitches(t));
    }
  });
  it('two-level: min(hosts, uplinks) × leaves / 2, equal to exhaustive search', () => {
    for (const [S, m, K, U] of [[2, 2, 2, 2], [4, 2, 2, 2], [4, 3, 2, 2], [4, 1, 2, 2], [2, 3, 1, 1], [2, 2, 2, 4]]) {
      const t = buildTopology(`twolevel:leaves=${S},hosts=${m},spines=${K},uplinks=${U}`);
      const b = bisection(t);
      expect(b.exact).toBe(true);
      expect(b.links).toBe((S * Math.min(m, U)) / 2);
      expect(b.channels).toBe(bruteForceWithSwitches(t));
    }
  });
  it('a graph of up to 20 nodes without a closed form is searched exhaustively: exact, equal to the brute force here', () => {
    for (const [n, seed] of [[12, 8], [16, 3], [20, 5]]) {
      const t = randomDigraph(n, 2, seed);
      const b = bisection(t);
      expect(b).toMatchObject({ exact: true, method: expect.stringMatching(/^exhaustive search/) });
      if (n <= 16) expect(b.channels).toBe(bruteForceWithSwitches(t));
    }
    // dragonfly:h=1 (12 nodes, no closed form) and a triangle whose one link is doubled: the greedy
    // bound found 3 channels there, the optimum cuts the two single links' 2.
    const dragonfly = buildTopology('dragonfly:h=1');
    expect(bisection(dragonfly).channels).toBe(bruteForceWithSwitches(dragonfly));
    const triangle = topologyFromDocument({ format: 'meshwork-topology', version: 1, nodes: 3, links: [{ src: 0, dst: 1 }, { src: 0, dst: 1 }, { src: 1, dst: 2 }, { src: 2, dst: 0 }] }, { name: 'triangle.json' });
    expect(bisection(triangle)).toMatchObject({ exact: true, channels: bruteForceBisection(triangle) });
  });
  it('above 20 nodes the bound is labelled an upper bound, no better than the exact width', () => {
    const t = randomDigraph(22, 2, 8);
    expect(bisection(t)).toMatchObject({ exact: false, method: expect.stringMatching(/^upper bound/) });
  });
  it('closed forms equal exhaustive search on small meshes and tori', () => {
    for (const t of [mesh([4, 3]), mesh([4, 4]), mesh([2, 2, 4]), mesh([6, 3]), torus([4, 4]), torus([4, 3]), torus([6, 2]), torus([4, 2, 2]), torus([8])]) {
      const b = bisection(t);
      expect(b.exact, t.spec).toBe(true);
      expect(b.channels, t.spec).toBe(bruteForceBisection(t));
    }
  });
  it('matches the textbook values: k-ary n-cube torus 2k^(n−1) links, mesh k^(n−1), hypercube N/2', () => {
    expect(bisection(torus([8, 8, 8])).links).toBe(2 * 64);
    expect(bisection(mesh([8, 8, 8])).links).toBe(64);
    expect(bisection(mesh([2, 2, 2, 2, 2, 2])).links).toBe(32);
    expect(bisection(buildTopology('hypercube:6'))).toMatchObject({ links: 32, exact: true });
    expect(bisection(buildTopology('ring:10'))).toMatchObject({ links: 2, exact: true });
    // Complete graph K_N: (N/2)² links across any balanced split.
    expect(bisection(buildTopology('fullmesh:8'))).toMatchObject({ links: 16, exact: true });
  });
  it('odd meshes and tori of up to 20 nodes are exact by exhaustive search; above, a heuristic partition is labelled an upper bound, never below the true width', () => {
    for (const t of [mesh([5, 3]), torus([5, 3]), randomDigraph(14, 2, 4)]) {
      expect(bisection(t)).toMatchObject({ exact: true, channels: bruteForceBisection(t) });
    }
    for (const t of [mesh([7, 3]), torus([7, 3])]) {
      const b = bisection(t);
      expect(b.exact).toBe(false);
      expect(b.method).toMatch(/upper bound/);
      expect(b.channels).toBeGreaterThanOrEqual(bruteForceBisection(t));
    }
  });
  it('the bound is tight on an odd mesh, where refinement finds the staircase cut', () => {
    const t = mesh([7, 3]);
    expect(bisection(t).channels).toBe(bruteForceBisection(t));
  });
});
