/**
 * BookSim's xyyx_flatfly and adaptive_xyyx_flatfly (flatfly_onchip.cpp @ 28f43299): XY (lowest
 * dimension first, flatfly_outport) or YX (highest first, flatfly_outport_yx), one VC class each;
 * and valiant_flatfly, dimension order via a random router.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, makeRouteBuffers, resolveRouting } from '../../src/index.js';
import type { RouteContext } from '../../src/routing/types.js';

const t = buildTopology('flatfly:k=4,n=3,c=2');
const R0 = t.numEndpoints;
/** Router of (x, y, z), dimension 0 fastest. */
const router = (x: number, y: number, z: number): number => R0 + x + 4 * y + 16 * z;
const routersOf = (channels: Int32Array, hops: number): number[] => Array.from(channels.subarray(1, hops), (c) => t.chSrc[c]);

describe('xyyx-flatfly', () => {
  const routing = resolveRouting(t, { routing: 'xyyx-flatfly', seed: 3, engine: 'packet' });
  it('takes XY on class 0 or YX on class 1, a coin per packet, one hop per differing dimension', () => {
    const out = makeRouteBuffers(routing.maxHops);
    // Terminal 0 on router (0,0,0) to a terminal of router (1,2,3) (rank 2·(1 + 8 + 48)).
    const dst = t.endpoints[2 * (1 + 4 * 2 + 16 * 3)];
    const seen = new Set<string>();
    for (let salt = 0; salt < 64; salt++) {
      const hops = routing.route(t.endpoints[0], dst, salt, out);
      expect(hops).toBe(5);
      const cls = out.vcClass[0];
      expect(Array.from(out.vcClass.subarray(0, hops))).toEqual(new Array(5).fill(cls));
      const path = routersOf(out.channels, hops);
      expect(path).toEqual(cls === 0 ? [router(0, 0, 0), router(1, 0, 0), router(1, 2, 0), router(1, 2, 3)] : [router(0, 0, 0), router(0, 0, 3), router(0, 2, 3), router(1, 2, 3)]);
      seen.add(String(cls));
    }
    expect(seen).toEqual(new Set(['0', '1']));
    expect(routing.vcClasses).toBe(2);
    expect(routing.ejectAnyVc).toBe(true);
  });
  it('adaptive: the order whose first channel has fewer credits in use; the coin on a tie', () => {
    const adaptive = resolveRouting(t, { routing: 'adaptive-xyyx-flatfly', seed: 3, engine: 'packet' });
    const out = makeRouteBuffers(adaptive.maxHops);
    const src = t.endpoints[0];
    const dst = t.endpoints[2 * (1 + 4 * 2 + 16 * 3)];
    const xFirst = t.channelBetween(router(0, 0, 0), router(1, 0, 0));
    const zFirst = t.channelBetween(router(0, 0, 0), router(0, 0, 3));
    const busy = (channel: number): RouteContext => ({ load: (c) => (c === channel ? 5 : 0) });
    for (let salt = 0; salt < 16; salt++) {
      adaptive.route(src, dst, salt, out, busy(xFirst));
      expect(out.vcClass[0]).toBe(1);
      adaptive.route(src, dst, salt, out, busy(zFirst));
      expect(out.vcClass[0]).toBe(0);
    }
    const classes = new Set(Array.from({ length: 32 }, (_, salt) => (adaptive.route(src, dst, salt, out, { load: () => 2 }), out.vcClass[0])));
    expect(classes).toEqual(new Set([0, 1]));
  });
  it('refuses a network without HyperX coordinates, naming the routing', () => {
    expect(() => resolveRouting(buildTopology('torus:4x4'), { routing: 'xyyx-flatfly', engine: 'packet' })).toThrow(/routing: got "xyyx-flatfly"; accepted: a topology that fits it \(hyperx or flatfly, not torus\)/);
  });
});

describe('valiant-flatfly', () => {
  const routing = resolveRouting(t, { routing: 'valiant-flatfly', seed: 5, engine: 'packet' });
  const out = makeRouteBuffers(routing.maxHops);
  it('goes by dimension order to a random router on class 0, then to the destination on class 1; every router is drawn', () => {
    const dst = t.endpoints[2 * (1 + 4 * 2 + 16 * 3)];
    const intermediates = new Set<number>();
    for (let salt = 0; salt < 400; salt++) {
      const hops = routing.route(t.endpoints[0], dst, salt, out);
      const path = routersOf(out.channels, hops);
      expect(path[0]).toBe(router(0, 0, 0));
      expect(path[path.length - 1]).toBe(router(1, 2, 3));
      // Each network hop changes one coordinate; the classes never go back from 1 to 0.
      const classes = Array.from(out.vcClass.subarray(1, hops - 1));
      expect(classes).toEqual([...classes].sort());
      const turn = classes.indexOf(1);
      intermediates.add(turn < 0 ? path[path.length - 1] : path[turn]);
    }
    // Where phase 1 starts: any router but those phase 0 never stops at (it stops at the destination's first).
    expect(intermediates.size).toBeGreaterThan(40);
  });
  it("ends the first leg at the destination's router when it passes there (BookSim's phase switch)", () => {
    // From router (0,0,0) to (1,0,0): an intermediate (3,2,0) is reached via (3,0,0), not via (1,0,0);
    // an intermediate (1,2,1) via (1,0,0) -- the destination -- where the packet leaves.
    const dst = t.endpoints[2 * 1];
    let shortcut = 0;
    for (let salt = 0; salt < 400; salt++) {
      const hops = routing.route(t.endpoints[0], dst, salt, out);
      const path = routersOf(out.channels, hops);
      if (path[1] === router(1, 0, 0)) {
        expect(path).toEqual([router(0, 0, 0), router(1, 0, 0)]);
        shortcut++;
      }
    }
    // Intermediates with x = 1 (16 of 64 routers) send the first hop to the destination.
    expect(shortcut).toBeGreaterThan(60);
  });
});
