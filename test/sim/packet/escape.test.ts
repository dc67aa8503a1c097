import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DeadlockError,
  buildTopology,
  makePattern,
  makeRouteBuffers,
  packetDeadlockFreeRouting,
  presetConfig,
  shortestPathRouting,
  simulateTraffic,
  topologyFromDocument,
  upDownStarRouting,
  type PacketConfig,
  type RoutingFunction,
  type Topology,
} from '../../../src/index.js';
import { PacketNetwork } from '../../../src/sim/packet/network.js';
import { trafficRouting } from '../../../src/sim/packet/traffic-run.js';
import { BernoulliSource } from '../../../src/sim/traffic/sources.js';

/**
 * A small irregular graph as a `file:` document: a 9-node ring with two chords (0–4, 2–6).
 * Shortest paths go around the ring both ways, so wormhole packets can wait on each other in a cycle.
 */
const irregular = topologyFromDocument(
  {
    nodes: 9,
    links: [...Array.from({ length: 9 }, (_, i) => ({ src: i, dst: (i + 1) % 9 })), { src: 0, dst: 4 }, { src: 2, dst: 6 }],
  },
  { name: 'ring9-chords' },
);

/** Saturates the network with long packets and 1-flit-deep single VCs; throws DeadlockError if one forms. */
function saturate(t: Topology, routing: RoutingFunction, cycles: number): PacketNetwork {
  const cfg: PacketConfig = { ...presetConfig('default', t), packetSize: 8, vcBuf: 2, vcs: 1, deadlockCycles: 300 };
  const net = new PacketNetwork(t, routing, cfg);
  const src = new BernoulliSource(makePattern('random', t), 1, 8, t.numEndpoints, 11);
  for (let c = 0; c < cycles; c++) {
    const now = net.now;
    net.step();
    src.generate(net, now);
  }
  return net;
}

/** Shortest legal up*\/down* path length by BFS over (node, phase) states: phase 0 may still go up. */
function shortestLegal(t: Topology, isUp: Uint8Array, src: number, dst: number): number {
  const dist = new Map<number, number>([[src * 2, 0]]);
  let frontier = [src * 2];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const state of frontier) {
      const v = state >> 1;
      const phase = state & 1;
      if (v === dst) return dist.get(state)!;
      for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
        const c = t.outChannels[i];
        if (isUp[c] && phase === 1) continue;
        const s2 = t.chDst[c] * 2 + (isUp[c] ? 0 : 1);
        if (!dist.has(s2)) {
          dist.set(s2, dist.get(state)! + 1);
          next.push(s2);
        }
      }
    }
    frontier = next;
  }
  return -1;
}

