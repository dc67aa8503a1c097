import { describe, expect, it } from 'vitest';
import {
  BernoulliSource,
  PacketNetwork,
  buildTopology,
  makePattern,
  makeRouteBuffers,
  presetConfig,
  resolveRouting,
  type PacketConfig,
  type RoutingFunction,
  type Topology,
} from '../../src/index.js';
import type { AdaptiveRouting } from '../../src/routing/dragonfly.js';

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
  const n = r.route(t.endpoints[src], t.endpoints[dst], salt, out);
  return Array.from(out.channels.subarray(0, n)).filter((c) => t.className(c) !== 'terminal');
};

describe('adaptive minimal routing', () => {
  const t = buildTopology('hyperx:4x4');
  it('takes the minimal channel with the fewest credits in use', () => {
    const r = resolveRouting(t, { routing: 'adaptive' }) as AdaptiveRouting;
    // Router 0 (0,0) to router 5 (1,1): two minimal paths, via router 1 or via router 4.
    const free = networkHops(t, r, 0, 5);
    expect(free).toHaveLength(2);
    r.load = (c) => (c === free[0] ? 5 : 0);
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
    r.load = (c) => (c * 7) % 5;
    const out = makeRouteBuffers(r.maxHops);
    for (let s = 0; s < 16; s++) {
      for (let d = 0; d < 16; d++) {
        const n = r.route(t.endpoints[s], t.endpoints[d], s * 16 + d, out);
        let routerHops = 0;
        for (let i = 0; i < n; i++) {
          if (t.className(out.channels[i]) === 'terminal') continue;
          expect(out.vcClass[i]).toBe(routerHops++);
        }
      }
    }
    r.load = () => 0;
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
      r.load = (c) => (c === minimal[0] ? 50 : 0);
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
