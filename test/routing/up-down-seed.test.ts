/**
 * ECMP and BookSim's nca hash their up-port choices: the run's seed offsets the hash (the default
 * seed 1 keeps the routes they always gave), so a sweep over seeds samples different routes and the
 * recorded seed is one that made a choice.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, makeRouteBuffers, resolveRouting, type RoutingFunction, type Topology } from '../../src/index.js';

function routes(t: Topology, r: RoutingFunction): string[] {
  const out = makeRouteBuffers(r.maxHops);
  const all: string[] = [];
  for (const src of t.endpoints) {
    for (const dst of t.endpoints) {
      const n = r.route(src, dst, 5, out);
      all.push(Array.from(out.channels.subarray(0, n)).join(','));
    }
  }
  return all;
}

describe('ecmp and nca take the seed', () => {
  for (const spec of ['fattree:k=4,levels=3', 'twolevel:leaves=4,hosts=4,spines=4']) {
    for (const name of ['ecmp', 'nca']) {
      it(`${spec} ${name}: seed 1 is the default's routes; seed 2 changes some; both recorded`, () => {
        const t = buildTopology(spec);
        const unseeded = resolveRouting(t, { routing: name });
        const one = resolveRouting(t, { routing: name, seed: 1 });
        const two = resolveRouting(t, { routing: name, seed: 2 });
        expect(routes(t, one)).toEqual(routes(t, unseeded));
        const a = routes(t, one);
        const b = routes(t, two);
        expect(b.filter((r, i) => r !== a[i]).length).toBeGreaterThan(0);
        expect(one.params.seed).toBe(1);
        expect(two.params.seed).toBe(2);
      });
    }
  }
  it('d-mod-k makes no hashed choice and records no seed', () => {
    const t = buildTopology('fattree:k=4,levels=3');
    const r = resolveRouting(t, { routing: 'updown', seed: 2 });
    expect(r.params.seed).toBeUndefined();
    expect(routes(t, r)).toEqual(routes(t, resolveRouting(t, { routing: 'updown' })));
  });
});
