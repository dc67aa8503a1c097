import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import { buildTopology, exportJson, listFamilies, Topology, topologyFromDocument, topologyToDocument } from '../../src/topology/index.js';
import { assertConsistent } from './graph-checks.js';

function expectSameGraph(a: Topology, b: Topology): void {
  expect(b.numNodes).toBe(a.numNodes);
  for (const key of ['nodeKind', 'chSrc', 'chDst', 'chSrcPort', 'chDstPort', 'chBandwidth', 'chLatency', 'endpoints'] as const) {
    expect(Array.from(b[key]), key).toEqual(Array.from(a[key]));
  }
  expect(Array.from(b.chClass, (c) => b.classNames[c])).toEqual(Array.from(a.chClass, (c) => a.classNames[c]));
  expect(b.coords && Array.from(b.coords)).toEqual(a.coords && Array.from(a.coords));
  expect(b.distanceConvention).toBe(a.distanceConvention);
}

const SAMPLES = [
  'ring:5', 'uring:4', 'hypercube:3', 'fullmesh:4,mult=2', 'fattree:k=2,levels=3', 'twolevel:leaves=3,hosts=2,spines=4,uplinks=2',
  'omega:8', 'dragonfly:h=1,g=3', 'torus:3x2x2,bw=100Gbps', 'mesh:4x3,lat=1us',
];

describe('Meshwork JSON graph format', () => {
  it('has a sample for every registered family except file and the DCE/MDCE families (tested by their owner)', () => {
    const sampled = new Set(SAMPLES.map((s) => s.split(':')[0]));
    const ours = ['ring', 'uring', 'hypercube', 'fullmesh', 'fattree', 'twolevel', 'omega', 'dragonfly', 'torus', 'mesh'];
    for (const f of ours) expect(listFamilies().map((x) => x.name)).toContain(f);
    expect([...sampled].sort()).toEqual([...ours].sort());
  });
  for (const spec of SAMPLES) {
    it(`round-trips ${spec} through export and topologyFromDocument, channel order and ports included`, () => {
      const t = buildTopology(spec);
      const back = topologyFromDocument(JSON.parse(exportJson(t)));
      assertConsistent(back);
      expectSameGraph(t, back);
    });
  }
  it('keeps a remapped rank order and unidirectional channels', () => {
    const t = buildTopology('uring:4').withRankOrder(Int32Array.from([2, 0, 3, 1]), 'test');
    const doc = topologyToDocument(t);
    expect(doc.endpoints).toEqual([2, 0, 3, 1]);
    expect(doc.links.every((l) => l.bidirectional === false)).toBe(true);
    expectSameGraph(t, topologyFromDocument(doc));
  });
  it('reads a hand-written graph: count shorthand, units as strings, default class and kinds', () => {
    const t = topologyFromDocument({
      nodes: [{ kind: 'terminal' }, { kind: 'switch' }, {}],
      links: [{ src: 0, dst: 1, bw: '100Gbps' }, { src: 1, dst: 2, lat: '1us', bidirectional: false, class: 'down' }],
    });
    assertConsistent(t);
    expect([t.numNodes, t.numChannels, t.numEndpoints]).toEqual([3, 3, 2]);
    expect(t.chBandwidth[0]).toBe(12.5e9);
    expect(t.chLatency[2]).toBeCloseTo(1e-6, 15);
    expect([t.className(0), t.className(2)]).toEqual(['link', 'down']);
    expect(t.distanceConvention).toBe('switches-traversed');
    expect(topologyFromDocument({ nodes: 3, links: [{ src: 0, dst: 2 }] }).distanceConvention).toBe('router-hops');
  });
});