describe('escape routing (up*/down*) for custom graphs', () => {
  it('plain shortest-path routing with one VC class deadlocks on the irregular file graph at full load', () => {
    let err: unknown;
    try {
      saturate(irregular, shortestPathRouting(irregular), 20_000);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DeadlockError);
    expect((err as DeadlockError).waitCycle.length).toBeGreaterThanOrEqual(2);
  });

  it('the same load runs without deadlock on up*/down* routes, which the packet engine picks for file graphs', () => {
    const routing = packetDeadlockFreeRouting(irregular, shortestPathRouting(irregular));
    expect(routing.name).toBe('up*/down*(root=0)');
    const net = saturate(irregular, routing, 20_000);
    // Every source keeps injecting: thousands of 8-flit packets delivered, none stuck.
    expect(net.stats.packets).toBeGreaterThan(1000);
    // simulateTraffic on a file graph uses it by default, and records the choice.
    const r = simulateTraffic({ topology: irregular, pattern: 'random', rates: [0.05], preset: 'default', config: { vcs: 1 } });
    expect(r.routing).toBe('up*/down*(root=0)');
    expect(r.routingParams.replaces).toMatch(/shortest-path/);
  });

  it('keeps e-cube on hypercubes and the family routings elsewhere; one-way rings keep shortest paths', () => {
    const cube = buildTopology('hypercube:3');
    expect(packetDeadlockFreeRouting(cube, shortestPathRouting(cube)).name).toMatch(/^shortest-path/);
    const uring = buildTopology('uring:5');
    expect(packetDeadlockFreeRouting(uring, shortestPathRouting(uring)).name).toMatch(/^shortest-path/);
    const ring = buildTopology('ring:6');
    expect(packetDeadlockFreeRouting(ring, shortestPathRouting(ring)).name).toBe('up*/down*(root=0)');
  });

  it('orients a ring as the definition says: levels from root 0, the far links point back up', () => {
    // ring:8 from root 0: levels 0,1,2,3,4,3,2,1. Channel 3 -> 4 goes down (level 3 -> 4), 4 -> 5 up.
    const t = buildTopology('ring:8');
    const r = upDownStarRouting(t);
    expect(Array.from(r.level)).toEqual([0, 1, 2, 3, 4, 3, 2, 1]);
    expect(r.isUp[t.channelBetween(3, 4)]).toBe(0);
    expect(r.isUp[t.channelBetween(4, 5)]).toBe(1);
    // 3 -> 5: the 2-hop shortest path 3-4-5 is down then up (illegal); the legal route climbs to the
    // root and comes down the other side: 3-2-1-0-7-6-5, 6 hops.
    const out = makeRouteBuffers(r.maxHops);
    const h = r.route(3, 5, 0, out);
    const nodes = [3, ...Array.from(out.channels.subarray(0, h), (c) => t.chDst[c])];
    expect(nodes).toEqual([3, 2, 1, 0, 7, 6, 5]);
  });

  it('property: every up*/down* route on a random connected graph is legal, reaches the destination and is the shortest legal path', () => {
    const graph = fc
      .integer({ min: 2, max: 14 })
      .chain((n) =>
        fc.record({
          n: fc.constant(n),
          parents: fc.array(fc.nat(), { minLength: n - 1, maxLength: n - 1 }),
          extra: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 2 * n }),
          root: fc.nat(n - 1),
        }),
      );
    fc.assert(
      fc.property(graph, ({ n, parents, extra, root }) => {
        // A random spanning tree (node i joins an earlier node) plus random extra links: connected.
        const pairs = new Set<string>();
        const links: Array<{ src: number; dst: number }> = [];
        const add = (a: number, b: number): void => {
          if (a === b || pairs.has(`${Math.min(a, b)}-${Math.max(a, b)}`)) return;
          pairs.add(`${Math.min(a, b)}-${Math.max(a, b)}`);
          links.push({ src: a, dst: b });
        };
        for (let i = 1; i < n; i++) add(i, parents[i - 1] % i);
        for (const [a, b] of extra) add(a, b);
        const t = topologyFromDocument({ nodes: n, links }, { name: 'random' });
        const r = upDownStarRouting(t, { root });
        const out = makeRouteBuffers(r.maxHops);
        for (let s = 0; s < n; s++) {
          for (let d = 0; d < n; d++) {
            const h = r.route(s, d, 0, out);
            let v = s;
            let wentDown = false;
            for (let i = 0; i < h; i++) {
              const c = out.channels[i];
              expect(t.chSrc[c]).toBe(v);
              if (r.isUp[c]) expect(wentDown).toBe(false); // no down -> up turn
              else wentDown = true;
              v = t.chDst[c];
            }
            expect(v).toBe(d);
            expect(h).toBe(s === d ? 0 : shortestLegal(t, r.isUp, s, d));
          }
        }
      }),
      { numRuns: 60, seed: 5 },
    );
  });
});

describe('hop-indexed VC classes for minimal dragonfly routes', () => {
  const t = buildTopology('dragonfly:a=4,h=2,p=2');
  const routing = trafficRouting(t, 'default', 1);

  it('class = global channels crossed before the hop; every minimal route fits 3 classes', () => {
    expect(routing.vcClasses).toBe(3);
    const global = t.classNames.indexOf('global');
    const out = makeRouteBuffers(routing.maxHops);
    let sawTwoGlobals = false;
    for (let a = 0; a < t.numEndpoints; a++) {
      for (let b = 0; b < t.numEndpoints; b++) {
        const h = routing.route(t.endpoints[a], t.endpoints[b], 0, out);
        let crossed = 0;
        for (let i = 0; i < h; i++) {
          expect(out.vcClass[i]).toBe(crossed);
          if (t.chClass[out.channels[i]] === global) crossed++;
        }
        if (crossed === 2) sawTwoGlobals = true;
      }
    }
    // With 4 global links per group pair some minimal routes are global-local-global: 3 classes are needed.
    expect(sawTwoGlobals).toBe(true);
  });

  it('runs random traffic at full offered load without deadlock (one class deadlocks), and refuses fewer than 3 VCs', () => {
    const cfg: PacketConfig = { ...presetConfig('default', t), packetSize: 4, vcBuf: 4, vcs: 3, deadlockCycles: 300 };
    const run = (r: RoutingFunction): PacketNetwork => {
      const net = new PacketNetwork(t, r, cfg);
      const src = new BernoulliSource(makePattern('random', t), 1, 4, t.numEndpoints, 3);
      for (let c = 0; c < 4000; c++) {
        const now = net.now;
        net.step();
        src.generate(net, now);
      }
      return net;
    };
    expect(run(routing).stats.packets).toBeGreaterThan(1000);
    // The same routes and 3 VCs, but every hop in one class: a cycle of waiting channels forms.
    const oneClass: RoutingFunction = {
      ...routing,
      vcClasses: 1,
      route: (s, d, salt, out) => {
        const h = routing.route(s, d, salt, out);
        out.vcClass.fill(0, 0, h);
        return h;
      },
    };
    expect(() => run(oneClass)).toThrow(DeadlockError);
    expect(() => simulateTraffic({ topology: t, pattern: 'random', rates: [0.1], preset: 'default' })).toThrow(/minimum 3/);
  });
});
