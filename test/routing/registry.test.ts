import { describe, expect, it } from 'vitest';
import {
  applyMapping,
  buildTopology,
  findRouting,
  InputError,
  listFamilies,
  makeRouteBuffers,
  packetDeadlockFreeRouting,
  registerRouting,
  resolveRouting,
  routingNames,
  shortestPathRouting,
  type RoutingFunction,
  type Topology,
} from '../../src/index.js';

/** The channels of the route from node `src` to node `dst`. */
function path(routing: RoutingFunction, src: number, dst: number, salt = 0): number[] {
  const out = makeRouteBuffers(routing.maxHops);
  const hops = routing.route(src, dst, salt, out);
  return Array.from(out.channels.subarray(0, hops));
}

describe('resolveRouting: the family declares its default', () => {
  // The defaults of docs/topology.md's family table.
  const cases: Array<[string, string]> = [
    ['torus:4x4', 'dimension-order(tie=positive,order=0,1)'],
    ['mesh:3x3', 'dimension-order(tie=positive,order=0,1)'],
    ['fattree:k=2,levels=3', 'up-down(d-mod-k)'],
    ['twolevel:leaves=2,hosts=2', 'up-down(d-mod-k)'],
    ['fullmesh:4', 'full-mesh-direct'],
    ['omega:8', 'destination-tag'],
    ['dragonfly:h=1', 'dragonfly-minimal'],
    ['cbanyan:3', 'mdce-self-routing(ccc-first)'],
    ['mdce:B=1,C=1,P=1,n=2', 'mdce-self-routing(ccc-first)'],
    ['ring:5', 'shortest-path(tie=lowest)'],
    ['hypercube:3', 'shortest-path(tie=lowest)'],
  ];
  for (const [spec, name] of cases) {
    it(`${spec} -> ${name}`, () => expect(resolveRouting(buildTopology(spec)).name).toBe(name));
  }

  it('every family default names a registered routing', () => {
    for (const f of listFamilies()) if (f.defaultRouting !== undefined) expect(findRouting(f.defaultRouting), f.name).toBeDefined();
  });

  it('refuses an unknown name, listing the registry', () => {
    expect(() => resolveRouting(buildTopology('torus:4'), { routing: 'zigzag' })).toThrow(InputError);
    expect(() => resolveRouting(buildTopology('torus:4'), { routing: 'zigzag' })).toThrow(/default, dor, shortest/);
  });

  it('refuses a routing that does not fit the topology', () => {
    expect(() => resolveRouting(buildTopology('fullmesh:4'), { routing: 'dor' })).toThrow(InputError);
    expect(() => resolveRouting(buildTopology('torus:4x4'), { routing: 'ugal' })).toThrow(/dragonfly/);
    // Valiant builds on the family default, which must be deadlock free: a ring's shortest path is not.
    expect(() => resolveRouting(buildTopology('ring:6'), { routing: 'valiant' })).toThrow(/deadlock-free default/);
  });

  it('tie = split: exact halves for the flow engine, per pair for the packet engine', () => {
    const t = buildTopology('torus:4');
    const flow = resolveRouting(t, { tie: 'split', engine: 'flow' });
    const packet = resolveRouting(t, { tie: 'split', engine: 'packet' });
    expect(flow.params.split).toBe('halves');
    expect(packet.params.split).toBeUndefined();
    // 0 -> 2 is a k/2 tie: the flow routing goes + on even salts and − on odd ones...
    expect(path(flow, 0, 2, 0)).not.toEqual(path(flow, 0, 2, 1));
    // ...the packet routing takes one direction per pair, whatever the salt.
    expect(path(packet, 0, 2, 0)).toEqual(path(packet, 0, 2, 1));
  });

  it('a registered routing is resolvable by name (one file plus its test)', () => {
    registerRouting({
      name: 'test-lowest-port',
      description: 'shortest path, lowest port (test)',
      create: (topology) => shortestPathRouting(topology, { name: 'test-lowest-port' }),
    });
    expect(routingNames()).toContain('test-lowest-port');
    expect(resolveRouting(buildTopology('ring:4'), { routing: 'test-lowest-port' }).name).toBe('test-lowest-port');
  });
});

