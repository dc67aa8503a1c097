import { describe, expect, it } from 'vitest';
import {
  Rng,
  buildTopology,
  dimensionOrderRouting,
  makePattern,
  patternNames,
  registerPattern,
  simulateTraffic,
  makeRouteBuffers,
  mdceRouting,
  presetConfig,
  torus,
} from '../../../src/index.js';
import { runFixedHorizon } from '../../../src/sim/packet/measure.js';
import { PacketNetwork } from '../../../src/sim/packet/network.js';
import { quarterPartition } from '../../../src/sim/traffic/patterns.js';
import { MeshEmulationSource } from '../../../src/sim/traffic/sources.js';

const t88 = torus([8, 8]);
const rng = new Rng(1);

/** How often each destination of `src` is drawn over `draws` packets. */
function histogram(pattern: ReturnType<typeof makePattern>, src: number, draws: number, seed = 7): Map<number, number> {
  const r = new Rng(seed);
  const counts = new Map<number, number>();
  for (let i = 0; i < draws; i++) {
    const d = pattern.dest(src, r);
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  return counts;
}

describe("BookSim's random patterns beside uniform (traffic.cpp)", () => {
  const draws = 30_000;
  it('diagonal: a third to rank + 1 (RandomInt(2) == 0), the rest to the source', () => {
    const h = histogram(makePattern('diagonal', t88), 63, draws);
    expect([...h.keys()].sort((a, b) => a - b)).toEqual([0, 63]);
    expect(h.get(0)! / draws).toBeCloseTo(1 / 3, 1);
  });
  it('asymmetric: s mod N/2 in either half', () => {
    const h = histogram(makePattern('asymmetric', t88), 45, draws);
    expect([...h.keys()].sort((a, b) => a - b)).toEqual([13, 45]);
    expect(h.get(13)! / draws).toBeCloseTo(0.5, 1);
  });
  it('taper64: half within ±8 ± 1 of the source (mod 64), half uniform; 64 terminals only', () => {
    const h = histogram(makePattern('taper64', t88), 0, draws);
    const near = [0, 1, 63, 8, 9, 7, 56, 57, 55];
    const nearShare = near.reduce((a, d) => a + (h.get(d) ?? 0), 0) / draws;
    // 1/2 near, plus the uniform half's 9/64 of the same nodes.
    expect(nearShare).toBeCloseTo(0.5 + 0.5 * (9 / 64), 1);
    expect(h.size).toBe(64);
    expect(() => makePattern('taper64', torus([4, 4]))).toThrow(/exactly 64 terminals/);
  });
  it('bad-dragon: every packet to the next group (BookSim groups of 2k·k; a dragonfly its a·p)', () => {
    const df = buildTopology('dragonfly:h=2,wiring=booksim');
    // h = 2: groups of a·p = 4 routers × 2 terminals, BookSim's 2k·k at k = 2.
    const group = 8;
    for (const src of [0, 15, 70]) {
      const next = (Math.floor(src / group) + 1) % (df.numEndpoints / group);
      const h = histogram(makePattern('bad-dragon', df), src, 4000);
      expect([...h.keys()].every((d) => Math.floor(d / group) === next)).toBe(true);
      expect(h.size).toBe(group);
    }
    expect(makePattern('bad-dragon', t88, { digits: { k: 2 } }).params).toEqual({ group: 8 });
    expect(() => makePattern('bad-dragon', t88)).toThrow(/a dragonfly, or digits\.k/);
  });
  it('badperm-yarc: a random row of the source\'s column s / (xr·k)', () => {
    const h = histogram(makePattern('badperm-yarc', t88), 8 * 5 + 3, 4000);
    expect([...h.keys()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((row) => row * 8 + 5));
  });
  it('background: uniform over the ranks not excluded, self included', () => {
    const h = histogram(makePattern('background', t88, { exclude: [27, 28, 35, 36] }), 27, draws);
    expect(h.size).toBe(60);
    expect([27, 28, 35, 36].some((d) => h.has(d))).toBe(false);
    expect(() => makePattern('background', t88, { exclude: [64] })).toThrow(/exclude: got 64/);
  });
  it('hotspot with several hot ranks picks one by weight', () => {
    const h = histogram(makePattern('hotspot', t88, { hotRanks: [0, 63], hotWeights: [3, 1], hotFraction: 1 }), 5, draws);
    expect([...h.keys()].sort((a, b) => a - b)).toEqual([0, 63]);
    expect(h.get(0)! / draws).toBeCloseTo(0.75, 1);
    expect(() => makePattern('hotspot', t88, { hotRanks: [0, 63], hotWeights: [1] })).toThrow(/hotWeights: got "1"; accepted: 2 positive integer weights/);
  });
});

describe('BookSim traffic patterns (traffic.cpp definitions)', () => {
  it('bitrev, transpose, shuffle on 6 address bits', () => {
    // 0b000011 = 3: bit-reversed 0b110000 = 48; transpose swaps halves -> 0b011000 = 24; shuffle rotates left -> 6.
    expect(makePattern('bitrev', t88).dest(3, rng)).toBe(48);
    expect(makePattern('transpose', t88).dest(3, rng)).toBe(24);
    expect(makePattern('shuffle', t88).dest(3, rng)).toBe(6);
    expect(makePattern('shuffle', t88).dest(32, rng)).toBe(1);
    // bitcomp (BitCompTrafficPattern): ~3 & 63 = 60.
    expect(makePattern('bitcomp', t88).dest(3, rng)).toBe(60);
    expect(makePattern('bitcomp', t88).dest(63, rng)).toBe(0);
  });
  it('tornado shifts each coordinate by ceil(k/2) − 1, neighbor by 1', () => {
    // (1, 2) on k = 8: tornado -> (4, 5) = 44; neighbor -> (2, 3) = 26.
    expect(makePattern('tornado', t88).dest(1 + 8 * 2, rng)).toBe(4 + 8 * 5);
    expect(makePattern('neighbor', t88).dest(1 + 8 * 2, rng)).toBe(2 + 8 * 3);
  });
  it("tornado and neighbor with xr read digits of radix xr·k (BookSim's flatfly and cmesh terminal grids)", () => {
    // 64 terminals as two 8-ary digits (k = 4, xr = 2): (1, 2) -> tornado (4, 5), neighbor (2, 3); every one moves.
    const ff = buildTopology('flatfly:k=4,n=2,c=4,x=4,xr=2,yr=2,numbering=tiles');
    const tornado = makePattern('tornado', ff, { digits: { xr: 2 } });
    expect(tornado.dest(1 + 8 * 2, rng)).toBe(4 + 8 * 5);
    expect(makePattern('neighbor', ff, { digits: { xr: 2 } }).dest(7 + 8 * 7, rng)).toBe(0);
    expect(new Set(Array.from({ length: 64 }, (_, s) => tornado.dest(s, rng))).size).toBe(64);
    // Without xr the digits are 4-ary and only ranks below 16 are reached, as BookSim's tornado(4,2,1).
    expect(Math.max(...Array.from({ length: 64 }, (_, s) => makePattern('tornado', ff).dest(s, rng)))).toBe(15);
    // BookSim's own k and n may differ from the network's: tornado(4,3,1) on 64 torus nodes is three 4-ary digits, each + 1.
    expect(makePattern('tornado', t88, { digits: { k: 4, n: 3 } }).dest(1 + 4 * 2 + 16 * 3, rng)).toBe(2 + 4 * 3 + 16 * 0);
    // Only xr given (--xr): it is the value named; with k or n given, the digits are.
    expect(() => makePattern('tornado', t88, { digits: { xr: 2 } })).toThrow(/^xr: got 2; accepted: \(xr·k\)\^n <= 64, the terminals, with k=8 and n=2/);
    expect(() => makePattern('tornado', t88, { digits: { k: 8, xr: 2 } })).toThrow(/^digits: got "k=8,n=2,xr=2"; accepted: \(xr·k\)\^n <= 64/);
  });
  it("tornado and neighbor on a k-ary n-tree and a k-ary n-fly read n k-ary digits, BookSim's gK and gN (one 64-ary digit before)", () => {
    for (const spec of ['fattree:k=4,levels=3', 'fly:k=4,n=3']) {
      const t = buildTopology(spec);
      // (1, 2, 3) -> tornado: every digit + 1 -> (2, 3, 0); the same as BookSim's tornado(4,3,1) named.
      expect(makePattern('tornado', t).dest(1 + 4 * 2 + 16 * 3, rng), spec).toBe(2 + 4 * 3);
      expect(makePattern('tornado', t).params, spec).toMatchObject({ k: 4, n: 3, shift: 1 });
      expect(makePattern('neighbor', t).dest(3 + 4 * 3 + 16 * 3, rng), spec).toBe(0);
    }
  });
  it('randperm is a permutation', () => {
    const p = makePattern('randperm', t88, { permSeed: 5 });
    const seen = new Set(Array.from({ length: 64 }, (_, s) => p.dest(s, rng)));
    expect(seen.size).toBe(64);
  });
  it('uniform includes self (1/N), random excludes it', () => {
    const u = makePattern('uniform', t88);
    const r = makePattern('random', t88);
    let selfU = 0;
    for (let i = 0; i < 64000; i++) {
      if (u.dest(5, rng) === 5) selfU++;
      expect(r.dest(5, rng)).not.toBe(5);
    }
    expect(selfU / 64000).toBeGreaterThan(0.8 / 64);
    expect(selfU / 64000).toBeLessThan(1.2 / 64);
  });
});

describe("seed 004's patterns (spec §5.3)", () => {
  const t = torus([32, 32]);
  it('quarter keeps destinations in the source quarter by address', () => {
    const q = makePattern('quarter', t);
    for (let i = 0; i < 2000; i++) {
      const s = i % 1024;
      const d = q.dest(s, rng);
      expect(Math.floor(d / 256)).toBe(Math.floor(s / 256));
      expect(d).not.toBe(s);
    }
  });
  it('hot spot sends 5 % of packets to the hot PE (plus its uniform share)', () => {
    const h = makePattern('hotspot', t, { hotRank: 100 });
    let hot = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) if (h.dest(i % 1024 === 100 ? 0 : i % 1024, rng) === 100) hot++;
    const expected = 0.05 + 0.95 / 1023;
    expect(Math.abs(hot / n - expected)).toBeLessThan(0.004);
  });
  it('localized offsets have mean magnitude about half the coordinate maximum before wrapping', () => {
    const l = makePattern('localized', torus([1024]));
    // k = 1024: exponential offsets with mean 511.5, floored, random sign, wrapped: the mean ring distance
    // of E ~ Exp(511.5) folded on a ring of 1024 is below 511.5 but well above a uniform pick's 256.
    let sum = 0;
    for (let i = 0; i < 20000; i++) {
      const d = l.dest(0, rng);
      sum += Math.min(d, 1024 - d);
    }
    const mean = sum / 20000;
    expect(mean).toBeGreaterThan(200);
    expect(mean).toBeLessThan(300);
  });
  it('localized on one address grid with open edges: same 32x32 coordinates on every network, never across an edge (spec §5.3 [R])', () => {
    const opts = { coordinates: 'address', edges: 'open' } as const;
    const onTorus3 = makePattern('localized', buildTopology('torus:8x8x16'), opts);
    const onMesh = makePattern('localized', buildTopology('mesh:32x32'), opts);
    expect(onTorus3.params.coordinates).toBe('address as 32x32');
    expect(onMesh.params.coordinates).toBe('address as 32x32');
    // The same seed gives the same partners on both networks: one coordinate system.
    const a = new Rng(7);
    const b = new Rng(7);
    let maxDx = 0;
    for (let i = 0; i < 5000; i++) {
      const d = onMesh.dest(0, a);
      expect(onTorus3.dest(0, b)).toBe(d);
      // From the corner (0, 0) every partner has x, y >= 0 without wrapping: |dx| = x.
      maxDx = Math.max(maxDx, d % 32);
    }
    // Offsets reach across most of the grid (mean 15.5) but never wrap to the far edge as -1 would.
    expect(maxDx).toBeGreaterThan(25);
    // Under wrap, about half the corner's partners lie "behind" it and land at x >= 16 far more often.
    const wrapped = makePattern('localized', buildTopology('mesh:32x32'), { coordinates: 'address', edges: 'wrap' });
    const c = new Rng(7);
    let far = 0;
    let farOpen = 0;
    const o = new Rng(8);
    for (let i = 0; i < 5000; i++) {
      if (wrapped.dest(0, c) % 32 >= 24) far++;
      if (onMesh.dest(0, o) % 32 >= 24) farOpen++;
    }
    expect(far).toBeGreaterThan(2 * farOpen);
  });
  it('refuses unknown edges and coordinates naming the accepted values', () => {
    expect(() => makePattern('localized', t88, { edges: 'x' as never })).toThrow(/edges: got "x"; accepted: wrap \| open/);
    expect(() => makePattern('localized', t88, { coordinates: 'x' as never })).toThrow(/coordinates: got "x"; accepted: own \| address/);
  });
});

describe('mesh emulation (closed loop)', () => {
  it('each PE sends 4 packets per round and never runs more than one round ahead of its neighbours', () => {
    const t = torus([4, 4]);
    const cfg = { ...presetConfig('default', t), packetSize: 1 };
    const net = new PacketNetwork(t, dimensionOrderRouting(t), cfg);
    const src = new MeshEmulationSource(16, 1, 1);
    const r = runFixedHorizon(net, src, 3000);
    expect(r.delivered).toBeGreaterThan(16 * 4 * 10);
    // A slower period (rate 0.01 -> period ceil(4/0.01) = 400 cycles) limits rounds to 3000/400 + 1 = 8.
    const net2 = new PacketNetwork(t, dimensionOrderRouting(t), cfg);
    const r2 = runFixedHorizon(net2, new MeshEmulationSource(16, 1, 0.01), 3000);
    expect(r2.delivered).toBeLessThanOrEqual(16 * 4 * 8);
    expect(r2.delivered).toBeGreaterThanOrEqual(16 * 4 * 7);
  });
  it('open edges: edge PEs send to 3 and corners to 2 neighbours, so a 4x4 round is 48 packets, none wrapped', () => {
    const t = buildTopology('mesh:4x4');
    const cfg = { ...presetConfig('default', t), packetSize: 1 };
    const routing = dimensionOrderRouting(t);
    // Rate 0.01: period 400 cycles, so 3000 cycles hold rounds 0..7: 8 rounds of 4·2 + 8·3 + 4·4 = 48 packets.
    const open = runFixedHorizon(new PacketNetwork(t, routing, cfg), new MeshEmulationSource(16, 1, 0.01, 'open'), 3000);
    expect(open.delivered).toBe(8 * 48);
    // Every packet crosses one mesh link (hops counts routers: 2); no wrapped 3-link neighbour.
    expect(open.hops).toBe(2);
    const wrap = runFixedHorizon(new PacketNetwork(t, routing, cfg), new MeshEmulationSource(16, 1, 0.01, 'wrap'), 3000);
    expect(wrap.delivered).toBe(8 * 64);
    // Per dimension 6 of 8 sends go 1 link and the 2 wrapped ones 3 links: mean 1.5 links, 2.5 routers.
    expect(wrap.hops).toBeCloseTo(2.5, 10);
  });
});

describe("seed 004's 1/4 partition on DCE/MDCE: whole rings, split on ring-index bits (spec §2.4)", () => {
  /** Every node visited by the self-routed path from node s to node d. */
  function pathNodes(t: ReturnType<typeof buildTopology>, s: number, d: number): number[] {
    const r = mdceRouting(t);
    const out = makeRouteBuffers(r.maxHops);
    const h = r.route(s, d, 0, out);
    return [s, ...Array.from(out.channels.subarray(0, h), (c) => t.chDst[c])];
  }

  it('(1,1,1)-MDCE n=4: quarter = (MSB of x1, MSB of x2), 256 nodes each, whole rings', () => {
    // Node (x0, x1, x2) has id x0 + 4·(x1 + 16·x2) (ring index x1 + 16·x2, spec §1.4 node set).
    const t = buildTopology('mdce:B=1,C=1,P=1,n=4');
    const part = quarterPartition(t);
    const size = [0, 0, 0, 0];
    for (let v = 0; v < 1024; v++) {
      const x1 = Math.floor(v / 4) % 16;
      const x2 = Math.floor(v / 64);
      expect(part.of(v)).toBe((x1 >> 3) + 2 * (x2 >> 3));
      // A ring (fixed x1, x2; x0 = 0..3) lies in one quarter.
      expect(part.of(v)).toBe(part.of(v - (v % 4)));
      size[part.of(v)]++;
    }
    expect(size).toEqual([256, 256, 256, 256]);
    // Different from the address split (rank div 256 = the two MSBs of x2).
    expect(part.of(8 * 4)).not.toBe(part.of(0));
    expect(Math.floor((8 * 4) / 256)).toBe(0);
  });

  it('each quarter’s traffic stays inside its sub-network under self-routing (MDCE sampled, c-Banyan all pairs)', () => {
    const m = buildTopology('mdce:B=1,C=1,P=1,n=4');
    const q = makePattern('quarter', m);
    expect(q.params.by).toMatch(/ring-index/);
    const partM = quarterPartition(m);
    for (let i = 0; i < 3000; i++) {
      const s = (i * 37) % 1024;
      const d = q.dest(s, rng);
      expect(d).not.toBe(s);
      expect(partM.of(d)).toBe(partM.of(s));
      for (const v of pathNodes(m, s, d)) expect(partM.of(v)).toBe(partM.of(s));
    }
    // c-Banyan n=4 (a DCE, r = 1): quarters by the two MSBs of y = 4 rings of 4 nodes each.
    const cb = buildTopology('cbanyan:4');
    const partC = quarterPartition(cb);
    for (let s = 0; s < 64; s++) {
      expect(partC.of(s)).toBe(Math.floor(s / 4) >> 2);
      for (let d = 0; d < 64; d++) {
        if (partC.of(d) !== partC.of(s)) continue;
        for (const v of pathNodes(cb, s, d)) expect(partC.of(v)).toBe(partC.of(s));
      }
    }
  });

  it('the address reading stays available, and ring quarters are refused on other networks', () => {
    const m = buildTopology('mdce:B=1,C=1,P=1,n=4');
    expect(makePattern('quarter', m, { quarterBy: 'address' }).params.by).toMatch(/address/);
    expect(() => makePattern('quarter', torus([8, 8]), { quarterBy: 'rings' })).toThrow(/address on torus/);
  });
});

describe('pattern registry', () => {
  it('lists every built-in, then the closed-loop meshemu, and refuses unknown names listing them', () => {
    expect(patternNames()).toEqual(['uniform', 'bitrev', 'transpose', 'bitcomp', 'shuffle', 'tornado', 'neighbor', 'randperm', 'random', 'quarter', 'hotspot', 'diagonal', 'asymmetric', 'taper64', 'bad-dragon', 'badperm-yarc', 'background', 'localized', 'meshemu']);
    expect(() => makePattern('zigzag', torus([4, 4]))).toThrow(/uniform \| bitrev/);
    expect(() => makePattern('meshemu', torus([4, 4]))).toThrow(/closed-loop/);
  });

  it('a registered pattern is built by name and drives the traffic runner', () => {
    registerPattern({
      name: 'test-next-rank',
      description: 'rank r sends to r + 1 (test)',
      create: (t) => ({ name: 'test-next-rank', params: {}, dest: (s) => (s + 1) % t.numEndpoints }),
    });
    const t = torus([4, 4]);
    expect(makePattern('test-next-rank', t).dest(15, new Rng(1))).toBe(0);
    const r = simulateTraffic({ topology: t, pattern: 'test-next-rank', rates: [0.05], measurement: 'horizon', horizon: 200 });
    expect(r.pattern).toBe('test-next-rank');
    expect((r.points[0] as { delivered: number }).delivered).toBeGreaterThan(0);
  });
});
