/**
 * `cmesh:k=K` against BookSim 2.0's src/networks/cmesh.cpp (@ 28f43299), transcribed here from its
 * own formulas: the channel ids of _BuildNet (router r's outputs r + d·K² for d = +x, −x, +y, −y and
 * its inputs px_in, nx_in, py_in, ny_in with the express rewiring at the edges), its terminal
 * numbering (`link`, NodeToRouter, NodeToPort) and the routes of cmesh_next / cmesh_xy.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, familyOf, InputError, NodeKind, resolveRouting, type Topology } from '../../src/index.js';
import { makeRouteBuffers } from '../../src/routing/types.js';
import { assertConsistent } from './graph-checks.js';

/** BookSim's input channel ids of router (x, y), in port order +x, −x, +y, −y (cmesh.cpp _BuildNet). */
function bookSimInputs(k: number, x: number, y: number): number[] {
  const o = k * k;
  const h = k / 2;
  let px = k * y + (x + 1) + o;
  let nx = k * y + (x - 1);
  let py = k * (y + 1) + x + 3 * o;
  let ny = k * (y - 1) + x + 2 * o;
  if (x === 0) nx = k * (y < h ? y + h : y - h) + x + o;
  if (x === k - 1) px = k * (y < h ? y + h : y - h) + x;
  if (y === 0) ny = k * y + (x < h ? x + h : x - h) + 3 * o;
  if (y === k - 1) py = k * y + (x < h ? x + h : x - h) + 2 * o;
  return [px, nx, py, ny];
}

/** Router r's network out-channels in port order, and the router (0-based) each leads to. */
function networkPorts(t: Topology, r: number): { channel: number; to: number }[] {
  const node = t.numEndpoints + r;
  const ports: { channel: number; to: number }[] = [];
  for (let i = t.outStart[node]; i < t.outStart[node + 1]; i++) {
    const c = t.outChannels[i];
    if (t.nodeKind[t.chDst[c]] === NodeKind.Switch) ports.push({ channel: c, to: t.chDst[c] - t.numEndpoints });
  }
  return ports;
}

describe('cmesh: BookSim concentrated mesh', () => {
  for (const k of [4, 6, 8]) {
    it(`k = ${k}: every router's +x, -x, +y, -y output leads where BookSim's channel ids wire it, express classes on the edges`, () => {
      const t = buildTopology(`cmesh:k=${k}`);
      assertConsistent(t);
      expect(t.numEndpoints).toBe(4 * k * k);
      // Which router reads each of BookSim's channel ids.
      const reader = new Map<number, number>();
      for (let r = 0; r < k * k; r++) for (const ch of bookSimInputs(k, r % k, Math.floor(r / k))) reader.set(ch, r);
      expect(reader.size).toBe(4 * k * k);
      let express = 0;
      for (let r = 0; r < k * k; r++) {
        const ports = networkPorts(t, r);
        expect(ports.map((p) => p.to), `router ${r}`).toEqual([0, 1, 2, 3].map((d) => reader.get(r + d * k * k)));
        for (const p of ports) {
          const [x, y, tx, ty] = [r % k, Math.floor(r / k), p.to % k, Math.floor(p.to / k)];
          const isExpress = Math.abs(x - tx) + Math.abs(y - ty) !== 1;
          expect(t.className(p.channel)).toBe(isExpress ? 'express' : 'mesh');
          if (isExpress) express++;
        }
      }
      // Four edges of k/2 express links, a channel each way.
      expect(express).toBe(4 * k);
    });
  }

  it("ranks are BookSim's terminal ids: rank L sits on router NodeToRouter(L) at port NodeToPort(L)", () => {
    const k = 4;
    const t = buildTopology('cmesh:k=4');
    for (let L = 0; L < 4 * k * k; L++) {
      const node = t.endpoints[L];
      const c = t.outChannels[t.outStart[node]];
      const router = t.chDst[c] - t.numEndpoints;
      expect(router, `terminal ${L}`).toBe(Math.floor(Math.floor(L / (2 * k)) / 2) * k + Math.floor((L % (2 * k)) / 2));
      // The router's port to it: NodeToPort = (c/2)·y + x with x = L & 1, y = (L / 2k) & 1.
      expect(t.chSrcPort[t.channelBetween(t.numEndpoints + router, node)]).toBe(2 * (Math.floor(L / (2 * k)) & 1) + (L & 1));
    }
  });

  it("declares BookSim's port numbers: terminals 0-3 by NodeToPort, then px_in, nx_in, py_in, ny_in; outputs the topology's", () => {
    for (const k of [4, 6]) {
      const t = buildTopology(`cmesh:k=${k}`);
      const ports = familyOf(t)!.booksimPorts!(t);
      const R0 = t.numEndpoints;
      for (let r = 0; r < k * k; r++) {
        // BookSim's channel id is its source router's output d: the router is the id mod K².
        bookSimInputs(k, r % k, Math.floor(r / k)).forEach((id, d) => {
          const c = t.channelBetween(R0 + (id % (k * k)), R0 + r);
          expect(ports.inPort[c], `router ${r} input ${d}`).toBe(4 + d);
        });
        for (let i = t.inStart[R0 + r]; i < t.inStart[R0 + r + 1]; i++) {
          const c = t.inChannels[i];
          if (t.className(c) === 'terminal') expect(ports.inPort[c]).toBe(t.chSrcPort[t.channelBetween(R0 + r, t.chSrc[c])]);
        }
        for (let i = t.outStart[R0 + r]; i < t.outStart[R0 + r + 1]; i++) expect(ports.outPort[t.outChannels[i]]).toBe(t.chSrcPort[t.outChannels[i]]);
      }
    }
  });

  it('refuses odd and small k, naming the field', () => {
    expect(() => buildTopology('cmesh:k=5')).toThrow(InputError);
    expect(() => buildTopology('cmesh:k=2')).toThrow(/k/);
  });
});

