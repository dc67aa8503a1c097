import { describe, expect, it } from 'vitest';
import {
  buildTopology,
  computeMetrics,
  distanceSummary,
  findFamily,
  listFamilies,
  mesh,
  NodeKind,
  productHistogram,
  randomDigraph,
  torus,
  TopologyBuilder,
  type Topology,
} from '../../../src/topology/index.js';

const allPairs = (t: Topology) => distanceSummary(t, { method: 'all-pairs' });

/** A directed ring built by hand, so the directed case is covered whatever families exist. */
function directedRing(n: number): Topology {
  const b = new TopologyBuilder();
  b.addNodes(NodeKind.Terminal, n);
  for (let v = 0; v < n; v++) b.addChannel(v, (v + 1) % n, 'ring');
  return b.build({ family: 'test-uring', spec: `test-uring:${n}`, params: {}, distanceConvention: 'router-hops' });
}

describe('BFS distances against closed forms', () => {
  // Mean distance over N² ordered pairs of a k-ring is ⌊k²/4⌋/k (k/4 for even k), of a k-path
  // (k²−1)/(3k); a product adds its dimensions' means (Dally & Towles §3.3, seed 004 spec §3.5).
  const ringMean = (k: number) => (k <= 2 ? (k - 1) / k : Math.floor((k * k) / 4) / k);
  const pathMean = (k: number) => (k * k - 1) / (3 * k);

  it('torus mean distance is the sum of per-ring means', () => {
    for (const dims of [[8, 8], [5, 4], [3, 3, 3], [6, 2, 7], [2, 2]]) {
      const d = allPairs(torus(dims));
      expect(d.meanWithSelf).toBeCloseTo(dims.reduce((s, k) => s + ringMean(k), 0), 12);
      expect(d.diameter).toBe(dims.reduce((s, k) => s + Math.floor(k / 2), 0));
    }
  });
  it('mesh mean distance is the sum of (k²−1)/(3k)', () => {
    for (const dims of [[8, 8], [5, 4], [3, 2, 4], [7]]) {
      const d = allPairs(mesh(dims));
      expect(d.meanWithSelf).toBeCloseTo(dims.reduce((s, k) => s + pathMean(k), 0), 12);
      expect(d.diameter).toBe(dims.reduce((s, k) => s + k - 1, 0));
    }
  });
  it('the without-self mean rescales by N/(N−1)', () => {
    const d = allPairs(torus([4, 6]));
    expect(d.meanWithoutSelf).toBeCloseTo((d.meanWithSelf * 24) / 23, 12);
  });
  it('a hypercube of dimension D has mean D/2 and diameter D', () => {
    for (const D of [1, 3, 5]) {
      // The binary D-cube is the mesh 2x2x...x2: both must agree with the formula.
      for (const cube of [buildTopology(`hypercube:${D}`), mesh(new Array(D).fill(2))]) {
        const d = allPairs(cube);
        expect(d.meanWithSelf).toBeCloseTo(D / 2, 12);
        expect(d.diameter).toBe(D);
      }
    }
  });
  it('a bidirectional ring of N has mean ⌊N²/4⌋/N', () => {
    for (const n of [5, 8, 9]) {
      for (const ring of [buildTopology(`ring:${n}`), torus([n])]) expect(allPairs(ring).meanWithSelf).toBeCloseTo(ringMean(n), 12);
    }
  });
  it('a directed ring is asymmetric: every distance 0..N−1 occurs N times, mean (N−1)/2', () => {
    const d = allPairs(directedRing(7));
    expect(d.histogram).toEqual(new Array(7).fill(7));
    expect(d.meanWithSelf).toBe(3);
    expect(allPairs(buildTopology('uring:7')).histogram).toEqual(d.histogram);
  });
  it('counts unreachable pairs and leaves them out of the means', () => {
    const b = new TopologyBuilder();
    b.addNodes(NodeKind.Terminal, 4);
    b.addLink(0, 1, 'a');
    b.addLink(2, 3, 'a');
    const d = allPairs(b.build({ family: 'pairs', spec: 'pairs', params: {}, distanceConvention: 'router-hops' }));
    expect(d.unreachablePairs).toBe(8);
    expect(d.histogram).toEqual([4, 4]);
    expect(d.meanWithSelf).toBe(0.5);
    expect(d.meanWithoutSelf).toBe(1);
  });
  it('counts switches traversed between terminals in indirect networks', () => {
    // Two leaf switches with two hosts each, joined by one spine: hosts on one leaf are 1 switch
    // apart, hosts on different leaves 3 (leaf, spine, leaf).
    const b = new TopologyBuilder();
    const hosts = b.addNodes(NodeKind.Terminal, 4);
    const leaves = b.addNodes(NodeKind.Switch, 2);
    const spine = b.addNode(NodeKind.Switch);
    for (let h = 0; h < 4; h++) b.addLink(hosts + h, leaves + (h >> 1), 'up', 'down');
    b.addLink(leaves, spine, 'up', 'down');
    b.addLink(leaves + 1, spine, 'up', 'down');
    const d = allPairs(b.build({ family: 'tiny-tree', spec: 'tiny-tree', params: {}, distanceConvention: 'switches-traversed' }));
    expect(d.histogram).toEqual([4, 4, 0, 8]);
    expect(d.diameter).toBe(3);
    expect(d.meanWithoutSelf).toBeCloseTo((4 * 1 + 8 * 3) / 12, 12);
  });
});

