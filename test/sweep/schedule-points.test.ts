/**
 * A `run` sweep over a user's own schedule files: `run --schedule FILE` times the file's collective,
 * so run's default `--collective alltoall` is not part of such a point (it was stored as the
 * point's `collective` column beside an allgather schedule).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expandSweep } from '../../src/sweep/file.js';
import { loadCommand } from '../../src/sweep/commands.js';

beforeAll(() => loadCommand('run'));

describe('run sweeps over schedule files', () => {
  it('leave the default collective out of schedule points, and keep it elsewhere', () => {
    const sweep = expandSweep({ kind: 'run', fixed: { topology: 'fullmesh:3', size: '1KiB' }, axes: { schedule: ['a.xml', 'b.json'] } });
    expect(sweep.points.map((p) => p.params.collective)).toEqual([undefined, undefined]);
    expect(sweep.paramNames).not.toContain('collective');
    const named = expandSweep({ kind: 'run', fixed: { topology: 'ring:4', size: '1KiB' }, axes: { algorithm: ['ring', 'bruck'] } });
    expect(named.points.map((p) => p.params.collective)).toEqual(['alltoall', 'alltoall']);
  });

  it('keep a collective the file names', () => {
    const sweep = expandSweep({ kind: 'run', fixed: { topology: 'fullmesh:3', size: '1KiB', collective: 'allgather' }, axes: { schedule: ['a.xml'] } });
    expect(sweep.points[0].params.collective).toBe('allgather');
  });
});
