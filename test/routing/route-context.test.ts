/**
 * Routing gets run-time state explicitly (RouteContext: the engine's load reader and the packet's
 * route hint) instead of engines writing into the routing object. These cases failed before:
 * dragonfly `ugal` read load 0 at packet level (the engine bound `load` only on routings flagged
 * adaptive, which it was not), and a route hint wrapped an adaptive routing in a non-adaptive one.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/index.js';
import { resolveRouting } from '../../src/routing/registry.js';
import { makeRouteBuffers, type RoutingFunction } from '../../src/routing/types.js';
import { PacketNetwork } from '../../src/sim/packet/network.js';
import { presetConfig } from '../../src/sim/packet/config.js';
import { runFixedHorizon } from '../../src/sim/packet/measure.js';
import { BernoulliSource } from '../../src/sim/traffic/sources.js';
import { hintedRouting } from '../../src/sim/packet/schedule-run.js';
import type { TrafficPattern } from '../../src/sim/traffic/patterns.js';
import type { Topology } from '../../src/topology/graph.js';

/** Every terminal sends to the same terminal of the next group: minimal routes share one global link per group pair. */
function groupShift(t: Topology): TrafficPattern {
  const { a, p } = t.params as { a: number; p: number };
  const perGroup = a * p;
  return { name: 'group-shift', params: {}, dest: (s) => (s + perGroup) % t.numEndpoints };
}

/** Flits carried by global channels that do not join a group to the next one (only non-minimal routes use them). */
function offShiftGlobalFlits(t: Topology, net: PacketNetwork): number {
  const { a, g } = t.params as { a: number; g: number };
  const groupOf = (v: number): number => Math.floor((v - t.numEndpoints) / a);
  const globalId = t.classNames.indexOf('global');
  let flits = 0;
  for (let c = 0; c < t.numChannels; c++) {
    if (t.chClass[c] !== globalId) continue;
    if ((groupOf(t.chSrc[c]) + 1) % g !== groupOf(t.chDst[c])) flits += net.chFlits[c];
  }
  return flits;
}

function runShift(t: Topology, routing: RoutingFunction): PacketNetwork {
  const net = new PacketNetwork(t, routing, { ...presetConfig('default', t), vcs: 2 * routing.vcClasses });
  runFixedHorizon(net, new BernoulliSource(groupShift(t), 0.5, 4, t.numEndpoints, 7), 3000);
  return net;
}

describe('RouteContext: load and hint passed to route()', () => {
  const t = buildTopology('dragonfly:h=2');

  it('dragonfly ugal adapts at packet level: under a group shift it sends packets over non-minimal global channels', () => {
    const ugal = resolveRouting(t, { routing: 'ugal', engine: 'packet' });
    expect(ugal.adaptive).toBe(true);
    expect(ugal.params.load).toMatch(/credits in use/);
    const minimal = offShiftGlobalFlits(t, runShift(t, resolveRouting(t, { routing: 'minimal', engine: 'packet' })));
    const adaptive = offShiftGlobalFlits(t, runShift(t, ugal));
    expect(adaptive).toBeGreaterThan(2 * minimal);
  });

  it('routing objects are not written by an engine: the same ugal object gives minimal routes without a context', () => {
    const ugal = resolveRouting(t, { routing: 'ugal', engine: 'packet' });
    runShift(t, ugal);
    const out = makeRouteBuffers(ugal.maxHops);
    const minimal = resolveRouting(t, { routing: 'minimal' });
    const m = makeRouteBuffers(minimal.maxHops);
    for (let salt = 0; salt < 8; salt++) expect(ugal.route(t.endpoints[0], t.endpoints[20], salt, out)).toBe(minimal.route(t.endpoints[0], t.endpoints[20], salt, m));
  });

  it('an adaptive routing under a route hint still adapts: the hinted wrapper is adaptive and its legs read the load', () => {
    const h = buildTopology('hyperx:4x4');
    const adaptive = resolveRouting(h, { routing: 'adaptive', engine: 'packet' });
    // Terminal 0 (router (0,0)) via router (1,1)'s terminal 5 to terminal 15: the first leg has two minimal paths.
    const hint = { kind: 'via' as const, nodes: [h.endpoints[5]] };
    const hinted = hintedRouting(h, adaptive, [hint]).fn;
    expect(hinted.adaptive).toBe(true);
    const out = makeRouteBuffers(hinted.maxHops);
    const n0 = hinted.route(h.endpoints[0], h.endpoints[15], 0, out, { hint });
    const firstNetwork = Array.from(out.channels.subarray(0, n0)).find((c) => h.className(c) !== 'terminal')!;
    const n1 = hinted.route(h.endpoints[0], h.endpoints[15], 0, out, { hint, load: (c) => (c === firstNetwork ? 9 : 0) });
    const avoided = Array.from(out.channels.subarray(0, n1)).find((c) => h.className(c) !== 'terminal')!;
    expect(n1).toBe(n0);
    expect(avoided).not.toBe(firstNetwork);
    // Still through the hinted node.
    expect(Array.from(out.channels.subarray(0, n1)).some((c) => h.chDst[c] === h.endpoints[5])).toBe(true);
  });
});
