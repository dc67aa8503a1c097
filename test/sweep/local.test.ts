import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { killHard, startCli, storedRows, tempDir, TINY_200, writeSweep } from '../helpers/sweep.js';

// Each test spawns several CLI processes; on the shared 2-core machine their wall time varies tenfold.
vi.setConfig({ testTimeout: 400_000 });

describe('meshwork sweep run (local pool, DuckDB store)', () => {
  const dir = tempDir('sweep');
  const file = writeSweep(dir, 'tiny', TINY_200);
  let reference: Array<Record<string, unknown>> = [];

  it('--jobs 1 and --jobs 2 store identical rows (timings aside), one per point', async () => {
    const one = runCli(['sweep', 'run', file, '--store', join(dir, 'j1.duckdb'), '--jobs', '1', '--log', 'none']);
    expect(one.stderr).toMatch(/done: 200\/200 points .*200 run now, 0 already stored, 0 failed/);
    const two = runCli(['sweep', 'run', file, '--store', join(dir, 'j2.duckdb'), '--jobs', '2', '--log', 'none']);
    expect(two.code).toBe(0);
    reference = await storedRows(join(dir, 'j1.duckdb'));
    expect(reference).toHaveLength(200);
    expect(new Set(reference.map((r) => r.key)).size).toBe(200);
    expect(await storedRows(join(dir, 'j2.duckdb'))).toEqual(reference);
    // Every parameter is a column, every headline figure too, and the full Result is kept.
    const row = reference[0];
    expect(Object.keys(row)).toEqual(expect.arrayContaining(['rates', 'packet_size', 'seed', 'topology', 'pattern', 'horizon', 'packet_latency', 'accepted_flit_rate', 'result', 'meshwork_version']));
    const result = JSON.parse(row.result as string);
    expect(result.points[0].rate).toBe(Number(row.rates));
    expect(result.points[0].meanLatency).toBe(row.packet_latency);
    // A point's figures are those of the same command run alone (the CLI is the reference).
    const alone = runCli(['traffic', '--topology', 'ring:4', '--pattern', 'uniform', '--horizon', '200', '--rates', String(row.rates), '--packet-size', String(row.packet_size), '--seed', String(row.seed), '--json']);
    expect(JSON.parse(alone.stdout).points).toEqual(result.points);
  });

  it('resumes after kill -9 at a random moment: every point once, values identical to the uninterrupted run', async () => {
    const store = join(dir, 'killed.duckdb');
    const killAfter = 10 + Math.floor(Math.random() * 140);
    const child = startCli(['sweep', 'run', file, '--store', store, '--jobs', '2', '--log', 'jsonl']);
    await child.waitForLines(killAfter);
    killHard(child);
    await child.exited;
    const partial = await storedRows(store);
    expect(partial.length, `killed after ${killAfter} points`).toBeLessThan(200);
    const resumed = runCli(['sweep', 'run', file, '--store', store, '--jobs', '2', '--log', 'none']);
    expect(resumed.stderr).toMatch(new RegExp(`done: 200/200 points .*\\(${200 - partial.length} run now, ${partial.length} already stored`));
    expect(await storedRows(store)).toEqual(reference);
    // Nothing is left to run: a third invocation runs no point.
    expect(runCli(['sweep', 'run', file, '--store', store, '--log', 'none']).stderr).toMatch(/0 run now, 200 already stored/);
  });

  it('a changed sweep file adds only its new points; a failing point is stored with its error and retried on re-run', async () => {
    const store = join(dir, 'grow.duckdb');
    const small = writeSweep(dir, 'small', { kind: 'topo', axes: { topology: ['torus:4x4', 'ring:6'] } });
    expect(runCli(['sweep', 'run', small, '--store', store, '--log', 'none']).code).toBe(0);
    const grown = writeSweep(dir, 'grown', { kind: 'topo', axes: { topology: ['torus:4x4', 'ring:6', 'mesh:3x3', 'torus:0x4'] } });
    const r = runCli(['sweep', 'run', grown, '--store', store, '--log', 'jsonl']);
    expect(r.stderr).toMatch(/done: 4\/4 points .*\(2 run now, 2 already stored, 1 failed\)/);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.params.topology).sort()).toEqual(['mesh:3x3', 'torus:0x4']);
    const rows = await storedRows(store);
    const failed = rows.find((row) => row.topology === 'torus:0x4')!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^error: topology\.dims: got "0"; accepted:/);
    // torus:4x4: diameter 4, mean distance with self 2 (2 x 4/4 per ring of 4; docs/analysis.md).
    const torus = rows.find((row) => row.topology === 'torus:4x4')!;
    expect([torus.diameter, torus.mean_distance_with_self]).toEqual([4, 2]);
    const status = runCli(['sweep', 'status', '--store', store, '--sweep', grown]);
    expect(status.stdout).toMatch(/grown: 3\/4 done, 1 failed, 0 not run/);
    expect(runCli(['sweep', 'run', grown, '--store', store, '--log', 'none']).stderr).toMatch(/\(1 run now, 3 already stored, 1 failed\)/);
  });

  it('exports CSV, Parquet and JSON, and plots a column against another', () => {
    const store = join(dir, 'j1.duckdb');
    const csv = join(dir, 'out.csv');
    expect(runCli(['sweep', 'export', '--store', store, '--format', 'csv', '--out', csv]).code).toBe(0);
    const [header, ...body] = readFileSync(csv, 'utf8').trim().split('\n');
    expect(header.split(',')).toEqual(expect.arrayContaining(['key', 'rates', 'packet_size', 'packet_latency']));
    expect(body).toHaveLength(200);
    const parquet = join(dir, 'out.parquet');
    expect(runCli(['sweep', 'export', '--store', store, '--format', 'parquet', '--out', parquet]).code).toBe(0);
    const bytes = readFileSync(parquet);
    expect([bytes.subarray(0, 4).toString(), bytes.subarray(-4).toString()]).toEqual(['PAR1', 'PAR1']);
    const svg = join(dir, 'plot.svg');
    const plot = runCli(['sweep', 'plot', '--store', store, '--x', 'rate', '--y', 'packet_latency', '--color', 'packet-size', '--out', svg]);
    expect(plot.code, plot.stderr).toBe(0);
    const text = readFileSync(svg, 'utf8');
    expect(text).toMatch(/^<svg/);
    expect(text).toContain('packet_latency against rate');
  });

  it('a graph file topology runs in the pool threads too, with the same figures as the spec it was exported from', async () => {
    const graph = join(dir, 'ring6.json');
    expect(runCli(['export', 'ring:6', '--format', 'json', '--out', graph]).code).toBe(0);
    const sweep = writeSweep(dir, 'graph-file', { kind: 'topo', axes: { topology: [`file:${graph}`, 'ring:6'] } });
    const store = join(dir, 'graph-file.duckdb');
    const run = runCli(['sweep', 'run', sweep, '--store', store, '--jobs', '2', '--log', 'none']);
    expect(run.stderr).toMatch(/done: 2\/2 points .*0 failed/);
    const rows = await storedRows(store);
    const byTopology = new Map(rows.map((r) => [String(r.topology), r]));
    // ring:6: 6 nodes, 12 directed channels, diameter ⌊6/2⌋ = 3 (the family's closed forms).
    expect(byTopology.get('ring:6')).toMatchObject({ nodes: 6, channels: 12, diameter: 3 });
    for (const column of ['nodes', 'channels', 'diameter', 'mean_distance_without_self']) {
      expect(byTopology.get(`file:${graph}`)?.[column]).toEqual(byTopology.get('ring:6')?.[column]);
    }
  });

  it('refuses a bad sweep file, option or store with one line and exit 2, writing nothing', () => {
    const bad = writeSweep(dir, 'bad', { kind: 'traffic', fixed: { topology: 'ring:4', pattern: 'uniform' }, axes: { rate: [0.1] } });
    const store = join(dir, 'never.duckdb');
    expect(expectOneLineError(runCli(['sweep', 'run', bad, '--store', store]))).toMatch(/^meshwork: error: axes\.rate: got "rate"; accepted: an option of meshwork traffic/);
    // Refused before any connection: nothing listens on port 1.
    expect(expectOneLineError(runCli(['sweep', 'run', bad, '--store', store, '--queue', 'redis://127.0.0.1:1']))).toMatch(/axes\.rate/);
    expect(existsSync(store)).toBe(false);
    expect(expectOneLineError(runCli(['sweep', 'run', file, '--store', store, '--queue', 'http://x']))).toBe('meshwork: error: queue: got "http://x"; accepted: redis://HOST:PORT[/DB]');
    expect(expectOneLineError(runCli(['sweep', 'run', file, '--store', store, '--jobs', '0']))).toMatch(/^meshwork: error: jobs: got "0"/);
    expect(expectOneLineError(runCli(['sweep', 'export', '--store', join(dir, 'j1.duckdb'), '--format', 'xlsx', '--out', join(dir, 'x')]))).toMatch(/^meshwork: error: format: got "xlsx"; accepted: csv \| parquet \| json/);
    expect(expectOneLineError(runCli(['sweep', 'plot', '--store', join(dir, 'j1.duckdb'), '--x', 'rate', '--y', 'nope', '--out', join(dir, 'p.svg')]))).toMatch(/^meshwork: error: y: got "nope"; accepted: a column of the store/);
    expect(existsSync(join(dir, 'p.svg'))).toBe(false);
    expect(existsSync(store)).toBe(false);
  });
});
