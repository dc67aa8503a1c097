/**
 * Property tests for bad input (issue 2, "Bad input"): random specs and random graph documents
 * either build a consistent graph or are refused with an InputError. Never another exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTopology, listFamilies, topologyFromDocument } from '../../src/topology/index.js';
import { InputError } from '../../src/util/errors.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { assertConsistent } from './graph-checks.js';

/** Each family's own keys (plus link attributes and a typo) so that many random specs are valid. */
const FAMILY_KEYS: Record<string, string[]> = {
  ring: ['n'], uring: ['n'], hypercube: ['d'], fullmesh: ['n', 'mult'], fattree: ['k', 'levels'],
  twolevel: ['leaves', 'hosts', 'spines', 'uplinks'], omega: ['n'], fly: ['k', 'n'], dragonfly: ['a', 'p', 'h', 'g'],
  torus: [], mesh: [], dce: ['n', 'delta', 'extra-stage'], cbanyan: ['n', 'extra-stage'], ccc: ['n', 'extra-stage'],
  mdce: ['B', 'C', 'P', 'n', 'extra-stage'], comega: ['m', 'reading'], nosuch: ['n'], file: ['path'],
  hyperx: ['k', 'p'], flatfly: ['k', 'n', 'c', 'x', 'xr', 'yr'], cmesh: ['k'], slimfly: ['q', 'p'], polarfly: ['q', 'p'],
  dragonflyplus: ['h', 'spines', 'leaves', 'p', 'g'], jellyfish: ['routers', 'degree', 'p', 'seed'],
  fabric: ['gpus', 'nodes', 'planes', 'links', 'nics', 'railplanes', 'leafhosts', 'spines'], 'hgx-h100': ['nodes', 'nics'], 'hgx-a100': ['nodes', 'nics'], mi300x: ['nodes', 'gpus'],
  'gb200-nvl72': ['nodes'], tpu: ['twist'],
  'simgrid-fattree': ['levels', 'down', 'up', 'links'], 'simgrid-dragonfly': ['groups', 'chassis', 'routers', 'nodes', 'blue', 'black', 'green', 'sharing', 'limiter'],
  'simgrid-flat': ['hosts', 'bb_bw', 'bb_lat', 'sharing', 'limiter'],
  astra: ['topology', 'npus', 'bandwidth', 'latency'],
};
const COMMON_KEYS = ['bw', 'lat', 'zz'];


// Small values keep accepted graphs tiny; the huge ones must always be refused by a size check.
const value = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 6 }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: -2, max: 0 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('99999999', '2147483648', '1e3', '', 'x', '3.5', '0x10', '25Gbps', '100ns', '-5ns', '2x3') },
);
const valueFor = (key: string): fc.Arbitrary<string> =>
  key === 'bw' ? fc.constantFrom('25Gbps', '1GB/s', '0bps', 'fast', '5') : key === 'lat' ? fc.constantFrom('100ns', '0', '1us', '-1ns', '7') : value;
const positional = fc.oneof(
  value,
  fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 }).map((d) => d.join('x')),
  fc.constant('99999x99999'),
);
const specText = fc
  .constantFrom(...Object.keys(FAMILY_KEYS))
  .chain((family) =>
    fc.tuple(
      fc.constant(family),
      fc.option(positional),
      fc.uniqueArray(fc.constantFrom(...FAMILY_KEYS[family], ...FAMILY_KEYS[family], ...COMMON_KEYS).chain((k) => fc.tuple(fc.constant(k), valueFor(k))), {
        maxLength: 4,
        selector: ([k]) => k,
      }),
    ),
  )
  .map(([family, pos, kv]) => {
    const items = [...(pos === null ? [] : [pos]), ...kv.map(([k, v]) => `${k}=${v}`)];
    return items.length ? `${family}:${items.join(',')}` : family;
  });

function buildOrRefuse(input: string | Record<string, unknown>): 'built' | 'refused' {
  try {
    assertConsistent(typeof input === 'string' ? buildTopology(input) : topologyFromDocument(input));
    return 'built';
  } catch (err) {
    if (err instanceof InputError) return 'refused';
    throw err;
  }
}

describe('random specs: a consistent graph or an InputError', () => {
  it('cover every registered family (a new family cannot escape the fuzzing)', () => {
    for (const f of listFamilies()) expect(Object.keys(FAMILY_KEYS), f.name).toContain(f.name);
  });
  it('through buildTopology', () => {
    const seen = { built: 0, refused: 0 };
    fc.assert(
      fc.property(specText, (text) => {
        seen[buildOrRefuse(text)]++;
      }),
      { numRuns: 600, seed: 2 },
    );
    // The generator must exercise both outcomes, or the property says nothing.
    expect(seen.built).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
  });
  it('through the CLI: exit 0, or exit 2 with one line and no stack trace', () => {
    const samples = fc.sample(specText, { numRuns: 3, seed: 5 });
    for (const text of [...samples, 'hypercube:40', 'fattree:k=64,levels=8']) {
      const r = runCli(['export', text, '--format', 'dot']);
      if (r.code !== 0) expectOneLineError(r);
    }
  });
});

describe('random graph documents: a consistent graph or an InputError', () => {
  const node = fc.record({ kind: fc.constantFrom('terminal', 'switch', 'router') }, { requiredKeys: [] });
  const id = fc.oneof(fc.integer({ min: -1, max: 7 }), fc.constant('3'));
  const link = fc.record(
    {
      src: id,
      dst: id,
      bw: fc.constantFrom('25Gbps', 'fast', 1e9, -1),
      lat: fc.constantFrom('100ns', 0, -1e-9, 'slow'),
      class: fc.constantFrom('x+', ''),
      bidirectional: fc.boolean(),
      weight: fc.constant(1),
    },
    { requiredKeys: ['src', 'dst'] },
  );
  const doc = fc.record(
    {
      nodes: fc.oneof(fc.integer({ min: -1, max: 6 }), fc.array(node, { maxLength: 6 })),
      links: fc.array(link, { maxLength: 6 }),
      endpoints: fc.array(fc.integer({ min: -1, max: 6 }), { maxLength: 4 }),
      distanceConvention: fc.constantFrom('router-hops', 'hops'),
    },
    { requiredKeys: ['links'] },
  );
  it('through topologyFromDocument', () => {
    const seen = { built: 0, refused: 0 };
    fc.assert(
      fc.property(doc, (d) => {
        seen[buildOrRefuse(d)]++;
      }),
      { numRuns: 500, seed: 3 },
    );
    expect(seen.built).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  });
});
