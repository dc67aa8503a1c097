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
  type TrafficPattern,
} from '../../src/index.js';
import { type HopByHopRouting } from '../../src/routing/dal.js';
import { runFixedHorizon } from '../../src/sim/packet/measure.js';
import { PacketNetwork } from '../../src/sim/packet/network.js';
import { BernoulliSource } from '../../src/sim/traffic/sources.js';
import { hash32 } from '../../src/util/rng.js';
import type { RouteContext } from '../../src/routing/types.js';

/** The load the routing reads, as an engine would pass it (RouteContext); reset after each test. */
const ctx: RouteContext = {};
afterEach(() => {
  delete ctx.load;
});

// DAL, Ahn et al., "HyperX: Topology, Routing, and Packaging of Efficient Large-Scale Networks",
// SC'09: any unaligned dimension per hop, at most one deroute per dimension.

/** Every terminal of router x in dimension 0 sends to the same terminal of router x + 1 (mod side): one direct link per router pair. */
function rowShift(t: Topology): TrafficPattern {
  const side = (t.params.dims as number[])[0];
  const p = t.numEndpoints / (t.params.dims as number[]).reduce((a, b) => a * b, 1);
  return {
    name: 'row-shift',
    params: {},
    dest: (s) => {
      const r = Math.floor(s / p);
      const x = r % side;
      return (r - x + ((x + 1) % side)) * p + (s % p);
    },
  };
}

function run(t: Topology, routing: RoutingFunction, pattern: TrafficPattern, rate: number, cycles: number, over: Partial<PacketConfig> = {}) {
  const net = new PacketNetwork(t, routing, { ...presetConfig('default', t), vcs: 4, ...over });
  return runFixedHorizon(net, new BernoulliSource(pattern, rate, 4, t.numEndpoints, 7), cycles);
}

describe('DAL routing', () => {
  const t = buildTopology('hyperx:4x4x3');
  const n = 3;
  const coords = (v: number) => [0, 1, 2].map((d) => t.coord(v, d));

  it('never leaves the rule: unaligned dimensions only, at most one deroute per dimension, classes climbing, under any load', () => {
    const r = resolveRouting(t, { routing: 'dal' }) as HopByHopRouting;
    expect(r).toMatchObject({ name: 'dal', vcClasses: 2 * n, deadlockFree: true, hopByHop: true });
    const out = makeRouteBuffers(r.maxHops);
    let deroutes = 0;
    for (const seed of [1, 2, 3]) {
      // Loads that make many deroutes attractive.
      ctx.load = (c) => hash32(c, seed) % 40;
      for (let s = 0; s < t.numEndpoints; s += 5) {
        for (let d = 0; d < t.numEndpoints; d++) {
          const len = r.route(t.endpoints[s], t.endpoints[d], s * 997 + d, out, ctx);
          const dst = coords(t.endpoints[d]);
          const src = coords(t.endpoints[s]);
          const hopsIn = [0, 0, 0];
          let lastClass = -1;
          let at = t.endpoints[s];
          for (let i = 0; i < len; i++) {
            const c = out.channels[i];
            expect(t.chSrc[c]).toBe(at);
            at = t.chDst[c];
            if (t.className(c) === 'terminal') continue;
            const before = coords(t.chSrc[c]);
            const after = coords(t.chDst[c]);
            const dim = [0, 1, 2].find((k) => before[k] !== after[k])!;
            expect(before[dim]).not.toBe(dst[dim]); // never moves in an aligned dimension
            hopsIn[dim]++;
            // A second hop in a dimension is the minimal one, after a deroute from the source coordinate.
            if (hopsIn[dim] === 2) expect([before[dim] !== src[dim], after[dim]]).toEqual([true, dst[dim]]);
            if (after[dim] !== dst[dim]) deroutes++;
            expect(out.vcClass[i]).toBeGreaterThan(lastClass);
            expect(out.vcClass[i]).toBeLessThan(2 * n);
            lastClass = out.vcClass[i];
          }
          expect(at).toBe(t.endpoints[d]);
          expect(Math.max(...hopsIn)).toBeLessThanOrEqual(2);
        }
      }
    }
    expect(deroutes).toBeGreaterThan(100);
  });

  it('is minimal on an idle network and deroutes when the minimal channel is loaded past 2·q + 2', () => {
    const r = resolveRouting(t, { routing: 'dal' }) as HopByHopRouting;
    const out = makeRouteBuffers(r.maxHops);
    // Router (0,0,0) to router (1,0,0): one minimal channel.
    const a = t.endpoints[0];
    const b = t.endpoints[1];
    expect(r.route(a, b, 0, out)).toBe(3);
    const direct = out.channels[1];
    ctx.load = (c) => (c === direct ? 4 : 1); // 4 <= 2·1 + 2: stays minimal
    expect(r.route(a, b, 0, out, ctx)).toBe(3);
    ctx.load = (c) => (c === direct ? 5 : 1); // 5 > 4: deroutes in dimension 0, then the minimal hop
    expect(r.route(a, b, 0, out, ctx)).toBe(4);
    const via = coords(t.chDst[out.channels[1]]);
    expect([[2, 0, 0], [3, 0, 0]]).toContainEqual(via);
  });

  it('refuses families without dimensions', () => {
    expect(() => resolveRouting(buildTopology('slimfly:q=5'), { routing: 'dal' })).toThrow(/routing: got "dal"/);
  });
});

describe('DAL in the packet engine', () => {
  it('re-routes at every router: runs adversarial and random traffic at full load on 2n classes without deadlock', () => {
    for (const spec of ['hyperx:4x4,p=2', 'flatfly:k=4,n=2,c=2']) {
      const t = buildTopology(spec);
      const dal = resolveRouting(t, { routing: 'dal' }) as HopByHopRouting;
      let reroutes = 0;
      const counted: HopByHopRouting = { ...dal, reroute: (...a) => (reroutes++, dal.reroute(...a)) };
      for (const pattern of [rowShift(t), makePattern('random', t)]) {
        const res = run(t, counted, pattern, 1, 3000, { vcBuf: 2, deadlockCycles: 300 });
        expect(res.delivered).toBeGreaterThan(1000);
      }
      expect(reroutes).toBeGreaterThan(1000);
    }
  });

  const t = buildTopology('hyperx:8x8,p=4');
  const dor = resolveRouting(t, { engine: 'packet' });
  const dal = resolveRouting(t, { routing: 'dal', engine: 'packet' });
  it('beats dimension order on the row shift: DOR is held to one link per router pair (1/p = 0.25), DAL spreads over the row', () => {
    const byDor = run(t, dor, rowShift(t), 0.45, 2000);
    const byDal = run(t, dal, rowShift(t), 0.45, 2000);
    expect(byDor.acceptedFlitRate).toBeLessThan(0.26);
    expect(byDal.acceptedFlitRate).toBeGreaterThan(0.43);
  });
  it('at low load takes minimal paths and matches minimal latency within 2 %', () => {
    const uniform = makePattern('uniform', t);
    const byDor = run(t, dor, uniform, 0.02, 3000);
    const byDal = run(t, dal, uniform, 0.02, 3000);
    expect(byDal.hops! / byDor.hops!).toBeGreaterThan(0.995);
    expect(byDal.hops! / byDor.hops!).toBeLessThan(1.01);
    expect(Math.abs(byDal.meanLatency! / byDor.meanLatency! - 1)).toBeLessThan(0.02);
  });
});
