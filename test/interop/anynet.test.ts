/** BookSim anynet files: parse, refuse bad lines, round trip Meshwork topologies, and the packet engine on an exported file. */
import { describe, expect, test } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import '../../src/topology/index.js';
import { InputError } from '../../src/util/errors.js';
import { anynetTopology, bookSimAnynetTopology, parseAnynet, parseBookSimAnynet, topologyToAnynet } from '../../src/interop/anynet.js';
import { anynetMinRouting } from '../../src/routing/anynet-min.js';
import { simulateTraffic } from '../../src/sim/packet/traffic-run.js';
import type { Topology } from '../../src/topology/graph.js';
import type { HorizonPoint } from '../../src/sim/packet/traffic-run.js';

const reimport = (t: Topology): Topology => anynetTopology(parseAnynet(topologyToAnynet(t)), { latency: t.chLatency[0], bandwidth: t.chBandwidth[0] }, 'anynet:test');

describe('anynet', () => {
  test('BookSim\'s own style of file: 2 routers of 2 nodes, one link of latency 3 (listed on both lines)', () => {
    const g = parseAnynet('router 0 node 0 node 1 router 1 3\nrouter 1 node 2 node 3 router 0 3\n');
    expect(g.routers).toBe(2);
    expect(Array.from(g.nodeRouter)).toEqual([0, 0, 1, 1]);
    expect(g.links).toEqual([[0, 1, 3]]);
    const t = anynetTopology(g, { latency: 1e-9 }, 'anynet:x');
    // 2 switches + 4 terminals; 1 router link and 4 host links, both directions.
    expect([t.numNodes, t.numChannels, t.numEndpoints]).toEqual([6, 10, 4]);
    expect(Math.max(...t.chLatency)).toBeCloseTo(3e-9, 15);
  });

  // A switch with exactly one terminal reads back as that terminal (dragonfly:h=1 does not round trip).
  test.each(['torus:4x4', 'mesh:3x5', 'fattree:k=4,levels=2', 'dragonfly:h=2'])('%s round trips: nodes, channels, endpoints, switch count, links', (spec) => {
    const t = buildTopology(spec);
    const back = reimport(t);
    const switches = (x: Topology): number => x.nodeKind.filter((k) => k === 1).length;
    expect([back.numNodes, back.numChannels, back.numEndpoints, switches(back)]).toEqual([t.numNodes, t.numChannels, t.numEndpoints, switches(t)]);
    const links = (x: Topology): string[] => parseAnynet(topologyToAnynet(x)).links.map((l) => l.join(' ')).sort();
    expect(links(back)).toEqual(links(t));
  });

  test('the packet engine on an exported torus:4x4 matches the native torus at low load (shortest-path routing on both)', () => {
    const native = buildTopology('torus:4x4');
    const run = (t: Topology): HorizonPoint => simulateTraffic({ topology: t, pattern: 'uniform', rates: [0.05], preset: 'default', routingName: 'shortest', measurement: 'horizon', horizon: 4000 }).points[0] as HorizonPoint;
    const a = run(native);
    const b = run(reimport(native));
    expect(a.delivered).toBeGreaterThan(1000);
    expect(b.hops!).toBeCloseTo(a.hops!, 1);
    expect(Math.abs(b.meanLatency! - a.meanLatency!) / a.meanLatency!).toBeLessThan(0.05);
  });

  test.each([
    ['a line not starting with router', 'node 0 router 1', /^anynet\.line\[1\]: got "node"; accepted: "router R" at the start of the line$/],
    ['an unknown token', 'router 0 node 0 switch 1', /^anynet\.line\[1\]\.token\[5\]: got "switch"; accepted: "node N" or "router R"/],
    ['a node on two routers', 'router 0 node 0\nrouter 1 node 0 router 0', /^anynet\.line\[2\]\.node: got 0; accepted: a node attached to one router \(node 0 is already on router 0\)$/],
    ['a gap in node ids', 'router 0 node 0 node 2', /^anynet\.node: got 1; accepted: node ids 0\.\.1 without gaps/],
    ['conflicting latencies', 'router 0 node 0 router 1 2\nrouter 1 node 1 router 0 3', /^anynet\.line\[2\]\.latency: got 3; accepted: 2, the latency the link 0,1 was given before$/],
  ])('%s is refused in one line', (_what, text, message) => {
    expect(() => parseAnynet(text)).toThrow(InputError);
    expect(() => parseAnynet(text)).toThrow(message);
  });
});

