/**
 * `meshwork sweep query`: SQL on a sweep store with no DuckDB client installed (docs/sweeps.md
 * named the `duckdb` shell, Python or another client; a checkout has only the npm package).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('sweep query', () => {
  const dir = tempDir('query');
  const file = join(dir, 'shapes.yaml');
  const store = join(dir, 'shapes.duckdb');
  writeFileSync(file, 'kind: topo\nname: shapes\naxes:\n  topology: [ring:8, torus:4x4, hypercube:4]\n');
  const ran = runCli(['sweep', 'run', file, '--store', store, '--jobs', '1']);

  it('prints the rows of a query as a table, CSV or JSON', () => {
    expect(ran.code, ran.stderr).toBe(0);
    const sql = 'SELECT topology, diameter, mean_distance_with_self FROM points ORDER BY diameter, topology';
    // ring:8 diameter 4, mean 16/8 = 2; torus:4x4 diameter 4, mean 2; hypercube:4 diameter 4, mean 2: all 16/8 or 32/16.
    const json = runCli(['sweep', 'query', sql, '--store', store, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      { topology: 'hypercube:4', diameter: 4, mean_distance_with_self: 2 },
      { topology: 'ring:8', diameter: 4, mean_distance_with_self: 2 },
      { topology: 'torus:4x4', diameter: 4, mean_distance_with_self: 2 },
    ]);
    expect(runCli(['sweep', 'query', sql, '--store', store, '--csv']).stdout.trim().split('\n')).toEqual([
      'topology,diameter,mean_distance_with_self',
      'hypercube:4,4,2',
      'ring:8,4,2',
      'torus:4x4,4,2',
    ]);
    const text = runCli(['sweep', 'query', 'SELECT count(*) AS points FROM points', '--store', store]);
    expect(text.stdout.trim().split('\n')).toEqual(['points', '------', '     3']);
  });

  it('opens the store read-only and names a bad query in one line', () => {
    expect(expectOneLineError(runCli(['sweep', 'query', 'DELETE FROM points', '--store', store]))).toBe('meshwork: error: sql: got "DELETE FROM points"; accepted: a query DuckDB can run on the store\'s points table, read-only (a DELETE statement, which is not a query)');
    expect(expectOneLineError(runCli(['sweep', 'query', 'SELECT nope FROM points', '--store', store]))).toMatch(/Referenced column "nope" not found/);
    expect(JSON.parse(runCli(['sweep', 'query', 'SELECT count(*) AS n FROM points', '--store', store, '--json']).stdout)).toEqual([{ n: 3 }]);
  });

  it('export and plot refuse a --sweep the store does not hold, and a plot with no numeric point names x and y', () => {
    const out = join(dir, 'nope.csv');
    expect(expectOneLineError(runCli(['sweep', 'export', '--store', store, '--out', out, '--sweep', 'nope']))).toBe('meshwork: error: sweep: got "nope"; accepted: a sweep of the store: shapes');
    expect(existsSync(out)).toBe(false);
    expect(expectOneLineError(runCli(['sweep', 'plot', '--store', store, '--x', 'diameter', '--y', 'nodes', '--out', join(dir, 'p.svg'), '--sweep', 'nope']))).toMatch(/^meshwork: error: sweep: got "nope"/);
    expect(expectOneLineError(runCli(['sweep', 'plot', '--store', store, '--x', 'topology', '--y', 'diameter', '--out', join(dir, 'p.svg')]))).toBe(
      'meshwork: error: x: got "topology against diameter"; accepted: columns x and y both numbers in at least one finished point (a text column such as topology plots as --color)',
    );
  });

  it('runs one reading statement: COPY ... TO, EXPORT and ATTACH, which a read-only store allows, are refused', () => {
    const target = join(dir, 'copied.csv');
    for (const sql of [`COPY (SELECT 1) TO '${target}'`, `EXPORT DATABASE '${join(dir, 'exported')}'`, `ATTACH '${join(dir, 'other.duckdb')}' AS other`]) {
      expect(expectOneLineError(runCli(['sweep', 'query', sql, '--store', store]))).toMatch(/; accepted: a query DuckDB can run on the store's points table, read-only \((a ATTACH statement, which is not a query|Permission Error: Cannot access file .* file system operations are disabled by configuration)\)$/);
    }
    expect(existsSync(target) || existsSync(join(dir, 'exported')) || existsSync(join(dir, 'other.duckdb'))).toBe(false);
    expect(expectOneLineError(runCli(['sweep', 'query', 'SELECT 1; SELECT 2', '--store', store]))).toMatch(/\(2 statements; one is run\)$/);
    expect(runCli(['sweep', 'query', 'DESCRIBE points', '--store', store, '--csv']).stdout).toMatch(/^column_name,column_type/);
  });
});
