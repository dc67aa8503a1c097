import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mesh, torus } from '../../src/topology/index.js';
import { dimensionOrderRouting, makeRouteBuffers } from '../../src/routing/index.js';
import type { Topology } from '../../src/topology/index.js';

/** Minimal hop count on a mesh/torus: per dimension |dx| (mesh) or min(dx, k − dx) (torus). */
function minimalHops(t: Topology, s: number, d: number): number {
  const dims = t.params.dims as number[];
  let h = 0;
  for (let i = 0; i < dims.length; i++) {
    const dx = Math.abs(t.coord(s, i) - t.coord(d, i));
    h += t.family === 'torus' ? Math.min(dx, dims[i] - dx) : dx;
  }
  return h;
}

function walk(t: Topology, s: number, channels: Int32Array, hops: number): number {
  let cur = s;
  for (let i = 0; i < hops; i++) {
    expect(t.chSrc[channels[i]]).toBe(cur);
    cur = t.chDst[channels[i]];
  }
  return cur;
}

describe('dimension-order routing', () => {
  const cases: Array<[string, Topology]> = [
    ['torus 8x8', torus([8, 8])],
    ['torus 5x4x2', torus([5, 4, 2])],
    ['mesh 4x3x3', mesh([4, 3, 3])],
    ['torus 3x6', torus([3, 6])],
  ];
  for (const [label, t] of cases) {
    for (const tie of ['positive', 'split', 'parity', 'random'] as const) {
      it(`${label}, tie=${tie}: every route is a connected path ending at the destination with minimal hops`, () => {
        const r = dimensionOrderRouting(t, { tie, seed: 7 });
        const buf = makeRouteBuffers(r.maxHops);
        for (let s = 0; s < t.numNodes; s++) {
          for (let d = 0; d < t.numNodes; d++) {
            const hops = r.route(s, d, s * 31 + d, buf);
            expect(hops).toBe(minimalHops(t, s, d));
            expect(walk(t, s, buf.channels, hops)).toBe(d);
            expect(hops).toBeLessThanOrEqual(r.maxHops);
          }
        }
      });
    }
  }

  it('resolves dimensions in the given order', () => {
    const t = torus([8, 8]);
    const r = dimensionOrderRouting(t, { order: [1, 0] });
    const buf = makeRouteBuffers(r.maxHops);
    // (0,0) -> (2,3): y first (3 hops of class y+), then x (2 hops of x+).
    const hops = r.route(0, 2 + 8 * 3, 0, buf);
    const classes = Array.from(buf.channels.subarray(0, hops), (c) => t.className(c));
    expect(classes).toEqual(['y+', 'y+', 'y+', 'x+', 'x+']);
    expect(() => dimensionOrderRouting(t, { order: [0, 0] })).toThrow(/routing.order/);
  });

  it('tie modes at exactly k/2 behave as documented', () => {
    const t = torus([8, 8]);
    const dirOf = (r: ReturnType<typeof dimensionOrderRouting>, s: number, d: number, salt: number): string => {
      const buf = makeRouteBuffers(r.maxHops);
      r.route(s, d, salt, buf);
      return t.className(buf.channels[0]);
    };
    // positive: always x+ at distance 4.
    const pos = dimensionOrderRouting(t, { tie: 'positive' });
    for (let x = 0; x < 8; x++) expect(dirOf(pos, x, (x + 4) % 8, 0)).toBe('x+');
    // parity: even source coordinate goes +, odd goes −.
    const par = dimensionOrderRouting(t, { tie: 'parity' });
    for (let x = 0; x < 8; x++) expect(dirOf(par, x, (x + 4) % 8, 0)).toBe(x % 2 === 0 ? 'x+' : 'x-');
    // split: deterministic per pair (salt-independent), and roughly half of the tied pairs each way.
    const split = dimensionOrderRouting(t, { tie: 'split' });
    let plus = 0;
    let total = 0;
    for (let s = 0; s < 64; s++) {
      for (let y = 0; y < 8; y++) {
        const d = ((t.coord(s, 0) + 4) % 8) + 8 * y;
        const a = dirOf(split, s, d, 1);
        expect(dirOf(split, s, d, 999)).toBe(a);
        if (a === 'x+') plus++;
        total++;
      }
    }
    expect(plus / total).toBeGreaterThan(0.4);
    expect(plus / total).toBeLessThan(0.6);
    // random: depends on the per-packet salt (both directions occur for one pair), reproducible per salt.
    const rnd = dimensionOrderRouting(t, { tie: 'random', seed: 3 });
    const seen = new Set<string>();
    for (let salt = 0; salt < 64; salt++) {
      const a = dirOf(rnd, 0, 4, salt);
      expect(dirOf(rnd, 0, 4, salt)).toBe(a);
      seen.add(a);
    }
    expect([...seen].sort()).toEqual(['x+', 'x-']);
  });

  it('fixes VC class 1 for a whole dimension exactly when the remaining path crosses the k-1 -> 0 wrap link', () => {
    const t = torus([8, 8]);
    const r = dimensionOrderRouting(t);
    expect(r.vcClasses).toBe(2);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 63 }), fc.integer(), (s, d, salt) => {
        const buf = makeRouteBuffers(r.maxHops);
        const hops = r.route(s, d, salt, buf);
        // Group the hops by dimension; within a dimension the class is constant and equals "crosses wrap".
        let i = 0;
        while (i < hops) {
          const axis = t.className(buf.channels[i])[0];
          let j = i;
          let crosses = false;
          while (j < hops && t.className(buf.channels[j])[0] === axis) {
            const c = buf.channels[j];
            const dim = axis === 'x' ? 0 : 1;
            const a = t.coord(t.chSrc[c], dim);
            const b = t.coord(t.chDst[c], dim);
            if ((a === 7 && b === 0) || (a === 0 && b === 7)) crosses = true;
            j++;
          }
          for (let h = i; h < j; h++) expect(buf.vcClass[h]).toBe(crosses ? 1 : 0);
          i = j;
        }
      }),
    );
  });

  it('needs no VC classes on a mesh', () => {
    const t = mesh([4, 4]);
    const r = dimensionOrderRouting(t);
    expect(r.vcClasses).toBe(1);
    const buf = makeRouteBuffers(r.maxHops);
    const hops = r.route(0, 15, 0, buf);
    expect(hops).toBe(6);
    expect(Array.from(buf.vcClass.subarray(0, hops))).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('tie = simgrid (SimGrid TorusZone)', () => {
  /**
   * SimGrid 3.32 TorusZone::get_local_route, transcribed: dimension j in order, the direction from
   * the *source* coordinate m to the target t; + when t is right of m within k/2, or when m > k/2 and
   * the wrap-around reaches t within k/2; − otherwise.
   */
  function simgridPath(dims: number[], src: number, dst: number): number[] {
    const coord = (id: number, j: number): number => Math.floor(id / dims.slice(0, j).reduce((a, b) => a * b, 1)) % dims[j];
    const path: number[] = [];
    let cur = src;
    while (cur !== dst) {
      let product = 1;
      for (let j = 0; j < dims.length; j++) {
        const k = dims[j];
        if (coord(cur, j) !== coord(dst, j)) {
          const m = coord(src, j);
          const t = coord(dst, j);
          const plus = (t > m && t <= m + Math.floor(k / 2)) || (m > Math.floor(k / 2) && (m + Math.floor(k / 2)) % k >= t);
          const x = coord(cur, j);
          if (plus) cur = x === k - 1 ? cur + product - product * k : cur + product;
          else cur = x === 0 ? cur - product + product * k : cur - product;
          break;
        }
        product *= k;
      }
      path.push(cur);
    }
    return path;
  }

  it('routes every pair exactly as SimGrid on 4x4x4, 6x5 and 8x3 tori (the k/2 tie goes + except from coordinate k/2, which goes −)', () => {
    for (const dims of [[4, 4, 4], [6, 5], [8, 3]]) {
      const topo = torus(dims);
      const routing = dimensionOrderRouting(topo, { tie: 'simgrid' });
      const buf = makeRouteBuffers(64);
      for (let s = 0; s < topo.numEndpoints; s++) {
        for (let d = 0; d < topo.numEndpoints; d++) {
          const hops = routing.route(s, d, 0, buf);
          const nodes = Array.from(buf.channels.subarray(0, hops), (c) => topo.chDst[c]);
          expect(nodes).toEqual(simgridPath(dims, s, d));
        }
      }
    }
  });
});

describe("dimension order's draws at a turn (BookSim's dor_next_torus)", () => {
  /** The node at coordinates xy of a 2-D torus. */
  const nodeAt = (t: Topology, [x, y]: number[]): number => {
    for (let v = 0; v < t.numNodes; v++) if (t.coord(v, 0) === x && t.coord(v, 1) === y) return v;
    throw new Error(`no node at ${x},${y}`);
  };

  /** A stream that hands out the given integers (BookSim's RandomInt(1) results) in order. */
  const scripted = (values: number[]) => {
    const drawn: number[] = [];
    return { drawn, stream: { next: () => 0, int: (n: number) => (drawn.push(n), values[drawn.length - 1]) } };
  };

  it('draws the side of a k/2 tie where the head turns into the dimension, and rewrites that dimension', () => {
    const t = torus([8, 8]);
    const r = dimensionOrderRouting(t, { tie: 'random', seed: 1, dateline: 'booksim' });
    const src = nodeAt(t, [0, 0]);
    const dst = nodeAt(t, [4, 4]);
    for (const side of [0, 1]) {
      const buf = makeRouteBuffers(r.maxHops);
      const hops = r.route(src, dst, 3, buf);
      const { drawn, stream } = scripted([side, side]);
      // At the source (from injection), then at the turn into dimension 1 after four hops.
      expect(r.drawAtTurn!(src, -1, dst, buf.channels, buf.vcClass, 0, hops, stream)).toBe(hops);
      expect(r.drawAtTurn!(t.chDst[buf.channels[3]], buf.channels[3], dst, buf.channels, buf.vcClass, 4, hops, stream)).toBe(hops);
      expect(drawn).toEqual([2, 2]);
      expect(walk(t, src, buf.channels, hops)).toBe(dst);
      // RandomInt(1) = 1 takes the + side (BookSim's "Right"), 0 the − side.
      for (let h = 0; h < hops; h++) expect(t.className(buf.channels[h]).endsWith('-'), `hop ${h}`).toBe(side === 0);
    }
  });

  it('draws nothing mid-dimension or without a tie (the route stays as computed)', () => {
    const t = torus([8, 8]);
    const r = dimensionOrderRouting(t, { tie: 'random', seed: 1, dateline: 'booksim' });
    const src = nodeAt(t, [0, 0]);
    const dst = nodeAt(t, [4, 2]);
    const buf = makeRouteBuffers(r.maxHops);
    const hops = r.route(src, dst, 3, buf);
    const before = Array.from(buf.channels.subarray(0, hops));
    const { drawn, stream } = scripted([]);
    r.drawAtTurn!(t.chDst[buf.channels[0]], buf.channels[0], dst, buf.channels, buf.vcClass, 1, hops, stream);
    r.drawAtTurn!(t.chDst[buf.channels[3]], buf.channels[3], dst, buf.channels, buf.vcClass, 4, hops, stream);
    // At the destination there is no hop left to draw for.
    r.drawAtTurn!(dst, buf.channels[hops - 1], dst, buf.channels, buf.vcClass, hops, hops, stream);
    expect(drawn).toEqual([]);
    expect(Array.from(buf.channels.subarray(0, hops))).toEqual(before);
    expect(dimensionOrderRouting(t, { tie: 'positive' }).drawAtTurn).toBeUndefined();
  });
});
