import { afterEach, describe, expect, it } from 'vitest';
import {
  buildTopology,
  makePattern,
  makeRouteBuffers,
  presetConfig,
  resolveRouting,
  type PacketConfig,
  type RoutingFunction,
  type Topology,
} from '../../src/index.js';
import { PacketNetwork } from '../../src/sim/packet/network.js';
import { BernoulliSource } from '../../src/sim/traffic/sources.js';
import type { AdaptiveRouting } from '../../src/routing/dragonfly.js';
import type { RouteContext } from '../../src/routing/types.js';

/** The load the routing reads, as an engine would pass it (RouteContext); reset after each test. */
const ctx: RouteContext = {};
afterEach(() => {
  delete ctx.load;
});

/** Full offered load of random traffic with short buffers; throws DeadlockError if a wait cycle forms. */
function saturate(t: Topology, routing: RoutingFunction, vcs: number, cycles = 3000): PacketNetwork {
  const cfg: PacketConfig = { ...presetConfig('default', t), packetSize: 4, vcBuf: 2, vcs, deadlockCycles: 300 };
  const net = new PacketNetwork(t, routing, cfg);
  const src = new BernoulliSource(makePattern('random', t), 1, 4, t.numEndpoints, 5);
  for (let c = 0; c < cycles; c++) {
    const now = net.now;
    net.step();
    src.generate(net, now);
  }
  return net;
}

const networkHops = (t: Topology, r: RoutingFunction, src: number, dst: number, salt = 0): number[] => {
  const out = makeRouteBuffers(r.maxHops);
  const n = r.route(t.endpoints[src], t.endpoints[dst], salt, out, ctx);
  return Array.from(out.channels.subarray(0, n)).filter((c) => t.className(c) !== 'terminal');
};

describe('adaptive minimal routing', () => {
  const t = buildTopology('hyperx:4x4');
  it('takes the minimal channel with the fewest credits in use', () => {
    const r = resolveRouting(t, { routing: 'adaptive' }) as AdaptiveRouting;
    // Router 0 (0,0) to router 5 (1,1): two minimal paths, via router 1 or via router 4.
    const free = networkHops(t, r, 0, 5);
    expect(free).toHaveLength(2);
    ctx.load = (c) => (c === free[0] ? 5 : 0);
    const avoided = networkHops(t, r, 0, 5);
    expect(avoided).toHaveLength(2);
    expect(avoided[0]).not.toBe(free[0]);
  });
  it('with no load (flow engine) spreads flows over the minimal paths by hash: ECMP', () => {
    const r = resolveRouting(t, { routing: 'adaptive', engine: 'flow' });
    const firsts = new Set<number>();
    for (let salt = 0; salt < 16; salt++) firsts.add(networkHops(t, r, 0, 5, salt)[0]);
    expect(firsts.size).toBe(2);
  });
  it('is deadlock free at full load on hop-indexed classes: the i-th router hop is on class i', () => {
    const r = resolveRouting(t, { routing: 'adaptive' }) as AdaptiveRouting;
    expect(r).toMatchObject({ vcClasses: 2, deadlockFree: true });
    // The acyclicity argument, route by route, under a load that changes the choices.
    ctx.load = (c) => (c * 7) % 5;
    const out = makeRouteBuffers(r.maxHops);
    for (let s = 0; s < 16; s++) {
      for (let d = 0; d < 16; d++) {
        const n = r.route(t.endpoints[s], t.endpoints[d], s * 16 + d, out, ctx);
        let routerHops = 0;
        for (let i = 0; i < n; i++) {
          if (t.className(out.channels[i]) === 'terminal') continue;
          expect(out.vcClass[i]).toBe(routerHops++);
        }
      }
    }
    expect(saturate(t, r, 2).stats.packets).toBeGreaterThan(1000);
  });
  it('refuses families without a VC class bound for minimal routes', () => {
    expect(() => resolveRouting(buildTopology('torus:4x4'), { routing: 'adaptive' })).toThrow(/routing: got "adaptive"/);
  });
});