describe('deadlockFree is declared, not guessed from the name', () => {
  it('the packet engine keeps deadlock-free routings and replaces plain shortest path by up*/down*', () => {
    const torus = buildTopology('torus:4x4');
    const dor = resolveRouting(torus);
    expect(dor.deadlockFree).toBe(true);
    expect(packetDeadlockFreeRouting(torus, dor)).toBe(dor);
    const ring = buildTopology('ring:6');
    const shortest = resolveRouting(ring);
    expect(shortest.deadlockFree).toBe(false);
    expect(packetDeadlockFreeRouting(ring, shortest).name).toMatch(/^up\*\/down\*/);
  });

  it('a hypercube declares its lowest-port shortest path deadlock free (e-cube); a hashed tie is not', () => {
    const cube = buildTopology('hypercube:3');
    expect(resolveRouting(cube).deadlockFree).toBe(true);
    expect(resolveRouting(cube, { shortestTie: 'hash' }).deadlockFree).toBe(false);
  });

  it('up/down and ECMP are deadlock free on the trees that route up/down, not on a torus or a degraded tree', () => {
    for (const spec of ['fattree:k=4,levels=3', 'twolevel:leaves=4,hosts=4']) {
      const tree = buildTopology(spec);
      for (const routing of ['updown', 'ecmp']) expect(resolveRouting(tree, { routing }).deadlockFree, `${spec} ${routing}`).toBe(true);
    }
    // On a torus ECMP is shortest-path routing with hashed ties: cyclic dependencies are possible,
    // so the packet engine runs up*/down* instead (it trusted ECMP before).
    const torus = buildTopology('torus:4x4');
    const ecmp = resolveRouting(torus, { routing: 'ecmp' });
    expect(ecmp.deadlockFree).toBe(false);
    expect(packetDeadlockFreeRouting(torus, ecmp).name).toMatch(/^up\*\/down\*/);
  });

  it('a shortest-path routing renamed by a caller is still not deadlock free', () => {
    const ring = buildTopology('ring:6');
    const renamed = shortestPathRouting(ring, { name: 'my-routing' });
    expect(packetDeadlockFreeRouting(ring, renamed).name).toMatch(/^up\*\/down\*/);
  });
});

describe('routing follows the physical endpoint, not the rank (issue 17)', () => {
  /** Bit-reversed rank order of n = 2^b endpoints. */
  function bitReversed(n: number): number[] {
    const bits = Math.log2(n);
    return Array.from({ length: n }, (_, r) => {
      let v = 0;
      for (let i = 0; i < bits; i++) if (r & (1 << i)) v |= 1 << (bits - 1 - i);
      return v;
    });
  }

  /** Distinct first up-links (leaf switch -> level-1 switch) used by the routes from leaf 0's hosts to leaf 1's. */
  function upLinksUsed(t: Topology, routing: RoutingFunction, k: number): number {
    const used = new Set<number>();
    for (let a = 0; a < k; a++) for (let b = k; b < 2 * k; b++) used.add(path(routing, t.endpoints[a], t.endpoints[b])[1]);
    return used.size;
  }

  it('fat tree d-mod-k: a bit-reversed mapping changes no route and keeps the spread over up-links', () => {
    // fattree:k=4,levels=2: 16 hosts, 4 per leaf, 4 up-links per leaf. D-mod-k by physical
    // destination sends the 4 hosts of leaf 1 through 4 different up-links.
    const t = buildTopology('fattree:k=4,levels=2');
    const mapped = applyMapping(t, bitReversed(t.numEndpoints), 'bit-reversed');
    const plain = resolveRouting(t);
    const remapped = resolveRouting(mapped);
    for (const src of t.endpoints) for (const dst of t.endpoints) expect(path(remapped, src, dst)).toEqual(path(plain, src, dst));
    expect(upLinksUsed(t, plain, 4)).toBe(4);
  });

  it('two-level d-mod-k: the same under a random mapping', () => {
    const t = buildTopology('twolevel:leaves=4,hosts=8,spines=8,uplinks=8');
    const mapped = applyMapping(t, 'random:seed=3');
    const plain = resolveRouting(t);
    const remapped = resolveRouting(mapped);
    for (const src of t.endpoints) for (const dst of t.endpoints) expect(path(remapped, src, dst)).toEqual(path(plain, src, dst));
  });
});
