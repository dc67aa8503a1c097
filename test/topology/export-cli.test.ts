import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTopology, exportDot, exportGraphml } from '../../src/topology/index.js';
import { loadTopology } from '../../src/node/index.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('export');

describe('GraphML and DOT exporters', () => {
  const t = buildTopology('fattree:k=2,levels=2');
  it('GraphML has one node per node and one directed edge per channel, with kind and class', () => {
    const text = exportGraphml(t);
    expect(text.match(/<node /g)).toHaveLength(t.numNodes);
    expect(text.match(/<edge /g)).toHaveLength(t.numChannels);
    expect(text).toContain('edgedefault="directed"');
    expect(text).toContain('<node id="n4"><data key="kind">switch</data><data key="rank">-1</data>');
    expect(text).toMatch(/<edge id="c0" source="n0" target="n4"><data key="class">up<\/data>/);
  });
  it('DOT has one edge line per channel and draws switches as boxes', () => {
    const text = exportDot(t);
    expect(text.split('\n').filter((l) => l.includes(' -> '))).toHaveLength(t.numChannels);
    expect(text).toMatch(/^digraph "fattree:k=2,levels=2" \{/);
    expect(text).toContain('n4 [label="s4" kind=switch shape=box');
  });
});

describe('loadTopology (Node adapter)', () => {
  it('reads a YAML spec file and a JSON spec object through Spec.fromObject', () => {
    const yaml = join(dir, 'net.yaml');
    writeFileSync(yaml, 'family: torus\nshape: 4x4\nbw: 100Gbps\n');
    const t = loadTopology(yaml);
    expect([t.family, t.numNodes, t.chBandwidth[0]]).toEqual(['torus', 16, 12.5e9]);
    const json = join(dir, 'spec.json');
    writeFileSync(json, JSON.stringify({ family: 'ring', arg: 5 }));
    expect(loadTopology(`file:${json}`).numNodes).toBe(5);
    const plain = join(dir, 'plain.yml');
    writeFileSync(plain, 'hypercube:3,lat=1us\n');
    expect(loadTopology(plain).numChannels).toBe(24);
  });
  it('reads a graph file and a permutation mapping file', () => {
    const graph = join(dir, 'g.json');
    writeFileSync(graph, JSON.stringify({ nodes: 3, links: [{ src: 0, dst: 1 }, { src: 1, dst: 2 }] }));
    const perm = join(dir, 'perm.txt');
    writeFileSync(perm, '2\n0\n1\n');
    const t = loadTopology(`file:${graph}`, { mapping: perm });
    expect([t.family, t.numChannels]).toEqual(['file', 4]);
    expect(Array.from(t.endpoints)).toEqual([2, 0, 1]);
  });
  it('refuses missing and malformed files with the file named', () => {
    expect(() => loadTopology(join(dir, 'none.json'))).toThrow(/^topology: got ".*none\.json"; accepted: a readable file/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"nodes": 2, "links": [');
    expect(() => loadTopology(bad)).toThrow(/accepted: a well-formed JSON file/);
  });
});

describe('meshwork export (CLI)', () => {
  it('writes JSON that reads back as the same topology', () => {
    const out = join(dir, 'omega.json');
    const r = runCli(['export', 'omega:8', '--format', 'json', '--out', out]);
    expect(r.code).toBe(0);
    const back = loadTopology(`file:${out}`);
    const t = buildTopology('omega:8');
    expect(Array.from(back.chDst)).toEqual(Array.from(t.chDst));
    expect(back.distanceConvention).toBe('switches-traversed');
  });
  it('prints GraphML and DOT to stdout, honouring --mapping', () => {
    const r = runCli(['export', 'ring:3', '--format', 'dot', '--mapping', 'reverse']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('n0 [label="r2"');
    expect(runCli(['export', 'ring:3', '--format', 'graphml']).stdout).toContain('<graphml');
  });
  it('fails on bad input with one line and exit 2, leaving no file behind', () => {
    const out = join(dir, 'never.json');
    expect(expectOneLineError(runCli(['export', 'ring:3', '--format', 'svg', '--out', out]))).toMatch(/format: got "svg"; accepted: json, graphml, dot/);
    expect(expectOneLineError(runCli(['export', 'hypercube:40', '--out', out]))).toMatch(/at most 16777216 nodes/);
    expect(expectOneLineError(runCli(['export', 'ring:4', '--mapping', 'random:seed=x']))).toMatch(/mapping.seed/);
    // A SimGrid platform names hosts; the same file came out whatever the mapping.
    expect(expectOneLineError(runCli(['export', 'torus:4x4', '--format', 'simgrid', '--mapping', 'reverse', '--out', out]))).toMatch(/^meshwork: error: mapping: got "reverse"; accepted: nothing with --format simgrid/);
    expect(existsSync(out)).toBe(false);
    const graph = join(dir, 'dangling.json');
    writeFileSync(graph, JSON.stringify({ nodes: 16, links: [{ src: 0, dst: 1 }, { src: 0, dst: 2 }, { src: 0, dst: 3 }, { src: 3, dst: 17 }] }));
    expect(expectOneLineError(runCli(['export', `file:${graph}`]))).toMatch(/dangling\.json\.links\[3\]\.dst: got 17; accepted: a node id 0\.\.15/);
    expect(readFileSync(graph, 'utf8')).toContain('"dst":17');
  });
});
