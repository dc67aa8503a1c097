/**
 * BookSim 2.0's cmesh routing functions (src/networks/cmesh.cpp), on `cmesh:k=K` (topology/cmesh.ts):
 * - `cmesh-dor` (`dor_cmesh`): dimension order, x then y, taking an edge's express channel when the
 *   distance left in the dimension is at least K/2 and the router sits on the edge that has it (the
 *   bottom or top row for x, the left or right column for y). Every VC (one class).
 * - `cmesh-dor-no-express` (`dor_no_express_cmesh`): plain x-then-y dimension order. Every VC.
 * - `cmesh-xy-yx` (`xy_yx_cmesh`): per packet a fair coin at its first router picks x-then-y (class 0,
 *   the lower half of the VCs) or y-then-x (class 1, the upper half); express channels taken as in
 *   BookSim's cmesh_xy / cmesh_yx, whose test is a distance above 1 (not K/2 − 1), which is the same
 *   as dor_cmesh's at K = 4 and sends packets away from their destination at larger K (a packet
 *   3 columns from its destination on the bottom row of a 6×6 cmesh jumps to the far side and back
 *   forever), so it is refused there.
 * - `cmesh-xy-yx-no-express` (`xy_yx_no_express_cmesh`): the same coin without express channels.
 * The ejection hop takes every VC (BookSim forwards to the processing element with the whole range).
 * Each route is dimension order on its own class, the express hops of a dimension moving along that
 * dimension only before its mesh hops, so every routing is deadlock free on its classes.
 */
import { InputError } from '../util/errors.js';
import { hash32, type RandomStream } from '../util/rng.js';
import { NodeKind, type Topology } from '../topology/graph.js';
import type { RoutingEntry } from './registry.js';
import { atFirstRouter, endsInTerminal } from './turn-draws.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export type CMeshRoutingKind = 'cmesh-dor' | 'cmesh-dor-no-express' | 'cmesh-xy-yx' | 'cmesh-xy-yx-no-express';

const [PX, NX, PY, NY] = [0, 1, 2, 3];

/**
 * The direction BookSim takes from router (cx, cy) towards (dx, dy), one dimension first (x when
 * `xFirst`): the mesh port along the distance, or the edge's express port when the distance exceeds
 * `expressOver` (Infinity: never).
 */
function nextPort(k: number, cx: number, cy: number, dx: number, dy: number, xFirst: boolean, expressOver: number): number {
  const alongX = (): number => {
    if (cx - dx > expressOver || dx - cx > expressOver) {
      if (cy === 0) return NY;
      if (cy === k - 1) return PY;
    }
    return cx < dx ? PX : NX;
  };
  const alongY = (): number => {
    if (cy - dy > expressOver || dy - cy > expressOver) {
      if (cx === 0) return NX;
      if (cx === k - 1) return PX;
    }
    return cy < dy ? PY : NY;
  };
  if (xFirst) return cx !== dx ? alongX() : alongY();
  return cy !== dy ? alongY() : alongX();
}