describe('product method', () => {
  it('equals all-pairs BFS on meshes and tori of mixed radices, k = 1 and 2 included', () => {
    for (const dims of [[4, 4], [5, 3], [2, 3, 4], [1, 6], [7], [2, 2, 2], [3, 1, 3]]) {
      for (const t of [mesh(dims), torus(dims)]) {
        const exact = allPairs(t);
        const product = distanceSummary(t, { method: 'product' });
        expect(product.method).toBe('product');
        expect(product.histogram).toEqual(exact.histogram);
        expect(product.meanWithSelf).toBe(exact.meanWithSelf);
      }
    }
  });
  it('is what auto picks for tori and meshes, and covers a 1024×512 mesh without search', () => {
    expect(distanceSummary(torus([4, 4])).method).toBe('product');
    // Seed 004 spec §3.5: the exact mean of the 1024×512 mesh is Σ(k²−1)/(3k) ≈ 512.0.
    const h = productHistogram({ dims: [1024, 512], wrap: false });
    const pairs = h.reduce((a, b) => a + b, 0);
    const mean = h.reduce((s, c, d) => s + c * d, 0) / pairs;
    expect(pairs).toBe(524288 ** 2);
    expect(mean).toBeCloseTo((1024 ** 2 - 1) / 3072 + (512 ** 2 - 1) / 1536, 9);
  });
  it('refuses the product method for a graph that is not a product', () => {
    expect(() => distanceSummary(directedRing(5), { method: 'product' })).toThrow(/method/);
  });
});

/**
 * Small instances of every family, by the spec grammar of issue 2. Every registered family must
 * appear here and every family here must be registered, so no family can skip the check.
 */
const SMALL_SPECS: Record<string, string[]> = {
  torus: ['torus:4x4', 'torus:3x5x2', 'torus:6'],
  mesh: ['mesh:4x3', 'mesh:2x2x3'],
  ring: ['ring:7', 'ring:8'],
  uring: ['uring:6'],
  hypercube: ['hypercube:4'],
  fullmesh: ['fullmesh:6'],
  fattree: ['fattree:k=2,levels=3', 'fattree:k=4,levels=2'],
  twolevel: ['twolevel:leaves=4,hosts=3,spines=2,uplinks=2'],
  omega: ['omega:8', 'omega:16'],
  fly: ['fly:k=2,n=3', 'fly:k=3,n=2', 'fly:k=4,n=1'],
  dce: ['dce:n=3,delta=1', 'dce:n=3,delta=0', 'dce:n=3,delta=1,extra-stage=a', 'dce:n=3,delta=0,extra-stage=b'],
  cbanyan: ['cbanyan:4'],
  ccc: ['ccc:4'],
  mdce: ['mdce:B=1,C=1,P=1,n=3', 'mdce:B=2,C=0,P=1,n=3', 'mdce:B=0,C=2,P=1,n=2'],
  dragonfly: ['dragonfly:a=4,p=2,h=2,g=9'],
  hyperx: ['hyperx:3x4,p=2', 'hyperx:2x3x2,k=2'],
  flatfly: ['flatfly:k=3,n=2,c=2'],
  cmesh: ['cmesh:k=4', 'cmesh:k=6'],
  slimfly: ['slimfly:q=5,p=2', 'slimfly:q=7,p=1', 'slimfly:q=4,p=1'],
  polarfly: ['polarfly:q=3,p=2', 'polarfly:q=4'],
  dragonflyplus: ['dragonflyplus:h=2', 'dragonflyplus:h=2,leaves=3,p=1,g=3'],
  jellyfish: ['jellyfish:routers=12,degree=3,p=2,seed=5'],
  comega: ['comega:4', 'comega:5', 'comega:3,reading=dce'],
  fabric: ['fabric:gpus=4,nodes=3,planes=2,links=4,nics=2', 'fabric:gpus=3,nodes=4,scaleup=mesh,links=2,nics=1,rail=leafspine,leafhosts=2,spines=2,railplanes=2'],
  'hgx-h100': ['hgx-h100', 'hgx-h100:nodes=2'],
  'hgx-a100': ['hgx-a100', 'hgx-a100:nodes=2'],
  mi300x: ['mi300x', 'mi300x:nodes=2'],
  'gb200-nvl72': ['gb200-nvl72'],
  tpu: ['tpu:2x2x4,twist=on', 'tpu:3x3x3', 'tpu:2x4x4,twist=on'],
  'simgrid-fattree': ['simgrid-fattree:levels=2,down=4x4,up=1x2,links=1x2', 'simgrid-fattree:levels=3,down=4x2x4,up=1x2x2,links=1x2x1'],
  'simgrid-dragonfly': ['simgrid-dragonfly:groups=3,chassis=2,routers=3,nodes=2,blue=2'],
  'simgrid-flat': ['simgrid-flat:hosts=5', 'simgrid-flat:hosts=4,bb_bw=1GBps,bb_lat=1us,sharing=shared,limiter=2GBps'],
  astra: ['astra:topology=Ring_Switch,npus=3x2,bandwidth=1x2,latency=1x1', 'astra:topology=FullyConnected_Ring_Switch,npus=2x3x2,bandwidth=1x1x1,latency=1x1x1'],
};
/** Families with no fixed small instance (custom graphs from a file). */
const NOT_GENERATED = /^(file|custom|json|yaml)$/;

