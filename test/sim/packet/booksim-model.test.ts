/**
 * The named model options issue 15 added for BookSim parity, each checked against what BookSim 2.0
 * (@ 28f43299) does, and each shown to matter (the other setting gives a different answer).
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, makeRouteBuffers, resolveRouting, simulateTraffic, type HorizonPoint, type LoadPoint, type PacketConfig } from '../../../src/index.js';

function point(spec: string, rate: number, config: Partial<PacketConfig>, pattern = 'uniform'): LoadPoint {
  return simulateTraffic({ topology: buildTopology(spec), pattern, rates: [rate], preset: 'booksim', config: { seed: 1, ...config } }).points[0] as LoadPoint;
}

describe('credit return and VC allocation (torus 8x8, 8-flit packets, rate 0.005, 2 VCs)', () => {
  // Latency above the zero-load formula 7 + h(4 + L) + (P - 1), h = hops - 1, L = 2: BookSim 2.0
  // gives 15.96 / 8.37 / 3.25 / 1.10 for vc_buf_size 2 / 3 / 4 / 6 (issue 15; re-measured with
  // booksim torus_p8.cfg, seed 1: 54.0088 at 5.00881 hops, 45.6079 at 4.87225, 40.0088 at 4.79295,
  // 38.1718 at 4.84581).
  const booksim: Record<number, number> = { 2: 15.96, 3: 8.37, 4: 3.25, 6: 1.1 };
  const excess = (p: LoadPoint): number => p.packet_latency! - (7 + (p.hops! - 1) * 6 + 7);

  it('next-cycle credits (BookSim _SendCredits) match BookSim within 0.25 cycles; same-cycle credits are 1-3.3 cycles low', () => {
    for (const [buf, theirs] of Object.entries(booksim)) {
      const next = excess(point('torus:8x8', 0.005, { packetSize: 8, vcBuf: Number(buf), creditReturn: 'next-cycle' }));
      const same = excess(point('torus:8x8', 0.005, { packetSize: 8, vcBuf: Number(buf), creditReturn: 'same-cycle' }));
      expect(Math.abs(next - theirs), `vc_buf ${buf}: ${next}`).toBeLessThan(0.25);
      expect(theirs - same, `vc_buf ${buf}: ${same}`).toBeGreaterThan(0.9);
    }
  }, 60_000);

  it('VC allocation that only needs a free VC (vc_busy_when_full = 0) is nearer BookSim than also needing a credit', () => {
    const free = excess(point('torus:8x8', 0.005, { packetSize: 8, vcBuf: 2, vcAllocCheck: 'free' }));
    const withCredit = excess(point('torus:8x8', 0.005, { packetSize: 8, vcBuf: 2, vcAllocCheck: 'free-with-credit' }));
    expect(free).not.toBe(withCredit);
    expect(Math.abs(free - booksim[2])).toBeLessThan(Math.abs(withCredit - booksim[2]));
  }, 60_000);
});

describe('terminals of indirect networks', () => {
  it('direct terminals inject into the switch: two router traversals fewer than one-port terminal routers', () => {
    const direct = point('fattree:k=4,levels=3', 0.01, { terminals: 'direct' });
    const routers = point('fattree:k=4,levels=3', 0.01, { terminals: 'routers' });
    // Uniform on a 4-ary 3-tree: switches traversed (4·1 + 12·3 + 48·5) / 64 = 4.375 (BookSim's hops).
    expect(direct.hops!).toBeCloseTo(4.375, 1);
    expect(routers.hops! - direct.hops!).toBeCloseTo(2, 1);
    // Each terminal router adds a pipeline (4 stages) and a terminal channel (1 cycle).
    expect(routers.packet_latency! - direct.packet_latency!).toBeCloseTo(10, 0);
  }, 60_000);

  it('a unidirectional MIN (omega) keeps terminal routers under terminals: direct (it deadlocked at 0.3 before)', () => {
    // omega injects into stage 0 and ejects from the last stage: its terminals are not on one
    // switch, so `direct` must leave them as they are. Before the fix, 66,450 of 512,000 packets
    // arrived in seed 004's mesh-emulation run and uniform 0.3 deadlocked.
    const run = (terminals: 'direct' | 'routers'): HorizonPoint =>
      simulateTraffic({ topology: buildTopology('omega:64'), pattern: 'uniform', rates: [0.3], preset: 'default', measurement: 'horizon', horizon: 3000, config: { seed: 1, terminals } })
        .points[0] as HorizonPoint;
    const direct = run('direct');
    // 64 nodes x 3,000 cycles x 0.3 offered: at least 95% accepted (56,900 delivered when measured).
    expect(direct.acceptedFlitRate).toBeGreaterThan(0.285);
    expect(direct).toEqual(run('routers'));
  }, 60_000);
});

describe('fat-tree and dragonfly routing as BookSim', () => {
  it('nca draws the up-port per packet; d-mod-k keeps one path per destination', () => {
    const t = buildTopology('fattree:k=4,levels=3');
    const paths = (name: 'nca' | 'updown'): Set<string> => {
      const r = resolveRouting(t, { routing: name, engine: 'packet' });
      const buf = makeRouteBuffers(r.maxHops);
      const seen = new Set<string>();
      for (let salt = 0; salt < 64; salt++) seen.add(Array.from(buf.channels.subarray(0, r.route(t.endpoints[0], t.endpoints[63], salt, buf))).join());
      return seen;
    };
    // 0 -> 63 climbs to the top level: 4 up-ports at each of 2 levels, 16 paths.
    expect(paths('nca').size).toBe(16);
    expect(paths('updown').size).toBe(1);
  });

  it('wiring=booksim is dragonflynew: the link to group d leaves router floor(d\'/p), d\' = d or d - 1 (dragonfly_port)', () => {
    const t = buildTopology('dragonfly:h=2,wiring=booksim');
    const { a, p, g, terminals } = t.params as { a: number; p: number; g: number; terminals: number };
    const global = t.classNames.indexOf('global');
    let links = 0;
    for (let c = 0; c < t.numChannels; c++) {
      if (t.chClass[c] !== global) continue;
      links++;
      const from = t.chSrc[c] - terminals;
      const x = Math.floor(from / a);
      const d = Math.floor((t.chDst[c] - terminals) / a);
      const port = x > d ? d : d - 1;
      expect(from % a).toBe(Math.floor(port / p));
    }
    expect(links).toBe(g * (g - 1));
  });

  it('group-direct (BookSim min) is local-global-local over the direct link, VC class 1 from the global hop on', () => {
    const t = buildTopology('dragonfly:h=2,wiring=booksim');
    const r = resolveRouting(t, { routing: 'group-direct', engine: 'packet' });
    const palmtree = buildTopology('dragonfly:h=2');
    const minimal = resolveRouting(palmtree, { routing: 'minimal', engine: 'packet' });
    const global = t.classNames.indexOf('global');
    const buf = makeRouteBuffers(r.maxHops);
    let twoGlobalMinimal = 0;
    const mbuf = makeRouteBuffers(minimal.maxHops);
    const n = t.numEndpoints;
    for (let s = 0; s < n; s++) {
      for (let d = 0; d < n; d++) {
        const hops = r.route(t.endpoints[s], t.endpoints[d], 0, buf);
        const globals = Array.from(buf.channels.subarray(0, hops)).filter((c) => t.chClass[c] === global).length;
        const sameGroup = Math.floor(s / 8) === Math.floor(d / 8);
        expect(globals).toBe(sameGroup ? 0 : 1);
        const firstGlobal = Array.from(buf.channels.subarray(0, hops)).findIndex((c) => t.chClass[c] === global);
        for (let h = 0; h < hops; h++) expect(buf.vcClass[h]).toBe(firstGlobal >= 0 && h >= firstGlobal ? 1 : 0);
        const mh = minimal.route(palmtree.endpoints[s], palmtree.endpoints[d], 0, mbuf);
        if (Array.from(mbuf.channels.subarray(0, mh)).filter((c) => palmtree.chClass[c] === global).length === 2) twoGlobalMinimal++;
      }
    }
    // Issue 15: Meshwork's fewest-hop route on the palmtree dragonfly:h=2 crosses two global
    // channels for 432 of the 5,184 terminal pairs; BookSim's min never does.
    expect(twoGlobalMinimal).toBe(432);
  });

  it('ugal-booksim: minimal (phase 1, then 2 from the global hop) unless the minimal first channel is loaded; then phase 0 to a random intermediate router', () => {
    const t = buildTopology('dragonfly:h=2,wiring=booksim');
    const r = resolveRouting(t, { routing: 'ugal-booksim', engine: 'packet' });
    // The credits the engine would pass (RouteContext.load).
    const ctx: { load: (c: number) => number } = { load: () => 0 };
    const global = t.classNames.indexOf('global');
    const buf = makeRouteBuffers(r.maxHops);
    const src = t.endpoints[0];
    const dst = t.endpoints[71];
    const classesOf = (hops: number): number[] => Array.from(buf.vcClass.subarray(0, hops));
    const globalsOf = (hops: number): number => Array.from(buf.channels.subarray(0, hops)).filter((c) => t.chClass[c] === global).length;
    // No load: every packet goes minimal, classes 1 up to the global channel and 2 from it on.
    for (let salt = 0; salt < 50; salt++) {
      const hops = r.route(src, dst, salt, buf, ctx);
      expect(globalsOf(hops)).toBe(1);
      const g = Array.from(buf.channels.subarray(0, hops)).findIndex((c) => t.chClass[c] === global);
      expect(classesOf(hops)).toEqual(Array.from({ length: hops }, (_, h) => (h < g ? 1 : 2)));
    }
    // Load the minimal route's first switch channel (index 1, after the terminal link) 31 credits
    // above twice any other: a packet turns non-minimal (phase 0 first) whenever its intermediate
    // lies outside the source group and is reached over another channel.
    r.route(src, dst, 0, buf);
    const loaded = buf.channels[1];
    ctx.load = (c: number) => (c === loaded ? 31 : 0);
    let nonMinimal = 0;
    for (let salt = 0; salt < 200; salt++) {
      const hops = r.route(src, dst, salt, buf, ctx);
      if (buf.vcClass[0] === 0) {
        nonMinimal++;
        expect(buf.channels[1]).not.toBe(loaded);
        expect(buf.vcClass[hops - 1]).toBe(2);
      } else {
        expect(globalsOf(hops)).toBe(1);
      }
    }
    expect(nonMinimal).toBeGreaterThan(50);
    ctx.load = (c: number) => (c === loaded ? 30 : 0);
    for (let salt = 0; salt < 50; salt++) expect(r.route(src, dst, salt, buf, ctx) > 0 && buf.vcClass[0]).toBe(1);
  });
});
