import { describe, expect, it } from 'vitest';
import { mesh } from '../../src/topology/index.js';
import { makeRouteBuffers } from '../../src/routing/index.js';
import { ANY_VC_CLASS } from '../../src/routing/types.js';
import { bookSimMeshRouting } from '../../src/routing/booksim-mesh.js';
import { hash32 } from '../../src/util/rng.js';

describe("BookSim's romm and valiant on a mesh: the intermediate router", () => {
  const t = mesh([8, 8]);
  /** The router where the route turns to VC class 1 (the source when it starts on class 1). */
  const intermediate = (src: number, channels: Int32Array, vcClass: Uint8Array, hops: number): number => {
    let mid = src;
    for (let i = 0; i < hops && vcClass[i] !== 1; i++) mid = t.chDst[channels[i]];
    return mid;
  };
  // Per-packet salts as the packet engine makes them (network.ts enqueue: hash32(serial, seed)).
  const N = 64_000;
  const draws = (kind: 'romm' | 'valiant-dor', src: number, dst: number, seed: number): Float64Array => {
    const r = bookSimMeshRouting(t, kind, seed);
    const buf = makeRouteBuffers(r.maxHops);
    const count = new Float64Array(t.numNodes);
    for (let s = 0; s < N; s++) {
      const hops = r.route(src, dst, hash32(s, seed), buf);
      count[intermediate(src, buf.channels, buf.vcClass, hops)]++;
    }
    return count;
  };
  const chi2 = (count: Float64Array, cells: number[]): number => {
    const e = N / cells.length;
    return cells.reduce((sum, v) => sum + (count[v] - e) ** 2 / e, 0);
  };
  const node = (x: number, y: number): number => x + 8 * y;

  // The coordinates are drawn independently, as BookSim's successive RandomInt calls: per-dimension
  // hashes differing only in their last input (hash32(salt, seed, d)) gave residues mod 8 that never
  // matched, so valiant never turned on the diagonal and transpose saturated a step early.
  it('valiant: uniform over all 64 routers, 1/8 of them on the diagonal', () => {
    for (const seed of [1, 2]) {
      const count = draws('valiant-dor', node(1, 6), node(6, 1), seed);
      const all = Array.from({ length: 64 }, (_, v) => v);
      // 63 degrees of freedom: mean 63, sd 11.2; 140 is ~7 sd out.
      expect(chi2(count, all)).toBeLessThan(140);
      const diagonal = [0, 1, 2, 3, 4, 5, 6, 7].reduce((s, i) => s + count[node(i, i)], 0);
      expect(diagonal / N).toBeGreaterThan(0.11);
      expect(diagonal / N).toBeLessThan(0.14);
    }
  });

  it('romm: uniform over the minimal box, whose sides are the same length under transpose', () => {
    for (const [a, b] of [[1, 6], [2, 5], [0, 7], [3, 4]]) {
      const count = draws('romm', node(a, b), node(b, a), 1);
      const box: number[] = [];
      for (let x = Math.min(a, b); x <= Math.max(a, b); x++) for (let y = Math.min(a, b); y <= Math.max(a, b); y++) box.push(node(x, y));
      expect(box.reduce((s, v) => s + count[v], 0)).toBe(N);
      const dof = box.length - 1;
      expect(chi2(count, box)).toBeLessThan(dof + 7 * Math.sqrt(2 * dof));
    }
  });
});

describe("BookSim's adaptive_xy_yx on a mesh: XY or YX by the credits in use on the first channels", () => {
  const t = mesh([8, 8]);
  const r = bookSimMeshRouting(t, 'adaptive-xy-yx');
  const buf = makeRouteBuffers(r.maxHops);
  const node = (x: number, y: number): number => x + 8 * y;
  const src = node(1, 1);
  const dst = node(4, 6);
  const xFirst = t.channelBetween(src, node(2, 1));
  const yFirst = t.channelBetween(src, node(1, 2));

  it('takes the order whose first channel is less loaded, on its own VC class, whatever the coin', () => {
    expect(r.adaptive).toBe(true);
    for (let salt = 0; salt < 64; salt++) {
      let n = r.route(src, dst, salt, buf, { load: (c) => (c === xFirst ? 3 : 0) });
      expect([buf.channels[0], buf.vcClass[0], n]).toEqual([yFirst, 1, 8]);
      n = r.route(src, dst, salt, buf, { load: (c) => (c === yFirst ? 3 : 0) });
      expect([buf.channels[0], buf.vcClass[0], n]).toEqual([xFirst, 0, 8]);
      // YX: the y hops first, then x, every hop on class 1.
      r.route(src, dst, salt, buf, { load: (c) => (c === xFirst ? 1 : 0) });
      expect(t.chDst[buf.channels[4]]).toBe(node(1, 6));
      expect(Array.from(buf.vcClass.subarray(0, 8))).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    }
  });

  it('tosses the coin on equal loads: about half the packets each way', () => {
    let yx = 0;
    for (let salt = 0; salt < 4000; salt++) {
      r.route(src, dst, hash32(salt, 1), buf, { load: () => 2 });
      if (buf.channels[0] === yFirst) yx++;
    }
    expect(yx / 4000).toBeGreaterThan(0.45);
    expect(yx / 4000).toBeLessThan(0.55);
  });
});