describe('UGAL-L and UGAL-G', () => {
  it('stay minimal on an idle network and go Valiant when the minimal first channel is loaded', () => {
    const t = buildTopology('hyperx:4x4');
    for (const name of ['ugal-l', 'ugal-g']) {
      const r = resolveRouting(t, { routing: name }) as AdaptiveRouting;
      const minimal = networkHops(t, r, 0, 5);
      expect(minimal).toHaveLength(2);
      ctx.load = (c) => (c === minimal[0] ? 50 : 0);
      // The Valiant alternative through a random router is taken for most salts (not when its
      // intermediate lies on the minimal path, which makes it minimal too).
      let detours = 0;
      for (let salt = 0; salt < 20; salt++) if (networkHops(t, r, 0, 5, salt)[0] !== minimal[0]) detours++;
      expect(detours).toBeGreaterThan(10);
    }
  });
  it.each([
    ['hyperx:4x4', 'ugal-l', 2],
    ['hyperx:4x4', 'ugal-g', 2],
    ['slimfly:q=5,p=2', 'ugal-l', 4],
    ['dragonflyplus:h=2', 'ugal-g', 6],
  ])('%s with %s runs full random load without deadlock on %i classes', (spec, name, classes) => {
    const t = buildTopology(spec);
    const r = resolveRouting(t, { routing: name });
    expect(r).toMatchObject({ vcClasses: classes, deadlockFree: true });
    expect(saturate(t, r, classes).stats.packets).toBeGreaterThan(500);
  });
});

describe("ugal-flatfly (BookSim's ugal_flatfly_onchip)", () => {
  // flatfly_onchip.cpp: the intermediate is drawn in the minimal box (find_ran_intm), minimal when
  // H_min·q_min <= H_val·q_val + 2 at the source router; phase 1 on the lower half of the VCs,
  // phase 2 (and minimal routes) on the upper half.
  const t = buildTopology('flatfly:k=4,n=2,c=4');
  const terminals = t.numEndpoints;
  const routerOf = (c: number): number => t.chSrc[c] - terminals;
  it('goes minimal on class 1 when idle, through a router of the minimal box on classes 0 then 1 when loaded', () => {
    const r = resolveRouting(t, { routing: 'ugal-flatfly' }) as AdaptiveRouting;
    const out = makeRouteBuffers(r.maxHops);
    // Terminal 0 at router (0,0) to terminal 4·6 at router (2,1): H_min = 2.
    const dst = 4 * 6;
    const n = r.route(0, dst, 0, out);
    expect(n).toBe(4);
    expect(Array.from(out.vcClass.subarray(0, n))).toEqual([1, 1, 1, 1]);
    const minimalFirst = out.channels[1];
    // q_min = 3: 2·3 > H_val·0 + 2, so every intermediate off the source and destination routers is taken.
    ctx.load = (c) => (c === minimalFirst ? 3 : 0);
    const vias = new Set<number>();
    for (let salt = 0; salt < 64; salt++) {
      const hops = r.route(0, dst, salt, out, ctx);
      const classes = Array.from(out.vcClass.subarray(0, hops));
      const switchAt = classes.indexOf(1);
      if (switchAt === 0) continue; // intermediate at the source or destination router: minimal
      const via = routerOf(out.channels[switchAt]);
      vias.add(via);
      // The box of (0,0) and (2,1): any x, any y, since both coordinates differ.
      expect(classes.slice(switchAt).every((c) => c === 1) && classes.slice(0, switchAt).every((c) => c === 0)).toBe(true);
    }
    expect(vias.size).toBeGreaterThan(8);
    // q_min = 1: 2·1 <= 2 + anything: minimal.
    ctx.load = (c) => (c === minimalFirst ? 1 : 0);
    for (let salt = 0; salt < 16; salt++) expect(r.route(0, dst, salt, out, ctx)).toBe(4);
  });
  it('keeps the intermediate inside the box: a destination in the same row only draws in that row', () => {
    const r = resolveRouting(t, { routing: 'ugal-flatfly' }) as AdaptiveRouting;
    const out = makeRouteBuffers(r.maxHops);
    ctx.load = () => 5;
    // Router (0,0) to router (3,0): y agrees, so every intermediate has y = 0 (routers 0-3).
    for (let salt = 0; salt < 32; salt++) {
      const hops = r.route(0, 4 * 3, salt, out, ctx);
      for (let i = 1; i < hops - 1; i++) expect(routerOf(out.channels[i])).toBeLessThan(4);
    }
  });
  it('runs full random load without deadlock on 2 classes', () => {
    const r = resolveRouting(t, { routing: 'ugal-flatfly' });
    expect(r).toMatchObject({ vcClasses: 2, deadlockFree: true, ejectAnyVc: true });
    expect(saturate(t, r, 2).stats.packets).toBeGreaterThan(500);
  });
});
