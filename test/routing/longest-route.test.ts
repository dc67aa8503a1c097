/**
 * RoutingFunction.longestRoute: the packet engine sizes every packet's route columns by it, so it
 * must bound every route the routing gives (a route longer than the columns would be cut short), and
 * for shortest-path routings it is the endpoints' largest distance exactly. Checked against every
 * endpoint pair's route. With the node-count bound, hyperx:32x32 at packet level was refused as 5.3
 * GiB of state (route columns of 2,048 hops for a diameter of 4).
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, makeRouteBuffers, resolveRouting, type RoutingFunction, type Topology } from '../../src/index.js';
import { checkPacketNetworkSize, MAX_PACKET_NETWORK_BYTES, packetNetworkBytes } from '../../src/sim/packet/limits.js';
import { packetShape } from '../../src/sim/packet/network.js';
import { presetConfig } from '../../src/sim/packet/config.js';

/** The longest route over every endpoint pair and a few salts. */
function longestGiven(t: Topology, r: RoutingFunction): number {
  const out = makeRouteBuffers(r.maxHops);
  let most = 0;
  for (const src of t.endpoints) for (const dst of t.endpoints) for (const salt of [0, 7, 12345]) most = Math.max(most, r.route(src, dst, salt, out));
  return most;
}

const CASES: Array<[string, string, 'exact' | 'bound']> = [
  ['hyperx:4x4', 'shortest', 'exact'],
  ['hyperx:3x4', 'adaptive', 'exact'],
  ['hyperx:4x4', 'ugal-l', 'bound'],
  ['hyperx:4x4', 'valiant', 'bound'],
  ['fattree:k=4,levels=3', 'shortest', 'exact'],
  ['fattree:k=4,levels=3', 'ecmp', 'exact'],
  ['dragonfly:h=2', 'shortest', 'exact'],
  ['dragonfly:h=2', 'ugal-g', 'bound'],
  ['slimfly:q=5', 'hop-vc', 'exact'],
  ['torus:5x3', 'shortest', 'exact'],
];

describe('longestRoute bounds every route the routing gives', () => {
  for (const [spec, name, kind] of CASES) {
    it(`${spec} ${name}: ${kind === 'exact' ? 'the longest route' : 'at least the longest route'}`, () => {
      const t = buildTopology(spec);
      const r = resolveRouting(t, { routing: name });
      expect(r.longestRoute, `${r.name} gives longestRoute`).toBeDefined();
      const bound = r.longestRoute!();
      const given = longestGiven(t, r);
      if (kind === 'exact') expect(bound).toBe(given);
      else {
        expect(bound).toBeGreaterThanOrEqual(given);
        expect(bound).toBeLessThan(r.maxHops);
      }
    });
  }
});

it('hyperx:32x32 fits the packet engine with 4 VCs (route columns of its diameter, 4 hops, not its 2,048 nodes)', () => {
  const t = buildTopology('hyperx:32x32');
  const cfg = { ...presetConfig('default', t), vcs: 4 };
  for (const name of ['shortest', 'adaptive', 'ugal-l']) {
    const shape = packetShape(t, resolveRouting(t, { routing: name }), cfg);
    expect(shape.maxHops, name).toBe(name === 'ugal-l' ? 8 : 4);
    expect(packetNetworkBytes(shape)).toBeLessThan(MAX_PACKET_NETWORK_BYTES);
    expect(() => checkPacketNetworkSize(shape, t.spec)).not.toThrow();
  }
});