describe("BookSim's own draws at the packet's first router (drawAtTurn, --random-stream booksim)", () => {
  const t = mesh([8, 8]);
  const node = (x: number, y: number): number => x + 8 * y;
  /** A stream that hands out `values` in turn and records each draw's range. */
  const scripted = (values: number[]) => {
    const ranges: number[] = [];
    return { ranges, stream: { next: () => 0, int: (n: number) => (ranges.push(n), values[ranges.length - 1]) } };
  };
  const walk = (src: number, channels: Int32Array, from: number, to: number): number => {
    let v = src;
    for (let h = from; h < to; h++) {
      expect(t.chSrc[channels[h]]).toBe(v);
      v = t.chDst[channels[h]];
    }
    return v;
  };

  it("valiant: RandomInt(gNodes − 1) names the intermediate router; phase 0 leaving the destination takes every VC", () => {
    const r = bookSimMeshRouting(t, 'valiant-dor', 1);
    const buf = makeRouteBuffers(r.maxHops);
    const src = node(0, 0);
    const dst = node(2, 0);
    const hops = r.route(src, dst, 7, buf);
    // Intermediate (5, 3): XY from (0, 0) passes the destination (2, 0) on its way out.
    const { ranges, stream } = scripted([node(5, 3)]);
    const end = r.drawAtTurn!(src, -1, dst, buf.channels, buf.vcClass, 0, hops, stream);
    expect(ranges).toEqual([64]);
    expect(end).toBe(8 + 6);
    expect(walk(src, buf.channels, 0, 8)).toBe(node(5, 3));
    expect(walk(node(5, 3), buf.channels, 8, end)).toBe(dst);
    expect(Array.from(buf.vcClass.subarray(0, end))).toEqual([0, 0, ANY_VC_CLASS, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    // Drawn at the first router only.
    expect(r.drawAtTurn!(t.chDst[buf.channels[0]], buf.channels[0], dst, buf.channels, buf.vcClass, 1, end, stream)).toBe(end);
    expect(ranges).toEqual([64]);
  });

  it('valiant: a packet to its own router draws too, and goes out and back when the draw is another router', () => {
    const r = bookSimMeshRouting(t, 'valiant-dor', 1);
    const buf = makeRouteBuffers(r.maxHops);
    const v = node(3, 3);
    const { stream } = scripted([node(3, 4), v]);
    expect(r.drawAtTurn!(v, -1, v, buf.channels, buf.vcClass, 0, 0, stream)).toBe(2);
    expect(Array.from(buf.vcClass.subarray(0, 2))).toEqual([ANY_VC_CLASS, 1]);
    expect(r.drawAtTurn!(v, -1, v, buf.channels, buf.vcClass, 0, 0, stream)).toBe(0);
  });

  it('romm: one RandomInt(|dist|) per dimension from the lower coordinate, even with nothing to cross', () => {
    const r = bookSimMeshRouting(t, 'romm', 1);
    const buf = makeRouteBuffers(r.maxHops);
    const src = node(6, 1);
    const dst = node(2, 4);
    const hops = r.route(src, dst, 7, buf);
    const { ranges, stream } = scripted([1, 3]);
    const end = r.drawAtTurn!(src, -1, dst, buf.channels, buf.vcClass, 0, hops, stream);
    expect(ranges).toEqual([5, 4]);
    expect(end).toBe(hops);
    // Intermediate (2 + 1, 1 + 3) = (3, 4): 3 + 3 hops on class 0, then 1 on class 1.
    expect(walk(src, buf.channels, 0, 6)).toBe(node(3, 4));
    expect(Array.from(buf.vcClass.subarray(0, end))).toEqual([0, 0, 0, 0, 0, 0, 1]);
    const own = scripted([0, 0]);
    expect(r.drawAtTurn!(src, -1, src, buf.channels, buf.vcClass, 0, 0, own.stream)).toBe(0);
    expect(own.ranges).toEqual([1, 1]);
  });

  it('xy_yx: RandomInt(1) = 1 is XY on class 0, 0 is YX on class 1; none at the destination router', () => {
    const r = bookSimMeshRouting(t, 'xy-yx', 1);
    const buf = makeRouteBuffers(r.maxHops);
    const src = node(1, 1);
    const dst = node(3, 2);
    const hops = r.route(src, dst, 7, buf);
    const { ranges, stream } = scripted([1, 0]);
    r.drawAtTurn!(src, -1, dst, buf.channels, buf.vcClass, 0, hops, stream);
    expect(t.chDst[buf.channels[0]]).toBe(node(2, 1));
    expect(buf.vcClass[0]).toBe(0);
    r.drawAtTurn!(src, -1, dst, buf.channels, buf.vcClass, 0, hops, stream);
    expect(t.chDst[buf.channels[0]]).toBe(node(1, 2));
    expect(buf.vcClass[0]).toBe(1);
    expect(r.drawAtTurn!(dst, -1, dst, buf.channels, buf.vcClass, 0, 0, stream)).toBe(0);
    expect(ranges).toEqual([2, 2]);
  });
});
