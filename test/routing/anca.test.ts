/**
 * BookSim's fattree_anca (routefunc.cpp): at every switch below the nearest common ancestor, the
 * less loaded of two up-ports drawn at random; then down by the destination's digits.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, makeRouteBuffers, resolveRouting, shortestPathRouting } from '../../src/index.js';
import type { HopByHopRouting } from '../../src/routing/dal.js';

describe('anca on a k-ary n-tree', () => {
  const t = buildTopology('fattree:k=4,levels=3');
  const anca = resolveRouting(t, { routing: 'anca' }) as HopByHopRouting;
  const bfs = shortestPathRouting(t);
  const out = makeRouteBuffers(anca.maxHops);
  const ref = makeRouteBuffers(bfs.maxHops);

  it('every route is a shortest path that ends at its destination, idle or loaded', () => {
    const loads = [undefined, { load: (c: number) => (c * 7919) % 13 }];
    for (const ctx of loads) {
      for (const src of t.endpoints) {
        for (const dst of t.endpoints) {
          if (src === dst) continue;
          const n = anca.route(src, dst, src * 131 + dst, out, ctx);
          expect(n).toBe(bfs.route(src, dst, 0, ref));
          expect(t.chSrc[out.channels[0]]).toBe(src);
          expect(t.chDst[out.channels[n - 1]]).toBe(dst);
          for (let h = 1; h < n; h++) expect(t.chSrc[out.channels[h]]).toBe(t.chDst[out.channels[h - 1]]);
        }
      }
    }
  });

  it('takes the less loaded of its two draws: loading every up-port but one steers the draws that find it', () => {
    // Terminal 0 to terminal 63 climbs to the top: two up hops, each a choice among 4 up-ports.
    const leaf = t.chDst[t.outChannels[t.outStart[0]]];
    const ups = Array.from({ length: 4 }, (_, j) => t.outChannels[t.outStart[leaf] + 4 + j]);
    let idle = 0;
    let steered = 0;
    for (let salt = 0; salt < 400; salt++) {
      anca.route(0, 63, salt, out);
      if (out.channels[1] === ups[2]) idle++;
      anca.route(0, 63, salt, out, { load: (c) => (ups.includes(c) && c !== ups[2] ? 10 : 0) });
      if (out.channels[1] === ups[2]) steered++;
    }
    // Uniform alone: a quarter; the better of two draws: 1 − (3/4)² = 7/16 of the packets.
    expect(idle / 400).toBeGreaterThan(0.18);
    expect(idle / 400).toBeLessThan(0.32);
    expect(steered / 400).toBeGreaterThan(0.37);
    expect(steered / 400).toBeLessThan(0.51);
  });

  it('re-routes from any switch on the way with the same draws as the whole route', () => {
    for (let salt = 0; salt < 50; salt++) {
      const n = anca.route(5, 58, salt, out);
      const whole = Array.from(out.channels.subarray(0, n));
      for (let h = 1; h < n - 1; h++) {
        const m = anca.reroute(5, t.chSrc[whole[h]], 58, salt, out);
        expect(Array.from(out.channels.subarray(0, m))).toEqual(whole.slice(h));
      }
    }
  });

  it('is refused off a k-ary n-tree', () => {
    expect(() => resolveRouting(buildTopology('torus:4x4'), { routing: 'anca' })).toThrow(/routing: got "anca on torus"; accepted: a k-ary n-tree/);
  });
});
