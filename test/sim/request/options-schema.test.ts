/**
 * The option schema (src/sim/options-schema.ts) is the one declaration of the model options: the
 * CLI's flags and help, the sweep file's units and the JSON schema all come from its rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expandSweep } from '../../../src/sweep/file.js';
import { freshProgram, loadCommand } from '../../../src/sweep/commands.js';
import { MODEL_OPTIONS, modelOptionsFromText, optionUnit } from '../../../src/sim/options-schema.js';
import { InputError } from '../../../src/util/errors.js';

beforeAll(() => loadCommand('run'));

const runSweep = (axes: Record<string, unknown>) => expandSweep({ kind: 'run', fixed: { topology: 'torus:4x4', algorithm: 'pairwise', size: '1KiB' }, axes });

describe('option schema', () => {
  it('sweep units come from the schema: eager-threshold [64KiB, 65536] is one point', () => {
    expect(optionUnit('eager-threshold')).toBe('size');
    const sweep = runSweep({ 'eager-threshold': ['64KiB', 65536] });
    expect(sweep.points).toHaveLength(1);
    expect(sweep.points[0].params['eager-threshold']).toBe('65536');
  });

  it('a size range with a factor expands: eager-threshold 1KiB:1MiB:*2 is 11 points, in bytes', () => {
    const sweep = runSweep({ 'eager-threshold': '1KiB:1MiB:*2' });
    expect(sweep.points.map((p) => Number(p.params['eager-threshold'])).sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => 1024 * 2 ** i));
  });

  it('every row is a flag of meshwork run, with its help, and a sweep option', () => {
    const run = freshProgram('run').commands.find((c) => c.name() === 'run')!;
    const help = run.helpInformation();
    for (const row of MODEL_OPTIONS) {
      expect(help).toContain(`--${row.flag} `);
      expect(() => runSweep({ [row.flag]: [row.unit === 'choice' ? row.choices![0] : row.unit === 'int' ? '2' : row.unit === 'number' ? '1e-9' : row.unit === 'time' ? '1us' : row.unit === 'size' ? '1KiB' : '1GB/s'] })).not.toThrow();
    }
  });

  it('the option added as one row, simultaneity, is in --help, in sweep files and parsed into the model', () => {
    const run = freshProgram('run').commands.find((c) => c.name() === 'run')!;
    expect(run.helpInformation()).toMatch(/--simultaneity <x>\s+relative time tolerance/);
    expect(runSweep({ simultaneity: ['1e-9', '1e-6'] }).points).toHaveLength(2);
    expect(modelOptionsFromText({ simultaneity: '1e-9' })).toEqual({ simultaneity: 1e-9 });
    expect(() => modelOptionsFromText({ simultaneity: '1' })).toThrow(/simultaneity: got "1"; accepted: a number from 0 to 0.001/);
  });

  it('parses text in human units into library units, refusing bad values in one line naming the flag', () => {
    expect(modelOptionsFromText({ alpha: '2us', 'eager-threshold': '1KiB', 'reduce-bw': '10GB/s', protocol: 'mpi', nics: '2' })).toEqual({
      alpha: 2e-6, eagerThreshold: 1024, gammaReduce: 1e-10, protocol: 'mpi', nics: 2,
    });
    expect(() => modelOptionsFromText({ protocol: 'tcp' })).toThrow(InputError);
    expect(() => modelOptionsFromText({ protocol: 'tcp' })).toThrow(/protocol: got "tcp"; accepted: eager, mpi, smpi/);
  });
});

describe('a sweep point reaches the model through the schema', () => {
  it('executePoint runs a run point as a RunRequest: simultaneity and eager-threshold arrive in the recorded model', async () => {
    const { executePoint } = await import('../../../src/sweep/execute.js');
    const params = runSweep({ simultaneity: ['1e-9'], 'eager-threshold': ['1KiB'] }).points[0].params;
    const outcome = await executePoint('run', params);
    expect(outcome.error).toBeNull();
    const result = JSON.parse(outcome.result!);
    expect(result.model).toMatchObject({ simultaneity: 1e-9, eagerThreshold: 1024 });
    expect(result.request.model).toMatchObject({ simultaneity: 1e-9, eagerThreshold: 1024 });
  });
});
