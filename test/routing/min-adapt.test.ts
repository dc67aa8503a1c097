/**
 * BookSim's min_adapt (routefunc.cpp min_adapt_mesh / min_adapt_torus, with OutputSet keeping one
 * range per priority) and dim_order_bal (dor_next_torus with balance), src/routing/min-adapt.ts and
 * dimension-order.ts; their curves against BookSim are in test/sim/packet/booksim-ref.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, DeadlockError, makePattern, makeRouteBuffers, presetConfig, resolveRouting, type PacketConfig, type RoutingFunction, type Topology } from '../../src/index.js';
import { makeHopCandidates, minAdaptRouting, planarAdaptRouting, type CandidateRouting } from '../../src/routing/min-adapt.js';
import { PacketNetwork } from '../../src/sim/packet/network.js';
import { BernoulliSource } from '../../src/sim/traffic/sources.js';

/** The channel from node a to node b. */
function channel(t: Topology, a: number, b: number): number {
  for (let c = 0; c < t.numChannels; c++) if (t.chSrc[c] === a && t.chDst[c] === b) return c;
  throw new Error(`no channel ${a}->${b}`);
}

/** The candidates as [channel's destination node, vc lo, vc hi, priority] rows. */
function candidates(t: Topology, r: CandidateRouting, at: number, dst: number, inChannel: number, inVc: number, salt = 0, vcs = 4): number[][] {
  const out = makeHopCandidates();
  r.candidates(at, dst, inChannel, inVc, salt, vcs, out);
  return Array.from({ length: out.count }, (_, i) => [t.chDst[out.channel[i]], out.vcLo[i], out.vcHi[i], out.priority[i]]);
}

describe('min_adapt on a mesh (min_adapt_mesh)', () => {
  const t = buildTopology('mesh:4x4');
  const r = minAdaptRouting(t);
  // Node 0 (0,0) to node 5 (1,1): BookSim adds x+ and y+ at priority 1, but its OutputSet keeps one
  // range per priority, so only the lowest dimension's (x+, node 1) survives, beside the escape VC.
  it('from the injection port: the dimension-order port, escape VC 0 at priority 0 and VCs 1..3 at priority 1', () => {
    expect(candidates(t, r, 0, 5, -1, 2)).toEqual([
      [1, 0, 0, 0],
      [1, 1, 3, 1],
    ]);
  });
  it('a head on VC 0 stays on the escape VC; on any other VC it may take every VC', () => {
    const west = channel(t, 1, 0);
    expect(candidates(t, r, 0, 5, west, 0)).toEqual([[1, 0, 0, 0]]);
    expect(candidates(t, r, 0, 5, west, 3)).toEqual([
      [1, 0, 0, 0],
      [1, 1, 3, 1],
    ]);
  });
  it('routes by dimension order for the flow engine and counts every minimal hop', () => {
    const out = makeRouteBuffers(r.maxHops);
    expect(r.route(0, 15, 0, out)).toBe(6);
  });
});

describe('min_adapt on a torus (min_adapt_torus)', () => {
  const t = buildTopology('torus:8');
  const r = minAdaptRouting(t, 3);
  it('off the escape VCs: VC 3 toward the shorter side at priority 1, the escape VC by the dateline test at priority 0', () => {
    // 0 → 2: + side; dest > cur, so escape VC 0.
    expect(candidates(t, r, 0, 2, -1, 1)).toEqual([
      [1, 3, 3, 1],
      [1, 0, 0, 0],
    ]);
    // 3 → 1 on VC 3: − side; dest < cur, so BookSim's dateline test gives escape VC 1 (its quirk on the − side).
    expect(candidates(t, r, 3, 1, channel(t, 4, 3), 3)).toEqual([
      [2, 3, 3, 1],
      [2, 1, 1, 0],
    ]);
  });
  it('at a k/2 tie the adaptive VC goes − and the escape side is drawn per packet and router', () => {
    const sides = new Set<number>();
    for (let salt = 0; salt < 32; salt++) {
      const [adaptive, escape] = candidates(t, r, 1, 5, -1, 0, salt);
      expect(adaptive).toEqual([0, 3, 3, 1]);
      sides.add(escape[0]);
    }
    expect([...sides].sort()).toEqual([0, 2]);
  });
  it("with BookSim's stream, draws the tie's side where dor_next_torus does: at a turn (injection counts), never along a ring", () => {
    const ranges: number[] = [];
    const stream = { next: () => 0, int: (n: number) => (ranges.push(n), 1) };
    const drawn = (at: number, dst: number, inChannel: number, inVc: number): number[][] => {
      const out = makeHopCandidates();
      r.candidates(at, dst, inChannel, inVc, 0, 4, out, stream);
      return Array.from({ length: out.count }, (_, i) => [t.chDst[out.channel[i]], out.vcLo[i], out.vcHi[i], out.priority[i]]);
    };
    // From injection, 1 → 5 is a tie: RandomInt(1) = 1 takes the escape path + (to 2).
    expect(drawn(1, 5, -1, 0)).toEqual([
      [0, 3, 3, 1],
      [2, 0, 0, 0],
    ]);
    expect(ranges).toEqual([2]);
    // On an escape VC, continuing + along the ring: no draw.
    expect(drawn(1, 5, channel(t, 0, 1), 0)).toEqual([[2, 0, 0, 0]]);
    // Off a tie: no draw.
    drawn(0, 2, -1, 1);
    expect(ranges).toEqual([2]);
    expect(r.drawsFromStream).toBe(true);
  });
  it('a head on VC 0 or 1 stays there, in its direction within a dimension', () => {
    // Arriving 7 → 0 (the + side) on VC 1, bound for 2: continue + on VC 1.
    expect(candidates(t, r, 0, 2, channel(t, 7, 0), 1)).toEqual([[1, 1, 1, 0]]);
    // Arriving 1 → 0 (the − side) on VC 0, bound for 6: continue − on VC 0 though 6 is below 0 by two.
    expect(candidates(t, r, 0, 6, channel(t, 1, 0), 0)).toEqual([[7, 0, 0, 0]]);
  });
  it('the packet engine refuses fewer than 4 VCs (min_adapt_torus takes VC 3)', () => {
    const cfg: PacketConfig = { ...presetConfig('booksim', t), vcs: 2 };
    expect(() => new PacketNetwork(t, r, cfg)).toThrow(/vcs: got 2; accepted: at least 4/);
  });
});