describe('graph file errors name the field, the value and what is accepted', () => {
  const cases: [string, unknown, RegExp][] = [
    ['link to a missing node', { nodes: 16, links: [{ src: 0, dst: 1 }, { src: 1, dst: 2 }, { src: 2, dst: 3 }, { src: 3, dst: 17 }] }, /^links\[3\]\.dst: got 17; accepted: a node id 0\.\.15$/],
    ['self-loop', { nodes: 2, links: [{ src: 1, dst: 1 }] }, /^links\[0\]\.dst: got 1; accepted: a node other than src/],
    ['negative id', { nodes: 2, links: [{ src: -1, dst: 1 }] }, /^links\[0\]\.src: got -1; accepted: a node id/],
    ['unknown key', { nodes: 2, links: [{ src: 0, dst: 1, weight: 3 }] }, /^links\[0\]\.weight: got 3; accepted: only the keys src, dst/],
    ['unknown top-level key', { nodes: 2, links: [], edges: [] }, /^edges: got \[\]; accepted: only the keys format/],
    ['bad bandwidth', { nodes: 2, links: [{ src: 0, dst: 1, bw: 'fast' }] }, /^links\[0\]\.bw: got "fast"; accepted: a positive bandwidth/],
    ['bad kind', { nodes: [{ kind: 'router' }], links: [] }, /^nodes\[0\]\.kind: got "router"; accepted: "terminal" or "switch"$/],
    ['missing links', { nodes: 2 }, /^links: got \(nothing\); accepted: an array/],
    ['not an object', [1, 2], /^document: got \[1,2\]; accepted: a JSON object/],
    ['duplicate endpoint', { nodes: 3, links: [], endpoints: [0, 2, 0] }, /^endpoints\[2\]: got 0; accepted: each node at most once \(node 0 is already rank 0\)$/],
    ['uneven coords', { nodes: [{ coords: [0, 0] }, { coords: [1] }], links: [] }, /^nodes\[1\]\.coords: got \[1\]; accepted: 2 integers/],
    ['no terminals', { nodes: [{ kind: 'switch' }], links: [] }, /^nodes: got "1 switches"; accepted: at least one terminal/],
    ['too many nodes', { nodes: 2 ** 25, links: [] }, /^nodes: got 33554432; accepted: a node count 1\.\.16777216/],
    ['wrong version', { version: 2, nodes: 1, links: [] }, /^version: got 2; accepted: 1$/],
  ];
  for (const [name, doc, message] of cases) {
    it(name, () => {
      let error: unknown;
      try {
        topologyFromDocument(doc);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(message);
    });
  }
  it('prefixes fields with the file name when given a context', () => {
    expect(() => topologyFromDocument({ nodes: 2, links: [{ src: 0, dst: 5 }] }, { context: 'g.json' })).toThrow(/^g\.json\.links\[0\]\.dst: got 5/);
  });
});

describe('schemas/topology.schema.json', () => {
  it('lists exactly the keys the validator accepts, so the schema and the code cannot drift apart', async () => {
    const { readFileSync } = await import('node:fs');
    const schema = JSON.parse(readFileSync(new URL('../../schemas/topology.schema.json', import.meta.url), 'utf8'));
    const doc = topologyToDocument(buildTopology('fattree:k=2,levels=2'));
    // Every key an export writes is in the schema, at top level, per node and per link.
    for (const key of Object.keys(doc)) expect(Object.keys(schema.properties)).toContain(key);
    const nodeKeys = Object.keys(schema.properties.nodes.oneOf[1].items.properties);
    const linkKeys = Object.keys(schema.properties.links.items.properties);
    for (const n of doc.nodes as object[]) for (const key of Object.keys(n)) expect(nodeKeys).toContain(key);
    for (const l of doc.links) for (const key of Object.keys(l)) expect(linkKeys).toContain(key);
    // And every schema key is accepted by the validator (an unknown key would be refused).
    const link = Object.fromEntries(linkKeys.map((k) => [k, k === 'src' ? 0 : k === 'dst' ? 1 : k === 'bidirectional' ? true : k === 'bw' ? 1e9 : k === 'lat' ? 0 : 'c']));
    const node = { kind: 'terminal', coords: [0], name: 'a' };
    const top = { format: 'meshwork-topology', version: 1, name: 'x', source: {}, distanceConvention: 'router-hops', defaults: { bw: 1, lat: 0 }, endpoints: [1, 0] };
    expect(Object.keys(top).concat(['nodes', 'links']).sort()).toEqual(Object.keys(schema.properties).sort());
    expect(topologyFromDocument({ ...top, nodes: [node, { ...node, coords: [1] }], links: [link] }).numChannels).toBe(2);
  });
});