export function cmeshRouting(topology: Topology, kind: CMeshRoutingKind, seedOption = 1): RoutingFunction {
  const t = topology;
  const k = (t.params as { k?: unknown }).k;
  if (t.family !== 'cmesh' || typeof k !== 'number') throw new InputError('routing', `${kind} on ${t.family}`, 'a cmesh topology (BookSim defines it on cmesh only)');
  const express = !kind.endsWith('no-express');
  const coin = kind.startsWith('cmesh-xy-yx');
  if (coin && express && k !== 4) {
    throw new InputError('routing', `${kind} on cmesh k = ${k}`, 'k = 4, or cmesh-xy-yx-no-express (BookSim\'s xy_yx_cmesh takes express channels at any distance above 1: at k > 4 packets jump past their destination and back forever)');
  }
  // BookSim's thresholds: cmesh_next (dor) K/2 − 1, cmesh_xy / cmesh_yx 1 (the same at K = 4).
  const expressOver = !express ? Infinity : coin ? 1 : k / 2 - 1;
  const seed = seedOption >>> 0;
  const routers = k * k;
  const terminals = t.numEndpoints;
  // The channel out of router r in each direction (+x, -x, +y, -y), from its port order (cmesh.ts).
  const portChannel = new Int32Array(4 * routers);
  for (let r = 0; r < routers; r++) {
    const node = terminals + r;
    let d = 0;
    for (let i = t.outStart[node]; i < t.outStart[node + 1]; i++) {
      const c = t.outChannels[i];
      if (t.nodeKind[t.chDst[c]] === NodeKind.Switch) portChannel[4 * r + d++] = c;
    }
    if (d !== 4) throw new Error(`cmesh router ${r} has ${d} network ports, not 4`);
  }
  const routerOf = (v: number): number => (t.nodeKind[v] === NodeKind.Terminal ? t.chDst[t.outChannels[t.outStart[v]]] : v) - terminals;
  const maxHops = 2 * k + 2;
  /** The hops from router `r` to node dst's router, then to dst if it is a terminal, on class cls, written at `at`; returns the end. */
  const routersThenTerminal = (r: number, dst: number, cls: number, channels: Int32Array, classes: Uint8Array, at: number): number => {
    const to = routerOf(dst);
    const [dx, dy] = [to % k, Math.floor(to / k)];
    let h = at;
    while (r !== to) {
      if (h - at >= maxHops - 1) throw new Error(`${kind}: no route from router ${r} to ${to} within ${maxHops} hops`);
      const c = portChannel[4 * r + nextPort(k, r % k, Math.floor(r / k), dx, dy, cls === 0, expressOver)];
      channels[h] = c;
      classes[h++] = cls;
      r = t.chDst[c] - terminals;
    }
    if (t.nodeKind[dst] === NodeKind.Terminal) {
      channels[h] = t.channelBetween(terminals + to, dst);
      classes[h++] = cls;
    }
    return h;
  };
  /**
   * xy_yx_cmesh's own draw, `RandomInt(1) > 0` for XY, at the packet's first router (the head in on
   * a terminal port, `in_channel < gC`), unless that router is its destination's.
   */
  const drawAtTurn = (node: number, prev: number, dst: number, channels: Int32Array, classes: Uint8Array, at: number, end: number, stream: RandomStream): number => {
    if (!atFirstRouter(t, node, prev) || node - terminals === routerOf(dst)) return end;
    const yFirst = stream.int(2) > 0 ? 0 : 1;
    const toTerminal = endsInTerminal(t, dst, channels, at, end);
    const h = routersThenTerminal(node - terminals, dst, yFirst, channels, classes, at);
    return toTerminal || t.nodeKind[dst] !== NodeKind.Terminal ? h : h - 1;
  };
  return {
    name: `${kind}(booksim)`,
    params: {
      routing: kind,
      booksim: { 'cmesh-dor': 'dor_cmesh', 'cmesh-dor-no-express': 'dor_no_express_cmesh', 'cmesh-xy-yx': 'xy_yx_cmesh', 'cmesh-xy-yx-no-express': 'xy_yx_no_express_cmesh' }[kind],
      express: express ? `when the distance in the dimension is above ${expressOver}, from the edge that has one` : 'never',
      ...(coin ? { seed, order: 'XY (class 0) or YX (class 1), a fair coin per packet' } : {}),
      ejection: 'every VC',
    },
    vcClasses: coin ? 2 : 1,
    deadlockFree: true,
    ejectAnyVc: true,
    maxHops,
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      const yFirst = coin ? hash32(salt, seed, 0x79) & 1 : 0;
      let h = 0;
      if (t.nodeKind[src] === NodeKind.Terminal) {
        out.channels[h] = t.outChannels[t.outStart[src]];
        out.vcClass[h++] = yFirst;
      }
      return routersThenTerminal(routerOf(src), dst, yFirst, out.channels, out.vcClass, h);
    },
    ...(coin ? { drawAtTurn } : {}),
  };
}
function entry(name: CMeshRoutingKind, description: string): RoutingEntry {
  return { name, description, create: (topology, opts) => cmeshRouting(topology, name, opts.seed) };
}

export const cmeshDorEntry = entry('cmesh-dor', "BookSim's dor_cmesh: x-then-y dimension order with the edges' express channels, every VC");
export const cmeshDorNoExpressEntry = entry('cmesh-dor-no-express', "BookSim's dor_no_express_cmesh: x-then-y dimension order on the mesh channels, every VC");
export const cmeshXyYxEntry = entry('cmesh-xy-yx', "BookSim's xy_yx_cmesh (k = 4): XY or YX per packet with express channels, one VC class each");
export const cmeshXyYxNoExpressEntry = entry('cmesh-xy-yx-no-express', "BookSim's xy_yx_no_express_cmesh: XY or YX per packet on the mesh channels, one VC class each");
