import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('meshwork topo', () => {
  it('--json gives the top-level fields of issue 2 and the full record', () => {
    const r = runCli(['topo', 'torus:4x4x4', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.nodes).toBe(64);
    expect(out.terminals).toBe(64);
    expect(out.channels).toBe(64 * 6);
    expect(out.diameter).toBe(6);
    // Torus 4x4x4 over N² ordered pairs: 3 · 4/4 = 3; without self-pairs 3 · 64/63.
    expect(out.mean_distance_with_self).toBe(3);
    expect(out.mean_distance_without_self).toBeCloseTo((3 * 64) / 63, 12);
    expect(out.method).toBe('product');
    expect(out.exact).toBe(true);
    expect(out.histogram.reduce((a: number, b: number) => a + b, 0)).toBe(64 * 64);
    expect(out.bisection).toMatchObject({ links: 32, channels: 64, exact: true });
    expect(out.params.dims).toEqual([4, 4, 4]);
    expect(out.seconds).toBeUndefined();
  });
  it('is byte-identical across runs and methods give the same exact answer', () => {
    const a = runCli(['topo', 'torus:5x3', '--json', '--method', 'symmetry']);
    const b = runCli(['topo', 'torus:5x3', '--json', '--method', 'symmetry']);
    expect(a.stdout).toBe(b.stdout);
    const c = JSON.parse(runCli(['topo', 'torus:5x3', '--json', '--method', 'all-pairs']).stdout);
    expect(c.histogram).toEqual(JSON.parse(a.stdout).histogram);
  });
  it('labels a sampled estimate and its interval', () => {
    const out = JSON.parse(runCli(['topo', 'mesh:6x6', '--json', '--method', 'sampled', '--samples', '10', '--seed', '3']).stdout);
    expect(out.exact).toBe(false);
    expect(out.interval.confidence).toBe(0.95);
    expect(out.interval.seed).toBe(3);
    expect(out.diameter_note).toMatch(/lower bound/);
  });
  it('prints a human table naming the conventions', () => {
    const r = runCli(['topo', 'mesh:4x4']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/with self-pairs/);
    expect(r.stdout).toMatch(/without self-pairs/);
    expect(r.stdout).toMatch(/bisection\s+4 links \(8 channels both ways\), exact/);
  });
  it('analyses a custom graph file by all-pairs BFS', () => {
    const dir = tempDir('topo');
    const file = join(dir, 'path4.json');
    const links = [[0, 1], [1, 2], [2, 3]].map(([src, dst]) => ({ src, dst, bidirectional: true }));
    writeFileSync(file, JSON.stringify({ format: 'meshwork-topology', version: 1, nodes: 4, links }));
    const out = JSON.parse(runCli(['topo', `file:${file}`, '--json']).stdout);
    expect(out.method).toBe('all-pairs');
    expect(out.exact).toBe(true);
    // A path of 4 nodes: mean over N² pairs (k²−1)/(3k) = 15/12; diameter 3.
    expect(out.mean_distance_with_self).toBe(1.25);
    expect(out.diameter).toBe(3);
    expect(out.bisection.links).toBe(1);
  });
  it('accepts a mapping and records it', () => {
    const dir = tempDir('topo');
    const file = join(dir, 'perm.json');
    writeFileSync(file, JSON.stringify([3, 2, 1, 0]));
    const out = JSON.parse(runCli(['topo', 'torus:4', '--json', '--mapping', file]).stdout);
    expect(out.params.mapping).toContain(file);
    expect(out.mean_distance_with_self).toBe(1);
  });
  it('refuses bad input with one line and exit code 2', () => {
    expect(expectOneLineError(runCli(['topo', 'torus:4x0']))).toMatch(/dims/);
    expect(expectOneLineError(runCli(['topo', 'torus:4', '--method', 'magic']))).toMatch(/method: got "magic"/);
    expect(expectOneLineError(runCli(['topo', 'torus:4', '--samples', 'x']))).toMatch(/samples/);
    expect(expectOneLineError(runCli(['topo', 'mesh:4', '--method', 'symmetry']))).toMatch(/declares symmetry/);
    expect(expectOneLineError(runCli(['topo', 'torus:4', '--mapping', '/nonexistent/perm']))).toMatch(/mapping/);
    const dir = tempDir('topo');
    const file = join(dir, 'bad.txt');
    writeFileSync(file, '0 1 1 3');
    expect(expectOneLineError(runCli(['topo', 'torus:4', '--mapping', file]))).toMatch(/^meshwork: error: mapping/);
  });
});
