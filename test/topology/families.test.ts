import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bisection, buildTopology, familyOf, findFamily, listFamilies, registerFamily, torus } from '../../src/index.js';
import { quarterPartition } from '../../src/sim/traffic/patterns.js';
import { productShape } from '../../src/topology/metrics/product.js';

describe('family descriptors: what the code used to guess from the name', () => {
  it('grids: torus and mesh from their dims, a hypercube as 2x2x..., none for a ring', () => {
    expect(familyOf(buildTopology('torus:4x6'))?.grid?.(buildTopology('torus:4x6'))).toEqual({ dims: [4, 6], wrap: true, label: 'torus 4x6' });
    expect(productShape(buildTopology('mesh:3x5'))).toEqual({ dims: [3, 5], wrap: false, label: 'mesh 3x5' });
    expect(productShape(buildTopology('hypercube:3'))).toEqual({ dims: [2, 2, 2], wrap: false, label: 'hypercube' });
    expect(productShape(buildTopology('ring:8'))).toBeUndefined();
  });

  it('closed-form bisection comes from the family: exact for fat tree, two-level, ring, full mesh', () => {
    // Values: docs/analysis.md (fat tree N/2 terminal links; ring 2 links; K_8 (N/2)² = 16 links).
    expect(bisection(buildTopology('fattree:k=2,levels=3'))).toMatchObject({ exact: true, links: 4 });
    expect(bisection(buildTopology('twolevel:leaves=4,hosts=4,uplinks=2'))).toMatchObject({ exact: true, links: 4 });
    expect(bisection(buildTopology('ring:10'))).toMatchObject({ exact: true, links: 2 });
    expect(bisection(buildTopology('fullmesh:8'))).toMatchObject({ exact: true, links: 16 });
    // No closed form: dragonfly:h=1 (12 nodes) is searched exhaustively, dragonfly:h=2 (72) gets a labelled bound.
    expect(bisection(buildTopology('dragonfly:h=1')).method).toMatch(/^exhaustive search/);
    expect(bisection(buildTopology('dragonfly:h=2')).exact).toBe(false);
  });

  it("seed 004's quarters are the DCE family's own; other families split by address", () => {
    expect(quarterPartition(buildTopology('cbanyan:4')).label).toMatch(/ring-index bits/);
    expect(quarterPartition(buildTopology('torus:4x4')).label).toMatch(/address/);
    expect(() => quarterPartition(buildTopology('torus:4x4'), 'rings')).toThrow(/DCE\/MDCE/);
  });

  it('cbanyan and ccc are families of their own with a fixed delta', () => {
    expect(findFamily('cbanyan')?.name).toBe('cbanyan');
    expect(buildTopology('cbanyan:4').params.deltas).toEqual([1]);
    expect(buildTopology('ccc:4').params.deltas).toEqual([0]);
    expect(() => buildTopology('ccc:4,delta=1')).toThrow(/delta/);
  });

  it('a family registered at run time is found by name, and its descriptor drives the metrics', () => {
    registerFamily({
      name: 'test-square-torus',
      usage: 'test-square-torus:K',
      description: 'K x K torus (test)',
      build: (spec) => torus([spec.int('k', { min: 2, max: 64 }), spec.int('k', { min: 2, max: 64 })]),
      grid: () => ({ dims: [4, 4], wrap: true, label: 'test grid' }),
    });
    expect(listFamilies().map((f) => f.name)).toContain('test-square-torus');
    expect(findFamily('test-square-torus')?.grid?.(torus([4, 4]))?.label).toBe('test grid');
  });
});

describe('registration is complete whichever entry point is imported', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));

  it("a project that installed meshwork loads every family through 'meshwork/node' alone", () => {
    // An installed package: node_modules/meshwork -> this checkout (its package.json `exports`
    // map and dist/, which npm test builds first), imported from a fresh process elsewhere.
    const dir = mkdtempSync(join(tmpdir(), 'meshwork-install-'));
    try {
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(root, join(dir, 'node_modules', 'meshwork'), 'dir');
      const script = `import('meshwork/node').then((m) => {
        for (const spec of ['torus:8x8', 'mesh:4', 'ring:4', 'hypercube:3', 'fullmesh:4', 'fattree:k=2,levels=2',
          'twolevel:leaves=2,hosts=2', 'omega:8', 'dragonfly:h=1', 'dce:n=3,delta=1', 'cbanyan:3', 'ccc:3', 'mdce:B=1,C=1,P=1,n=2'])
          console.log(spec, m.loadTopology(spec).numNodes);
      })`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout.trim().split('\n')).toEqual([
        'torus:8x8 64',
        'mesh:4 4',
        'ring:4 4',
        'hypercube:3 8',
        'fullmesh:4 4',
        'fattree:k=2,levels=2 8',
        'twolevel:leaves=2,hosts=2 8',
        'omega:8 20',
        'dragonfly:h=1 12',
        'dce:n=3,delta=1 24',
        'cbanyan:3 24',
        'ccc:3 24',
        'mdce:B=1,C=1,P=1,n=2 32',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
