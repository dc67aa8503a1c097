/**
 * registerAlgorithm, registerRouting, registerFamily and registerPattern check what a JavaScript
 * caller hands them (a library-user audit registered an algorithm of collective "bogus" and one
 * without build, both accepted; "default" as a routing name threw a plain Error).
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, makeRouteBuffers, registerAlgorithm, registerFamily, registerPattern, registerRouting, resolveRouting, shortestPathRouting, type RoutingFunction } from '../../src/index.js';

describe('registry entries are checked when registered', () => {
  it('an algorithm: its collective, its build, its name', () => {
    const base = { name: 'test-entry', collective: 'alltoall', description: '', supportsText: '', source: 'user', params: [], supports: () => undefined, build: () => null };
    expect(() => registerAlgorithm({ ...base, collective: 'bogus' } as never)).toThrow(/^algorithm\.collective: got "bogus"; accepted: one of alltoall/);
    expect(() => registerAlgorithm({ ...base, build: undefined } as never)).toThrow(/^algorithm\.build: got \(nothing\); accepted: a function$/);
    expect(() => registerAlgorithm({ ...base, name: 'ring:fast' } as never)).toThrow(/^algorithm\.name: got "ring:fast"; accepted: a name of letters/);
    expect(() => registerAlgorithm(undefined as never)).toThrow(/^algorithm: got \(nothing\); accepted: an object \{ name, build, supports, \.\.\. \}$/);
  });

  it('a routing, a family, a pattern: a name and their function; the reserved names refused in one line', () => {
    expect(() => registerRouting({ name: 'default', description: '', create: () => undefined } as never)).toThrow(/^routing\.name: got "default"; accepted: another name/);
    expect(() => registerRouting({ name: 'mine', description: '' } as never)).toThrow(/^routing\.create: got \(nothing\); accepted: a function$/);
    expect(() => registerFamily({ name: 'my family', usage: '', description: '', build: () => undefined } as never)).toThrow(/^family\.name: got "my family"/);
    expect(() => registerPattern({ name: 'meshemu', description: '', create: () => undefined } as never)).toThrow(/^pattern\.name: got "meshemu"; accepted: another name/);
  });
});

describe("a registered routing's routes are checked as they are given", () => {
  const t = buildTopology('ring:4');
  const base = shortestPathRouting(t);
  const register = (name: string, route: RoutingFunction['route'], maxHops = base.maxHops): RoutingFunction => {
    registerRouting({ name, description: 'test', create: () => ({ ...base, name, maxHops, route }) });
    return resolveRouting(t, { routing: name });
  };
  const run = (r: RoutingFunction, src: number, dst: number) => () => r.route(src, dst, 0, makeRouteBuffers(64));

  it('a sound routing gives the routes it gives', () => {
    const r = register('test-sound', (s, d, salt, out) => base.route(s, d, salt, out));
    const out = makeRouteBuffers(r.maxHops);
    const n = r.route(0, 2, 0, out);
    const own = makeRouteBuffers(base.maxHops);
    expect(Array.from(out.channels.subarray(0, n))).toEqual(Array.from(own.channels.subarray(0, base.route(0, 2, 0, own))));
  });

  it('no channel, the wrong end, an unknown channel, a break, too many hops: one line naming the routing and the pair', () => {
    expect(run(register('test-empty', () => 0), 0, 2)).toThrow(/^routing test-empty: got "route 0 -> 2"; accepted: a walk of channels from the source to the destination within maxHops \(\d+\); this one has no channel$/);
    expect(run(register('test-short', (s, d, salt, out) => base.route(s, d === 2 ? 1 : d, salt, out)), 0, 2)).toThrow(/this one ends at node 1$/);
    expect(run(register('test-unknown', (_s, _d, _salt, out) => ((out.channels[0] = 9999), 1)), 0, 2)).toThrow(/this one names channel 9999, not one of ring:4$/);
    expect(run(register('test-break', (_s, _d, _salt, out) => ((out.channels[0] = t.outChannels[t.outStart[3]]), 1)), 0, 2)).toThrow(/this one breaks off at hop 0 \(channel \d+ leaves node 3, not 0\)$/);
    expect(run(register('test-long', () => 5, 2), 0, 2)).toThrow(/this one has 5 hops$/);
  });
});