describe('anynet as BookSim 2.0 reads it (model=booksim; anynet.cpp @ 28f43299)', () => {
  const grid = (first: string) =>
    [first, 'router 1 node 2 router 2 router 4', 'router 2 node 3 router 5', 'router 3 node 4 router 4 router 6', 'router 4 node 5 router 5 router 7', 'router 5 node 6 router 8', 'router 6 node 7 router 7', 'router 7 node 8 router 8', 'router 8 node 9'].join('\n');

  test('channel latencies are per direction: an unlisted way back is 1 cycle, a later mention sets its own direction again', () => {
    const g = parseBookSimAnynet('router 0 node 0 router 1 5\nrouter 1 node 1 router 2 3\nrouter 2 node 2 router 1 4\nrouter 0 router 1');
    expect(g.routers).toBe(3);
    expect([...g.nodeRouter]).toEqual([0, 1, 2]);
    // 0 -> 1 was 5, then reset to 1 by the last line; 1 -> 0 created at 1; 1 -> 2 is 3, 2 -> 1 is 4.
    expect(g.channels).toEqual([
      [0, 1, 1],
      [1, 0, 1],
      [1, 2, 3],
      [2, 1, 4],
    ]);
    const t = bookSimAnynetTopology(parseBookSimAnynet('router 0 node 0 router 1 5\nrouter 1 node 1'), { latency: 1e-9 }, 'x');
    // Every router is a router, even with one node: 2 switches and 2 terminals.
    expect(t.numNodes).toBe(4);
    expect(t.chLatency[t.channelBetween(0, 1)]).toBeCloseTo(5e-9, 18);
    expect(t.chLatency[t.channelBetween(1, 0)]).toBeCloseTo(1e-9, 18);
    expect(t.params.booksimChannelLatency).toEqual({ 'host-up': 1, 'host-down': 1, 'link-5': 5, link: 1 });
  });

  test('what BookSim would misread or crash on is refused in one line', () => {
    expect(() => parseBookSimAnynet('router 0 node 0 2 router 1\nrouter 1 node 1')).toThrow(/nothing after "node 0" \(BookSim 2\.0 reads it as the latency of a channel from router 0 to router 0/);
    expect(() => parseBookSimAnynet('router 0 node 0 router 2\nrouter 2 node 1')).toThrow(/router ids 0\.\.1 without gaps \(router 1 is missing/);
    expect(() => parseBookSimAnynet('router 0 router 1\nrouter 1')).toThrow(InputError);
  });

  test("min routing is BookSim's Dijkstra: the lowest router id wins a tie, latencies count, not hops", () => {
    const routeOf = (text: string, from: number, to: number): number[] => {
      const t = bookSimAnynetTopology(parseBookSimAnynet(text), {}, 'grid');
      const out = { channels: new Int32Array(16), vcClass: new Uint8Array(16) };
      const hops = anynetMinRouting(t).route(t.endpoints[from], t.endpoints[to], 7, out);
      // The routers the packet crosses, in order.
      return Array.from(out.channels.subarray(0, hops - 1), (c) => t.chDst[c]);
    };
    // All channels 1 cycle: 0 -> 4 ties between 0-1-4 and 0-3-4; router 1 is finalised first and keeps 4.
    expect(routeOf(grid('router 0 node 0 node 1 router 1 router 3'), 0, 5)).toEqual([0, 1, 4]);
    // 0 -> 1 takes 3 cycles: 0-3-4 (2) beats 0-1-4 (4). The way back, 4 -> 0, ties again (1 -> 0 is 1 cycle) and goes by 1.
    expect(routeOf(grid('router 0 node 0 node 1 router 1 3 router 3'), 0, 5)).toEqual([0, 3, 4]);
    expect(routeOf(grid('router 0 node 0 node 1 router 1 3 router 3'), 5, 0)).toEqual([4, 1, 0]);
    // Two cheap hops beat one dear one: 0 -> 2 through 1 (2 cycles) rather than a direct 3-cycle channel.
    expect(routeOf('router 0 node 0 router 1 router 2 3\nrouter 1 node 1 router 2\nrouter 2 node 2', 0, 2)).toEqual([0, 1, 2]);
    expect(() => anynetMinRouting(bookSimAnynetTopology(parseBookSimAnynet('router 0 node 0\nrouter 1 node 1'), {}, 'x'))).toThrow(/every router reaches every other/);
    expect(() => anynetMinRouting(buildTopology('torus:4x4'))).toThrow(/anynet:PATH,model=booksim/);
  });
});