describe('symmetry shortcut equals all-pairs BFS', () => {
  it('has small instances for every registered family', () => {
    for (const family of listFamilies()) {
      if (NOT_GENERATED.test(family.name)) continue;
      const names = [family.name, ...(family.aliases ?? [])];
      expect(names.some((n) => n in SMALL_SPECS), `no small specs for family ${family.name}`).toBe(true);
    }
  });
  it('every family with small specs is registered (none is skipped)', () => {
    for (const family of Object.keys(SMALL_SPECS)) expect(findFamily(family), family).toBeDefined();
  });
  for (const [family, specs] of Object.entries(SMALL_SPECS)) {
    it(`${family}: declared source classes give the all-pairs histogram`, () => {
      for (const spec of specs) {
        const t = buildTopology(spec);
        const exact = allPairs(t);
        if (t.symmetry) {
          const fast = distanceSummary(t, { method: 'symmetry' });
          expect(fast.histogram, spec).toEqual(exact.histogram);
          expect(fast.searches).toBe(t.symmetry.classes.length);
        }
        const auto = distanceSummary(t);
        expect(auto.exact).toBe(true);
        expect(auto.histogram, spec).toEqual(exact.histogram);
      }
    });
  }
  it('a remapped rank order keeps the same symmetric result', () => {
    const t = torus([4, 3]);
    const reversed = t.withRankOrder(Int32Array.from({ length: 12 }, (_, r) => 11 - r), 'reverse');
    expect(distanceSummary(reversed, { method: 'symmetry' }).histogram).toEqual(allPairs(t).histogram);
  });
});

describe('sampled estimate', () => {
  it('states a 95% interval that contains the exact mean of a mid-size random graph', () => {
    const g = randomDigraph(1500, 3, 7);
    const exact = allPairs(g);
    for (const seed of [1, 2, 3]) {
      const est = distanceSummary(g, { method: 'sampled', samples: 60, seed });
      expect(est.exact).toBe(false);
      expect(est.searches).toBe(60);
      const [lo, hi] = est.interval!.meanWithSelf;
      expect(lo).toBeLessThan(exact.meanWithSelf);
      expect(hi).toBeGreaterThan(exact.meanWithSelf);
      const [lo2, hi2] = est.interval!.meanWithoutSelf;
      expect(lo2).toBeLessThan(exact.meanWithoutSelf);
      expect(hi2).toBeGreaterThan(exact.meanWithoutSelf);
      expect(hi - lo).toBeLessThan(0.2);
      expect(est.diameter).toBeLessThanOrEqual(exact.diameter);
    }
  });
  it('is deterministic for a seed and is what auto picks beyond the all-pairs budget', () => {
    const g = randomDigraph(300, 2, 3);
    const a = distanceSummary(g, { method: 'sampled', samples: 20, seed: 5 });
    expect(distanceSummary(g, { method: 'sampled', samples: 20, seed: 5 })).toEqual(a);
    expect(distanceSummary(g, { method: 'sampled', samples: 20, seed: 6 }).meanWithSelf).not.toBe(a.meanWithSelf);
    expect(distanceSummary(g).method).toBe('all-pairs');
    // 40,000 endpoints × 160,000 channels = 6.4e9 edge visits > 2^32: auto samples, 256 sources.
    const big = distanceSummary(randomDigraph(40000, 4, 1));
    expect(big.method).toBe('sampled');
    expect(big.searches).toBe(256);
    expect(big.interval!.meanWithSelf[0]).toBeLessThan(big.meanWithSelf);
  });
  it('rejects bad sampling options', () => {
    const g = randomDigraph(50, 2, 1);
    expect(() => distanceSummary(g, { method: 'sampled', samples: 1 })).toThrow(/samples/);
    expect(() => distanceSummary(g, { method: 'sampled', seed: -1 })).toThrow(/seed/);
    expect(() => distanceSummary(g, { method: 'nonsense' as never })).toThrow(/method/);
  });
});

describe('computeMetrics', () => {
  it('reports counts and degrees', () => {
    const m = computeMetrics(mesh([4, 3]));
    expect([m.nodes, m.terminals, m.switches, m.channels]).toEqual([12, 12, 0, 2 * 3 * 3 + 2 * 4 * 2]);
    expect(m.degree).toEqual({ in: { min: 2, max: 4 }, out: { min: 2, max: 4 } });
    expect(m.switchDegree).toBeUndefined();
  });
});