/** Full offered load of random traffic with 2-flit buffers; throws DeadlockError if a wait cycle forms. */
function saturate(t: Topology, routing: RoutingFunction, vcs: number, cycles = 4000): PacketNetwork {
  const cfg: PacketConfig = { ...presetConfig('booksim', t), packetSize: 4, vcBuf: 2, vcs, deadlockCycles: 300 };
  const net = new PacketNetwork(t, routing, cfg);
  const src = new BernoulliSource(makePattern('random', t), 1, 4, t.numEndpoints, 5);
  for (let c = 0; c < cycles; c++) {
    const now = net.now;
    net.step();
    src.generate(net, now);
  }
  return net;
}

describe('deadlock freedom at full load (the engine stops a deadlocked run with DeadlockError)', () => {
  for (const spec of ['mesh:4x4', 'torus:4x4', 'torus:8']) {
    it(`min-adapt on ${spec}`, () => {
      const t = buildTopology(spec);
      expect(saturate(t, resolveRouting(t, { routing: 'min-adapt', seed: 1 }), 4).stats.packets).toBeGreaterThan(500);
    });
  }
  it('dor-bal on torus:8 and torus:4x4', () => {
    for (const spec of ['torus:8', 'torus:4x4']) {
      const t = buildTopology(spec);
      expect(saturate(t, resolveRouting(t, { routing: 'dor-bal', seed: 1 }), 2).stats.packets).toBeGreaterThan(500);
    }
  });
  it('the same load deadlocks on a ring when the escape VCs lose the dateline (every escape hop on VC 0)', () => {
    const t = buildTopology('torus:8');
    const base = minAdaptRouting(t);
    const noDateline: CandidateRouting = {
      ...base,
      candidates(at, dst, inChannel, inVc, salt, vcs, out) {
        base.candidates(at, dst, inChannel, inVc, salt, vcs, out);
        for (let i = 0; i < out.count; i++) if (out.vcLo[i] <= 1) out.vcLo[i] = out.vcHi[i] = 0;
      },
    };
    expect(() => saturate(t, noDateline, 4, 20_000)).toThrow(DeadlockError);
  });
});

describe('dim_order_bal on a torus (Cray partition VC classes)', () => {
  const t = buildTopology('torus:8');
  const r = resolveRouting(t, { routing: 'dor-bal', seed: 1 });
  const classes = (src: number, dst: number, salt: number): number[] => {
    const out = makeRouteBuffers(r.maxHops);
    return Array.from(out.vcClass.subarray(0, r.route(src, dst, salt, out)));
  };
  it('crossing the wrap link: class 1; crossing the middle (3 → 4): class 0; otherwise either, by packet', () => {
    expect(classes(6, 1, 0)).toEqual([1, 1, 1]);
    expect(classes(1, 6, 0)).toEqual([1, 1, 1]);
    expect(classes(2, 5, 0)).toEqual([0, 0, 0]);
    expect(classes(5, 2, 0)).toEqual([0, 0, 0]);
    const drawn = new Set<number>();
    for (let salt = 0; salt < 32; salt++) drawn.add(classes(4, 6, salt)[0]);
    expect([...drawn].sort()).toEqual([0, 1]);
  });
  it('is refused on a mesh', () => {
    expect(() => resolveRouting(buildTopology('mesh:4x4'), { routing: 'dor-bal' })).toThrow(/a torus/);
  });
});

describe('planar_adapt on a mesh (planar_adapt_mesh without faults)', () => {
  const t = buildTopology('mesh:8x8');
  const r = planarAdaptRouting(t);
  const c = makeHopCandidates();
  const buf = makeRouteBuffers(r.maxHops);

  it("one candidate, the dimension-order channel, on VCs 2·⌊V/3⌋..V−1 (BookSim's OutputSet drops the second plane range)", () => {
    for (const [vcs, lo] of [[2, 0], [3, 2], [4, 2], [6, 4], [16, 10]]) {
      for (const [at, dst] of [[0, 63], [9, 14], [63, 7], [20, 20 + 8 * 3]]) {
        r.candidates(at, dst, -1, 0, 7, vcs, c);
        r.route(at, dst, 7, buf);
        expect([c.count, c.channel[0], c.vcLo[0], c.vcHi[0], c.priority[0]]).toEqual([1, buf.channels[0], lo, vcs - 1, 0]);
      }
    }
  });

  it('is refused on a torus', () => {
    expect(() => planarAdaptRouting(buildTopology('torus:4x4'))).toThrow(/planar-adapt on torus/);
  });
});