describe('cmesh routings: the routes of BookSim dor_cmesh, dor_no_express_cmesh, xy_yx_cmesh', () => {
  const buffers = makeRouteBuffers(64);
  const routerOfRank = (t: Topology, L: number): number => t.chDst[t.outChannels[t.outStart[t.endpoints[L]]]] - t.numEndpoints;
  /** A terminal (its node) on router r. */
  const terminalOn = (t: Topology, r: number): number => t.endpoints[Array.from({ length: t.numEndpoints }, (_, L) => L).find((L) => routerOfRank(t, L) === r)!];
  /** Routers visited from a terminal of router a to one of router b, and the classes of the channels between routers. */
  const path = (t: Topology, routing: string, a: number, b: number, salt = 0): { routers: number[]; classes: string[]; vc: number[] } => {
    const r = resolveRouting(t, { routing });
    const h = r.route(terminalOn(t, a), terminalOn(t, b), salt, buffers);
    const routers: number[] = [];
    const classes: string[] = [];
    const vc: number[] = [];
    for (let i = 0; i < h; i++) {
      const c = buffers.channels[i];
      vc.push(buffers.vcClass[i]);
      if (t.nodeKind[t.chDst[c]] === NodeKind.Switch) routers.push(t.chDst[c] - t.numEndpoints);
      if (t.nodeKind[t.chSrc[c]] === NodeKind.Switch && t.nodeKind[t.chDst[c]] === NodeKind.Switch) classes.push(t.className(c));
    }
    return { routers, classes, vc };
  };
  it('dor: (0,0) to (3,3) on k = 4 takes the bottom express to (2,0), +x, the right express to (3,2), +y (cmesh_next)', () => {
    const t = buildTopology('cmesh:k=4');
    const r = resolveRouting(t, { routing: 'cmesh-dor' });
    const h = r.route(terminalOn(t, 0), terminalOn(t, 15), 0, buffers);
    const routers = Array.from(buffers.channels.subarray(0, h)).map((c) => t.chDst[c] - t.numEndpoints).slice(0, -1);
    expect(routers).toEqual([0, 2, 3, 11, 15]);
    expect(r.vcClasses).toBe(1);
    // No express channel: plain x then y.
    const plain = resolveRouting(t, { routing: 'cmesh-dor-no-express' });
    const hp = plain.route(terminalOn(t, 0), terminalOn(t, 15), 0, buffers);
    expect(Array.from(buffers.channels.subarray(0, hp)).map((c) => t.chDst[c] - t.numEndpoints).slice(0, -1)).toEqual([0, 1, 2, 3, 7, 11, 15]);
    expect(path(t, 'cmesh-dor-no-express', 0, 15).classes.every((c) => c === 'mesh')).toBe(true);
  });

  it('dor on k = 8 takes an express channel only at a distance of k/2 or more (threshold k/2 - 1)', () => {
    const t = buildTopology('cmesh:k=8');
    expect(path(t, 'cmesh-dor', 0, 3).classes).toEqual(['mesh', 'mesh', 'mesh']);
    expect(path(t, 'cmesh-dor', 0, 4).classes).toEqual(['express']);
    expect(path(t, 'cmesh-dor', 0, 6).classes).toEqual(['express', 'mesh', 'mesh']);
    // Off the edge rows no express channel exists: (0,1) to (7,1) is seven mesh hops.
    expect(path(t, 'cmesh-dor', 8, 15).classes).toHaveLength(7);
  });

  it('xy_yx: a coin per packet picks XY on class 0 or YX on class 1; k > 4 with express channels is refused (BookSim livelocks)', () => {
    const t = buildTopology('cmesh:k=4');
    const seen = new Set<string>();
    for (let salt = 0; salt < 64; salt++) {
      const p = path(t, 'cmesh-xy-yx', 5, 10, salt);
      // (1,1) to (2,2): XY goes through (2,1) = router 6, YX through (1,2) = router 9, each on one class.
      const order = p.routers[1] === 6 ? 'xy' : 'yx';
      expect(p.routers).toEqual(order === 'xy' ? [5, 6, 10] : [5, 9, 10]);
      expect(new Set(p.vc)).toEqual(new Set([order === 'xy' ? 0 : 1]));
      seen.add(order);
    }
    expect(seen).toEqual(new Set(['xy', 'yx']));
    expect(() => resolveRouting(buildTopology('cmesh:k=6'), { routing: 'cmesh-xy-yx' })).toThrow(/k = 4, or cmesh-xy-yx-no-express/);
    expect(path(buildTopology('cmesh:k=6'), 'cmesh-xy-yx-no-express', 0, 5).classes).toHaveLength(5);
  });

  it('refuses a cmesh routing on another family', () => {
    expect(() => resolveRouting(buildTopology('mesh:4x4'), { routing: 'cmesh-dor' })).toThrow(/a cmesh topology/);
  });
});
