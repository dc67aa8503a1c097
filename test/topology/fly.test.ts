/**
 * BookSim's k-ary n-fly (fly.cpp KNFly @ 28f43299) and its dest_tag routing (routefunc.cpp
 * dest_tag_fly): the wiring swaps address digit N−s−2 with the port between stages s and s + 1,
 * and stage s takes the destination's digit N−1−s.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { flyDestTagRouting } from '../../src/routing/fly.js';
import { makeRouteBuffers } from '../../src/routing/types.js';

describe('fly:k=K,n=N', () => {
  it("has BookSim's shape: K^N terminals, N stages of K^(N-1) routers of K ports each way", () => {
    const t = buildTopology('fly:k=4,n=3');
    expect(t.numEndpoints).toBe(64);
    expect(t.numNodes).toBe(64 + 3 * 16);
    // Injection and ejection channels, and K^N channels between each pair of stages.
    expect(t.numChannels).toBe(2 * 64 + 2 * 64);
    for (let v = 64; v < t.numNodes; v++) {
      expect(t.outDegree(v)).toBe(4);
      expect(t.inDegree(v)).toBe(4);
    }
  });

  it("routes by destination digits: 2-ary 3-fly, 1 -> 6 crosses routers 0 (stage 0), 2 (stage 1), 3 (stage 2); a terminal's way to itself crosses every stage", () => {
    const t = buildTopology('fly:k=2,n=3');
    const r = flyDestTagRouting(t);
    const out = makeRouteBuffers(r.maxHops);
    const routers = (src: number, dst: number): number[] => {
      const hops = r.route(src, dst, 0, out);
      expect(t.chDst[out.channels[hops - 1]]).toBe(dst);
      // Each router as [address, stage].
      return Array.from(out.channels.subarray(0, hops - 1), (c) => t.chDst[c] - 8);
    };
    // 6 = 110b: stage 0 takes digit 2 (1): router 0 -> 0 + (1 - 0)·2 = 2; stage 1 takes digit 1 (1): 2 -> 3; eject port digit 0 (0).
    expect(routers(1, 6)).toEqual([0, 4 + 2, 8 + 3]);
    expect(routers(5, 5)).toEqual([2, 4 + 2, 8 + 2]);
    // Every pair: N + 1 channels, and the stage-(N-1) router is dst div K.
    for (let s = 0; s < 8; s++) for (let d = 0; d < 8; d++) expect(routers(s, d)[2]).toBe(8 + (d >> 1));
  });
});
