/**
 * Sweeps of kind workload (issue 24): each point is a RunRequest of kind workload run through the
 * library in a pool thread; its stored Result must be what `meshwork workload run --json` prints for
 * the same options (the CLI run alone is the reference), and its figures the report's quantities.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { killHard, startCli, startRedis, storedRows, tempDir, writeSweep } from '../helpers/sweep.js';
import { expandSweep } from '../../src/sweep/file.js';
import { loadCommand } from '../../src/sweep/commands.js';
import { GENERATE_FIELDS } from '../../src/cli/workload-spec.js';
import { runRequestJsonSchema } from '../../src/sim/request.js';

vi.setConfig({ testTimeout: 400_000 });
beforeAll(() => loadCommand('workload'));

type Row = Record<string, unknown>;
interface Report {
  step_time_s: number;
  ranks: Array<{ exposed_communication_s: number; communication_s: number; compute_s: number }>;
  collectives: Array<{ collective: string; time_s: number }>;
}

const GENERATE = { tp: 2, dp: 2, layers: 1, hidden: 1024, sequence: 256 };

/** `meshwork workload run` with a stored point's options, alone; its --json output parsed. */
function cliAlone(params: Record<string, string | boolean>): Row {
  const argv = ['workload', 'run'];
  for (const [name, value] of Object.entries(params)) {
    if (value === true) argv.push(`--${name}`);
    else if (typeof value === 'string') argv.push(`--${name}`, value);
  }
  const r = runCli([...argv, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row;
}

/** The stored figures against the CLI's report, each recomputed here from its definition (docs/workloads.md). */
function expectFigures(row: Row, report: Report): void {
  const exposed = report.ranks.map((r) => r.exposed_communication_s);
  const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  expect(row.step_time_s).toBe(report.step_time_s);
  expect(row.mean_exposed_communication_s).toBe(mean(exposed));
  expect(row.max_exposed_communication_s).toBe(Math.max(...exposed));
  expect(row.mean_communication_s).toBe(mean(report.ranks.map((r) => r.communication_s)));
  expect(row.mean_compute_s).toBe(mean(report.ranks.map((r) => r.compute_s)));
  expect(row.collectives).toBe(report.collectives.length);
  let allreduce = 0;
  for (const c of report.collectives) if (c.collective === 'allreduce') allreduce += c.time_s;
  expect(row.allreduce_time_s).toBe(allreduce);
  // A dense TP x DP step has only allreduces (docs/workloads.md, the generator).
  expect(row.alltoall_time_s).toBe(0);
  expect(row.reduce_scatter_time_s).toBe(0);
}

describe('sweep kind workload', () => {
  const dir = tempDir('wsweep');

  it('2 topologies x 2 algorithms on a generated step, in the pool: every row equals workload run --json of its point', async () => {
    const file = writeSweep(dir, 'grid', {
      kind: 'workload',
      fixed: { generate: GENERATE },
      axes: { topology: ['ring:4', 'fullmesh:4'], algorithm: [{ allreduce: 'ring' }, 'allreduce=direct'] },
    });
    const store = join(dir, 'grid.duckdb');
    const r = runCli(['sweep', 'run', file, '--store', store, '--jobs', '2', '--log', 'none']);
    expect(r.stderr).toMatch(/done: 4\/4 points .*4 run now, 0 already stored, 0 failed/);
    expect(r.code).toBe(0);
    const rows = await storedRows(store);
    expect(rows.map((row) => `${row.topology} ${row.algorithm}`).sort()).toEqual(['fullmesh:4 allreduce=direct', 'fullmesh:4 allreduce=ring', 'ring:4 allreduce=direct', 'ring:4 allreduce=ring']);
    for (const row of rows) {
      expect(row.kind).toBe('workload');
      expect(row.status).toBe('ok');
      expect(row.generate).toBe('tp=2,dp=2,layers=1,hidden=1024,sequence=256');
      const params = JSON.parse(row.params as string) as Record<string, string>;
      const alone = cliAlone(params);
      const stored = JSON.parse(row.result as string) as Row;
      expect(stored).toEqual(alone);
      // The full resolved request is stored, and it names the point's choices.
      const request = stored.request as { topology: string; workload: { generate: unknown; algorithms: unknown } };
      expect(request.topology).toBe(row.topology);
      // Every generator parameter, the ones left out at their defaults (workload/generate.ts TRANSFORMER_DEFAULTS).
      expect(request.workload.generate).toEqual({ ...GENERATE, pp: 1, ep: 1, microbatch: 1, microbatches: 1, bytesPerElement: 2 });
      expect(request.workload.algorithms).toEqual({ allreduce: String(row.algorithm).replace('allreduce=', '') });
      expectFigures(row, alone.report as Report);
    }
    // The axes take effect: a fully connected fabric beats the ring for the same algorithm.
    const step = (t: string, a: string): number => rows.find((row) => row.topology === t && row.algorithm === a)!.step_time_s as number;
    expect(step('fullmesh:4', 'allreduce=ring')).toBeLessThan(step('ring:4', 'allreduce=ring'));
    expect(step('ring:4', 'allreduce=direct')).not.toBe(step('ring:4', 'allreduce=ring'));
  });

  it('through the queue (BullMQ, a real redis-server, one worker): the same rows as the pool', async () => {
    const redis = await startRedis();
    const worker = startCli(['sweep', 'worker', '--queue', redis.url, '--jobs', '1', '--log', 'none']);
    try {
      const store = join(dir, 'queue.duckdb');
      const r = runCli(['sweep', 'run', join(dir, 'grid.json'), '--store', store, '--queue', redis.url, '--log', 'none']);
      expect(r.code, r.stderr).toBe(0);
      expect(await storedRows(store)).toEqual(await storedRows(join(dir, 'grid.duckdb')));
    } finally {
      killHard(worker);
      redis.stop();
    }
  });

  it('a trace directory (workload generate --out) gives the generated step\'s report, and the CLI\'s result', async () => {
    const traces = join(dir, 'traces');
    const g = runCli(['workload', 'generate', '--tp', '2', '--dp', '2', '--layers', '1', '--hidden', '1024', '--sequence', '256', '--out', traces]);
    expect(g.code, g.stderr).toBe(0);
    const store = join(dir, 'trace.duckdb');
    const file = writeSweep(dir, 'trace', { kind: 'workload', fixed: { trace: traces, topology: 'ring:4', algorithm: { allreduce: 'ring' } } });
    expect(runCli(['sweep', 'run', file, '--store', store, '--log', 'none']).code).toBe(0);
    const [row] = await storedRows(store);
    const stored = JSON.parse(row.result as string) as Row;
    expect(stored).toEqual(cliAlone({ trace: traces, topology: 'ring:4', algorithm: 'allreduce=ring' }));
    const generated = cliAlone({ generate: 'tp=2,dp=2,layers=1,hidden=1024,sequence=256', topology: 'ring:4', algorithm: 'allreduce=ring' });
    expect(stored.report).toEqual(generated.report);
  });

  it('the docs/sweeps.md example runs: 16 points, each ok, a point equal to the CLI run alone', async () => {
    const doc = readFileSync(new URL('../../docs/sweeps.md', import.meta.url), 'utf8');
    const example = /```yaml\n(kind: workload\n[\s\S]*?)```/.exec(doc)![1];
    const file = join(dir, 'tp2dp2.yaml');
    writeFileSync(file, example);
    const store = join(dir, 'doc.duckdb');
    const r = runCli(['sweep', 'run', file, '--store', store, '--jobs', '2', '--log', 'none']);
    expect(r.stderr).toMatch(/done: 16\/16 points .*0 failed/);
    const rows = await storedRows(store);
    expect(rows.every((row) => row.status === 'ok' && row.sweep === 'tp2dp2')).toBe(true);
    // alpha is a per-message latency: 5 µs instead of 1 µs lengthens every step.
    const at = (alpha: string): Row[] => rows.filter((row) => row.alpha === alpha).sort((a, b) => String(a.key).localeCompare(String(b.key)));
    const slow = at('0.000005s');
    const fast = at('0.000001s');
    expect(fast).toHaveLength(8);
    for (const row of fast) {
      const twin = slow.find((s) => s.topology === row.topology && s.algorithm === row.algorithm && s.device === row.device)!;
      expect(twin.step_time_s as number).toBeGreaterThan(row.step_time_s as number);
    }
    const last = rows[rows.length - 1];
    expect(JSON.parse(last.result as string)).toEqual(cliAlone(JSON.parse(last.params as string)));
  });

  it('spellings of generate and algorithm are one point; the generator keys are the request schema\'s', () => {
    const a = expandSweep({ kind: 'workload', fixed: { topology: 'ring:4', generate: { dp: 2, tp: 2 }, algorithm: { alltoall: 'bruck', allreduce: 'ring' } } });
    const b = expandSweep({ kind: 'workload', fixed: { topology: 'ring:4', generate: 'tp=2, dp=2', algorithm: 'allreduce=ring;alltoall=bruck' } });
    expect(a.points[0].params).toEqual({ algorithm: 'allreduce=ring,alltoall=bruck', generate: 'tp=2,dp=2', topology: 'ring:4' });
    expect(b.points[0].key).toBe(a.points[0].key);
    // A generator default spelled out (dp=1, layers=4) is the same step, so the same point.
    const short = expandSweep({ kind: 'workload', fixed: { topology: 'ring:4', generate: { tp: 2 } } });
    const spelled = expandSweep({ kind: 'workload', fixed: { topology: 'ring:4', generate: { tp: 2, dp: 1, layers: 4 } } });
    expect(spelled.points[0].key).toBe(short.points[0].key);
    expect(expandSweep({ kind: 'workload', fixed: { topology: 'ring:4', generate: { tp: 2, dp: 2 } } }).points[0].key).not.toBe(short.points[0].key);
    // An axis of mappings: one point per model.
    const models = expandSweep({ kind: 'workload', fixed: { topology: 'ring:4' }, axes: { generate: [{ tp: 2, dp: 2 }, { tp: 4, dp: 1 }] } });
    expect(models.points.map((p) => p.params.generate)).toEqual(['tp=2,dp=2', 'tp=4,dp=1']);
    // A point is keyed by its RunRequest: defaults spelled out (engine flow, seed 1) and units are one point.
    const c = expandSweep({ kind: 'workload', fixed: { topology: 'ring:4', generate: { tp: 2, dp: 2 }, algorithm: 'allreduce=ring,alltoall=bruck' }, axes: { engine: ['flow'], seed: [1], alpha: ['1us', '0.000001s'] } });
    expect(c.points.map((p) => p.key)).toEqual([expandSweep({ kind: 'workload', fixed: { ...a.points[0].params, alpha: '1000ns' } }).points[0].key]);
    expect(expandSweep({ kind: 'workload', fixed: { ...a.points[0].params, alpha: '2us' } }).points[0].key).not.toBe(c.points[0].key);
    const schema = runRequestJsonSchema() as { $defs?: unknown; properties: { workload: { oneOf?: Array<{ properties: Record<string, { properties?: object }> }>; anyOf?: Array<{ properties: Record<string, { properties?: object }> }> } } };
    const kinds = schema.properties.workload.oneOf ?? schema.properties.workload.anyOf!;
    const workload = kinds.find((k) => (k.properties.kind as { const?: string }).const === 'workload')!;
    expect(Object.keys(GENERATE_FIELDS)).toEqual(Object.keys(workload.properties.generate.properties!));
  });

  it('refuses a bad field in one line naming it, before any point runs', () => {
    const refusal = (fixed: Row, axes?: Row): string => {
      try {
        expandSweep({ kind: 'workload', fixed, ...(axes ? { axes } : {}) });
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    const base = { topology: 'ring:4', generate: { tp: 2 } };
    expect(refusal({ ...base, generate: { tq: 2 } })).toMatch(/^fixed\.generate: got "tq=2"; accepted: name=value items, names tp, pp, dp/);
    expect(refusal({ ...base, generate: { tp: 0 } })).toMatch(/^fixed\.generate\.tp: got "0"; accepted: an integer from 1/);
    expect(refusal({ generate: { tp: 2 } })).toMatch(/^topology: got \(nothing\)/);
    expect(refusal({ ...base, trace: dir })).toMatch(/^trace: .*or --generate instead \(one of the two\)/);
    expect(refusal(base, { algorithm: [{ allreduce: 'ring' }, { allreduse: 'ring' }] })).toMatch(/^algorithm: got "allreduse=ring"/);
    expect(refusal(base, { device: ['h100', 'h900'] })).toMatch(/^device: got "h900"/);
    expect(refusal({ ...base, topology: { a: 1 } })).toBe('fixed.topology: got {"a":1}; accepted: a string, a number or true/false (see schemas/sweep.schema.json)');
    expect(refusal({ ...base, links: 3 })).toMatch(/^fixed\.links: got "links"; accepted: an option of meshwork workload run: trace, generate, topology/);
    expect(refusal({ topology: 'ring:4', trace: join(dir, 'absent') })).toMatch(/^trace: got ".*absent"; accepted: an existing directory/);
    // Through the CLI: exit 2, one line, and no store was created.
    const file = writeSweep(dir, 'bad', { kind: 'workload', fixed: base, axes: { compute: ['trace', 'fast'] } });
    const store = join(dir, 'bad.duckdb');
    const r = runCli(['sweep', 'run', file, '--store', store]);
    expect(expectOneLineError(r)).toBe('meshwork: error: compute: got "fast"; accepted: trace, roofline');
    expect(existsSync(store)).toBe(false);
  });
});
