import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandRange, expandSweep, fileInputs, pointKey, sweepJsonSchema } from '../../src/sweep/file.js';
import { MESHWORK_VERSION } from '../../src/sweep/version.js';
import { buildTopology, exportTopology } from '../../src/index.js';
import { tempDir } from '../helpers/temp.js';
import { loadCommand } from '../../src/sweep/commands.js';
import { SWEEP_KINDS } from '../../src/sweep/kinds.js';

// expandSweep reads each kind's options from its command, loaded on demand.
beforeAll(() => Promise.all(SWEEP_KINDS.map(loadCommand)));
import { InputError, LimitError } from '../../src/util/errors.js';

const traffic = (extra: Record<string, unknown>): unknown => ({ kind: 'traffic', fixed: { topology: 'ring:4', pattern: 'uniform' }, ...extra });

describe('sweep file', () => {
  it('schemas/sweep.schema.json is the validator, exported', () => {
    const file = JSON.parse(readFileSync(new URL('../../schemas/sweep.schema.json', import.meta.url), 'utf8'));
    expect(file).toEqual(sweepJsonSchema());
  });

  it('expands ranges: linear inclusive, geometric, log-spaced, with CLI units normalised', () => {
    expect(expandRange('rates', '0.01:0.05:0.01')).toEqual(['0.01', '0.02', '0.03', '0.04', '0.05']);
    expect(expandRange('size', '1KiB:16KiB:*4')).toEqual(['1024', '4096', '16384']);
    // 10^0, 10^1, 10^2: log-spaced N values including both ends.
    expect(expandRange('packet-size', '1:100:log3')).toEqual(['1', '10', '100']);
    expect(expandRange('alpha', '1us:3us:1us')).toEqual(['0.000001s', '0.000002s', '0.000003s']);
    expect(() => expandRange('rates', '0.5:0.1:0.1')).toThrow(InputError);
    expect(() => expandRange('rates', '0.1:0.5')).toThrow(InputError);
  });

  it('is the cartesian product of axes, times zip groups, times seeds; last axis fastest', () => {
    const sweep = expandSweep(
      traffic({ axes: { rates: [0.1, 0.2], 'packet-size': [1, 4] }, zip: [{ vcs: [1, 2], 'vc-buf': [4, 8] }], repeat: { seeds: 3 } }),
    );
    expect(sweep.points).toHaveLength(2 * 2 * 2 * 3);
    const first = sweep.points.slice(0, 3).map((p) => [p.params.rates, p.params['packet-size'], p.params.vcs, p.params['vc-buf'], p.params.seed]);
    expect(first).toEqual([
      ['0.1', '1', '1', '4', '1'],
      ['0.1', '1', '1', '4', '2'],
      ['0.1', '1', '1', '4', '3'],
    ]);
    // Zip axes move together: vcs=2 always with vc-buf=8.
    for (const p of sweep.points) expect(p.params['vc-buf']).toBe(p.params.vcs === '1' ? '4' : '8');
    // CLI defaults are filled in (traffic's --preset defaults to booksim).
    expect(sweep.points[0].params.preset).toBe('booksim');
    expect(sweep.paramNames).toEqual(['packet-size', 'pattern', 'preset', 'rates', 'seed', 'topology', 'vc-buf', 'vcs']);
  });

  it('keys resolved points: 1KiB and 1024 are one point, a default spelled out is the same point', () => {
    const a = expandSweep({ kind: 'run', fixed: { topology: 'torus:4x4', algorithm: 'pairwise' }, axes: { size: ['1KiB', 1024, '2KiB'] } });
    expect(a.points).toHaveLength(2);
    const b = expandSweep({ kind: 'run', fixed: { topology: 'torus:4x4', algorithm: 'pairwise', collective: 'alltoall', size: '1024B' } });
    expect(b.points[0].key).toBe(a.points[0].key);
    expect(a.points[0].key).toBe(pointKey('run', a.points[0].params));
    expect(a.points[1].key).not.toBe(a.points[0].key);
  });

  it('keys what a named file holds: the same text in another directory, or the file edited, is another point', () => {
    const root = tempDir('sweep-keys');
    for (const [d, spec] of [['d1', 'torus:4x4'], ['d2', 'torus:4x4,bw=100Gbps']] as const) {
      mkdirSync(join(root, d), { recursive: true });
      writeFileSync(join(root, d, 'net.json'), exportTopology(buildTopology(spec), 'json'));
    }
    const raw = { kind: 'run', fixed: { topology: 'file:net.json', collective: 'alltoall', size: '16KiB', algorithm: 'pairwise' } };
    const cwd = process.cwd();
    const keyIn = (d: string): string => {
      process.chdir(join(root, d));
      try {
        return expandSweep(raw).points[0].key;
      } finally {
        process.chdir(cwd);
      }
    };
    const first = keyIn('d1');
    expect(keyIn('d1')).toBe(first);
    expect(keyIn('d2')).not.toBe(first);
    writeFileSync(join(root, 'd1', 'net.json'), exportTopology(buildTopology('torus:4x4,bw=1Gbps'), 'json'));
    expect(keyIn('d1')).not.toBe(first);
    // A point that names no file keeps the key it always had (kind, resolved options, version).
    const plain = expandSweep({ kind: 'run', fixed: { topology: 'torus:4x4', algorithm: 'pairwise', size: '1KiB' } }).points[0];
    expect(fileInputs(plain.params)).toEqual({});
    expect(plain.key).toBe(createHash('sha256').update(JSON.stringify({ kind: 'run', params: plain.params, version: MESHWORK_VERSION })).digest('hex').slice(0, 32));
  });

  it('takes topo specs and flags like the CLI', () => {
    const sweep = expandSweep({ kind: 'topo', axes: { topology: ['torus:4x4', 'mesh:4x4'] }, fixed: { 'no-bisection': true } });
    expect(sweep.points.map((p) => p.params.topology)).toEqual(['torus:4x4', 'mesh:4x4']);
    expect(sweep.points[0].params['no-bisection']).toBe(true);
  });

  it('refuses what the CLI would refuse, naming the field', () => {
    const message = (raw: unknown): string => {
      try {
        expandSweep(raw);
      } catch (err) {
        expect(err).toBeInstanceOf(InputError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(message(traffic({ axes: { packetsize: [1] } }))).toMatch(/^axes\.packetsize: got "packetsize"; accepted: an option of meshwork traffic: topology, .*\bpattern, rates, preset, packet-size/);
    expect(message(traffic({ fixed: { topology: 'ring:4', pattern: 'uniform', csv: 'x.csv' } }))).toMatch(/^fixed\.csv:/);
    // --booksim-output only changes the printing: a sweep stores the Result, so it is no axis.
    expect(message(traffic({ axes: { 'booksim-output': [true, false] } }))).toMatch(/^axes\.booksim-output: got "booksim-output"/);
    expect(message({ kind: 'simulate' })).toMatch(/^kind: got "simulate"/);
    expect(message(traffic({ zip: [{ vcs: [1, 2], 'vc-buf': [4] }] }))).toMatch(/^zip\[0\]\.vc-buf: got "1 values"; accepted: 2 values/);
    expect(message(traffic({ axes: { pattern: ['uniform', 'bitrev'] } }))).toMatch(/^pattern: .*each option in one place only/);
    expect(message({ kind: 'traffic', fixed: { topology: 'ring:4', pattern: 'uniform' } })).toMatch(/^fixed\.rates: got \(nothing\); accepted: a value \(required/);
    expect(message({ kind: 'verify', fixed: { topology: 'ring:4' }, repeat: { seeds: 2 } })).toMatch(/^repeat\.seeds: .*has none/);
    expect(message({ kind: 'run', fixed: { topology: 'ring:4', algorithm: 'linear', size: '12 parsecs' } })).toMatch(/^fixed\.size: got "12 parsecs"/);
  });

  it('refuses a sweep too large before building any point', () => {
    const values = Array.from({ length: 1001 }, (_, i) => i + 1);
    expect(() => expandSweep(traffic({ axes: { rates: values.map((v) => v / 1e4), seed: values } }))).toThrow(LimitError);
  });
});
