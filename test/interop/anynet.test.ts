/** BookSim anynet files: parse, refuse bad lines, round trip Meshwork topologies, and the packet engine on an exported file. */
import { describe, expect, test } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import '../../src/topology/index.js';
import { InputError } from '../../src/util/errors.js';
import { anynetTopology, parseAnynet, topologyToAnynet } from '../../src/interop/anynet.js';
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
