import type { Command } from 'commander';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../../util/errors.js';
import { importOptional } from '../../util/optional.js';
import { loadSweepFile, type Sweep, type SweepPoint } from '../../sweep/file.js';
import { estimatedCost } from '../../sweep/order.js';
import { progressBar, type Progress } from '../progress.js';
import type { RunSummary, SweepProgress } from '../../sweep/local.js';
import type { StoredOutcome, SweepStore } from '../../sweep/store.js';
import { planOutput, print, writeOutputs } from '../io.js';
import { STDOUT_PATH } from '../outputs.js';
import { EXIT_UNRUNNABLE } from '../errors.js';
import { jobsOption } from '../jobs.js';
import { forgetOnExit, removeDeadEntries, removeOnExit } from '../cleanup.js';

// The store, pool, queue and plotting modules load only when a sweep command runs: every other
// command (and every pool thread, which reads the command definitions) stays as quick to start.
const store = (): Promise<typeof import('../../sweep/store.js')> => importOptional(() => import('../../sweep/store.js'), ['@duckdb/node-api'], 'the sweep store');

const queue = (): Promise<typeof import('../../sweep/queue.js')> => importOptional(() => import('../../sweep/queue.js'), ['bullmq'], 'the sweep queue (--queue, sweep worker)');

const LOG_MODES = ['auto', 'bar', 'jsonl', 'none'] as const;
type LogMode = (typeof LOG_MODES)[number];

function logMode(text: string): Exclude<LogMode, 'auto'> {
  if (!(LOG_MODES as readonly string[]).includes(text)) throw new InputError('log', text, LOG_MODES.join(' | '));
  if (text === 'auto') return process.stderr.isTTY ? 'bar' : 'jsonl';
  return text as Exclude<LogMode, 'auto'>;
}

/**
 * A progress bar on a TTY (work done, points done / total, ETA), or one JSON line per finished
 * point. The bar advances by each point's estimated cost (order.ts: the cost the pool orders by),
 * not by its count: the longest points run first, so a count would make the ETA far too pessimistic
 * early and optimistic late (issue 28 item 10).
 */
function progressReporter(mode: Exclude<LogMode, 'auto'>, points: readonly SweepPoint[]): { onOutcome: (o: StoredOutcome, p: SweepProgress) => void; stop: () => void } {
  if (mode === 'jsonl') {
    return {
      onOutcome: (o, p) => print(JSON.stringify({ key: o.key, status: o.status, done: p.done, total: p.total, params: o.params, ...o.figures, error: o.error ?? undefined, elapsed_s: o.elapsed_s })),
      stop: () => {},
    };
  }
  if (mode === 'none') return { onOutcome: () => {}, stop: () => {} };
  const cost = new Map(points.map((p) => [p.key, estimatedCost(p)]));
  let bar: Progress | undefined;
  let totalCost = 0;
  let doneCost = 0;
  return {
    onOutcome: (o, p) => {
      // Points already stored (a resumed sweep) are not reported: the bar covers the work left.
      if (!bar) {
        bar = progressBar('sweep', { force: true });
        totalCost = [...cost.values()].reduce((a, b) => a + b, 0);
        doneCost = (totalCost * (p.done - 1)) / p.total;
      }
      doneCost += cost.get(o.key) ?? 1;
      bar.update(doneCost / totalCost, `${p.done}/${p.total} points`);
    },
    stop: () => bar?.stop(),
  };
}

function summaryLine(store: string, s: RunSummary): string {
  const stored = s.alreadyStored + s.ran;
  return `${s.interrupted ? 'interrupted' : 'done'}: ${stored}/${s.total} points in ${store} (${s.ran} run now, ${s.alreadyStored} already stored, ${s.failed} failed)`;
}

/** SIGINT/SIGTERM stop handing out points; what runs finishes and is stored; a second signal exits at once. */
function stopOnSignal(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handler = (sig: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(sig === 'SIGINT' ? 130 : 143);
    process.stderr.write(`meshwork: ${sig}: finishing the running points (again to quit at once; re-run to resume)\n`);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

async function withStore<T>(path: string, readOnly: boolean, fn: (store: SweepStore) => Promise<T>): Promise<T> {
  const opened = await (await store()).SweepStore.open(path, { readOnly });
  try {
    return await fn(opened);
  } finally {
    opened.close();
  }
}

/** A store opened read-only that must already hold points (status, export, plot). */
function withPoints<T>(path: string, fn: (store: SweepStore) => Promise<T>): Promise<T> {
  return withStore(path, true, (opened) => {
    if (!opened.hasTable()) throw new InputError('store', path, 'a sweep store (no points table in it)');
    return fn(opened);
  });
}

async function runCommand(file: string, o: { store: string; jobs?: string; queue?: string; log: string }): Promise<void> {
  const mode = logMode(o.log);
  const jobs = jobsOption(o.jobs);
  // BullMQ and its Redis client load only for a queue; a local sweep never needs them.
  const queued = o.queue === undefined ? undefined : await queue();
  const connection = o.queue === undefined ? undefined : queued!.parseQueueUrl(o.queue);
  const { WorkerPool } = await import('../../sweep/pool.js');
  let pool: InstanceType<typeof WorkerPool> | undefined;
  const { signal, dispose } = stopOnSignal();
  let reporter: ReturnType<typeof progressReporter> | undefined;
  try {
    // The threads start as soon as the file names its kind: they load the command while this thread
    // loads it too, expands the points and opens the store (issue 11: start-up off the critical path).
    const sweep: Sweep = await loadSweepFile(file, (kind) => {
      if (!connection) pool = new WorkerPool(jobs, { preload: kind, tasksPerThread: 2 });
    });
    // A bad sweep file is refused first (before any connection); the queue is reached before the store opens.
    if (connection) await queued!.checkQueueReachable(connection, o.queue!);
    const { runSweepLocal } = await import('../../sweep/local.js');
    const report = progressReporter(mode, sweep.points);
    reporter = report;
    const summary = await withStore(o.store, false, (opened) => {
      const handed = pool;
      pool = undefined;
      return queued && connection ? queued.submitSweep(opened, sweep, connection, { onOutcome: report.onOutcome, signal }) : runSweepLocal(opened, sweep, { jobs, onOutcome: report.onOutcome, signal, pool: handed });
    });
    report.stop();
    process.stderr.write(`${summaryLine(o.store, summary)}\n`);
    if (summary.interrupted) process.exitCode = 130;
    // Failed points are stored with their errors; the exit code says the sweep is not complete (issue 28 item 9).
    else if (summary.failed > 0) process.exitCode = EXIT_UNRUNNABLE;
  } finally {
    // Not handed over: the file was refused or the store could not be opened.
    await pool?.close();
    reporter?.stop();
    dispose();
  }
}

async function statusCommand(o: { store: string; sweep?: string }): Promise<void> {
  const sweep = o.sweep ? await loadSweepFile(o.sweep) : undefined;
  await withPoints(o.store, async (opened) => {
    const rows = await opened.query(`SELECT sweep, kind, status, count(*)::INTEGER AS points, round(sum(elapsed_s), 3) AS cpu_s FROM points GROUP BY ALL ORDER BY ALL`);
    const lines = rows.map((r) => `${r.sweep}  ${r.kind}  ${r.status}  ${r.points} points  ${r.cpu_s} s`);
    if (sweep) {
      const status = await opened.statusOf(sweep.points.map((p) => p.key));
      const ok = [...status.values()].filter((s) => s === 'ok').length;
      lines.push(`${sweep.name}: ${ok}/${sweep.points.length} done, ${status.size - ok} failed, ${sweep.points.length - status.size} not run`);
    }
    print(lines.length ? lines.join('\n') : 'no points stored');
  });
}

const EXPORT_FORMATS = ['csv', 'parquet', 'json'] as const;
/** `sweep export --out -`'s file in the system's temporary directory, named by its process. */
const EXPORT_TMP = /^\.meshwork-export\.(\d+)\.tmp$/;

async function exportCommand(o: { store: string; format: string; out: string; sweep?: string }): Promise<void> {
  if (!(EXPORT_FORMATS as readonly string[]).includes(o.format)) throw new InputError('format', o.format, EXPORT_FORMATS.join(' | '));
  // Checked before the store is opened: a missing directory, a directory, /proc... (outputs.ts).
  const planned = planOutput(o.out, 'out');
  const toStdout = o.out === STDOUT_PATH;
  // DuckDB writes a file: for `-` (standard output) it goes to the system's temporary directory first,
  // removed however the process ends (one a signal left is swept by the next export, as outputs.ts does).
  if (toStdout) removeDeadEntries(tmpdir(), (entry) => Number(EXPORT_TMP.exec(entry)?.[1] ?? NaN) || undefined);
  const tmp = toStdout ? join(tmpdir(), `.meshwork-export.${process.pid}.tmp`) : join(dirname(planned.target), `.${basename(planned.target)}.${process.pid}.tmp`);
  removeOnExit(tmp);
  const format = o.format === 'json' ? 'FORMAT json, ARRAY true' : o.format === 'csv' ? 'FORMAT csv, HEADER true' : 'FORMAT parquet';
  const where = o.sweep === undefined ? '' : ` WHERE sweep = '${o.sweep.replace(/'/g, "''")}'`;
  await withPoints(o.store, async (opened) => {
    await checkSweepName(opened, o.sweep);
    try {
      await opened.connection.run(`COPY (SELECT * FROM points${where} ORDER BY key) TO '${tmp.replace(/'/g, "''")}' (${format})`);
      if (planned.kind === 'stream') {
        writeOutputs([[planned, readFileSync(tmp)]]);
        rmSync(tmp, { force: true });
      } else renameSync(tmp, planned.target);
    } catch (err) {
      rmSync(tmp, { force: true });
      if (err instanceof InputError) throw err;
      throw new InputError('out', o.out, `a writable path (${(err as Error).message.split('\n')[0]})`);
    } finally {
      forgetOnExit(tmp);
    }
  });
}

/** A stored value as one cell: numbers as numbers, BIGINTs within 2^53 as numbers, the rest as text (JSON for objects). */
function queryCell(v: unknown): string | number {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  return typeof v === 'object' ? JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) : String(v as string | boolean);
}

/** `sweep query`: SQL on the store, opened read-only, with no DuckDB client to install. */
async function queryCommand(sql: string, o: { store: string; csv?: boolean; json?: boolean }): Promise<void> {
  if (o.csv && o.json) throw new InputError('csv', true, 'one of --csv and --json');
  const rows = await withPoints(o.store, async (opened) => {
    try {
      return await opened.readOnlyQuery(sql);
    } catch (err) {
      throw new InputError('sql', sql, `a query DuckDB can run on the store's points table, read-only (${(err as Error).message.split('\n')[0]})`);
    }
  });
  const columns = rows.length > 0 ? Object.keys(rows[0]) : [];
  if (o.json) {
    print(JSON.stringify(rows.map((r) => Object.fromEntries(columns.map((c) => [c, queryCell(r[c])]))), null, 2));
    return;
  }
  const { csvLine } = await import('./timing-options.js');
  if (o.csv) {
    print([csvLine(columns), ...rows.map((r) => csvLine(columns.map((c) => queryCell(r[c]))))].join('\n'));
    return;
  }
  const { renderTextTable } = await import('../../report/table.js');
  if (rows.length === 0) {
    print('(no rows)');
    return;
  }
  print(renderTextTable({ id: 'query', title: '', columns, rows: rows.map((r) => columns.map((c) => queryCell(r[c]))) }, { title: false, maxCell: 60 }));
}

/** A --sweep name the store holds, or one line listing those it does (an unknown name selected nothing, in silence). */
async function checkSweepName(opened: SweepStore, name: string | undefined): Promise<void> {
  if (name === undefined) return;
  const names = (await opened.query('SELECT DISTINCT sweep FROM points ORDER BY 1')).map((r) => String(r.sweep));
  if (!names.includes(name)) throw new InputError('sweep', name, names.length > 0 ? `a sweep of the store: ${names.join(', ')}` : 'a sweep of the store (it holds none yet)');
}

async function plotCommand(o: { store: string; x: string; y: string; color?: string; out: string; sweep?: string; logX?: boolean; logY?: boolean }): Promise<void> {
  if (!/\.(svg|html)$/.test(o.out) && o.out !== STDOUT_PATH) throw new InputError('out', o.out, 'a file ending in .svg or .html, or - (the SVG on standard output)');
  const planned = planOutput(o.out, 'out');
  const { paramColumn } = await store();
  const { renderPlotSvg } = await import('../../report/plot.js');
  const { sweepCurvePlot } = await import('../../sweep/export-file.js');
  const { renderPlotPage } = await import('../../report/plot-page.js');
  const points = await withPoints(o.store, async (opened) => {
    await checkSweepName(opened, o.sweep);
    const columns = new Set((await opened.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'points'`)).map((r) => String(r.column_name)));
    const column = (field: string, name: string): string => {
      for (const c of [name, paramColumn(name)]) if (columns.has(c)) return `"${c}"`;
      throw new InputError(field, name, `a column of the store: ${[...columns].filter((c) => c !== 'result' && c !== 'params').join(', ')}`);
    };
    const series = o.color ? `CAST(${column('color', o.color)} AS VARCHAR)` : `'all'`;
    const where = o.sweep === undefined ? '' : ` AND sweep = '${o.sweep.replace(/'/g, "''")}'`;
    return opened.query(
      `SELECT ${series} AS series, TRY_CAST(${column('x', o.x)} AS DOUBLE) AS x, TRY_CAST(${column('y', o.y)} AS DOUBLE) AS y FROM points WHERE status = 'ok'${where} AND x IS NOT NULL AND y IS NOT NULL ORDER BY series, x`,
    );
  });
  const curve = points.map((p) => ({ series: String(p.series), x: Number(p.x), y: Number(p.y) }));
  const plot = sweepCurvePlot(curve, { x: o.x, y: o.y, color: o.color, logX: o.logX, logY: o.logY, source: o.store });
  const svg = await renderPlotSvg(plot);
  if (!o.out.endsWith('.html')) return writeOutputs([[planned, svg]]);
  const html = renderPlotPage({
    title: plot.title,
    intro: `${curve.length} finished points from ${o.store}${o.sweep === undefined ? '' : `, sweep ${o.sweep}`}.`,
    meta: [['store', o.store], ['x', o.x], ['y', o.y], ['color', o.color ?? '(one series)']],
    svg,
    points: curve,
    labels: { x: o.x, y: o.y, series: o.color ?? 'series' },
  });
  writeOutputs([[planned, html]]);
}

async function workerCommand(o: { queue: string; jobs?: string; lockDuration?: string; log: string }): Promise<void> {
  const { checkQueueReachable, parseQueueUrl, startQueueWorker } = await queue();
  const connection = parseQueueUrl(o.queue);
  const jobs = jobsOption(o.jobs);
  const lockDurationMs = o.lockDuration === undefined ? undefined : Number(o.lockDuration);
  if (lockDurationMs !== undefined && !(Number.isInteger(lockDurationMs) && lockDurationMs >= 1000)) throw new InputError('lock-duration', o.lockDuration, 'milliseconds, an integer >= 1000');
  const mode = logMode(o.log);
  // Unreachable at start is a wrong URL (refused, exit 2); once running, the worker rides out a restart of Redis.
  await checkQueueReachable(connection, o.queue);
  const worker = startQueueWorker(connection, {
    jobs,
    lockDurationMs,
    onEvent: mode === 'jsonl' ? (e) => print(JSON.stringify({ ...e, worker: process.pid })) : undefined,
  });
  // BullMQ reconnects by itself; say so once per distinct message instead of once per retry.
  let lastError = '';
  worker.on('error', (err) => {
    const line = err.message.split('\n')[0];
    if (line !== lastError) process.stderr.write(`meshwork: sweep worker: ${line}\n`);
    lastError = line;
  });
  await worker.waitUntilReady();
  process.stderr.write(`meshwork: sweep worker ${process.pid} on ${o.queue}, ${jobs} job(s) at a time (SIGINT or SIGTERM to stop)\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => void worker.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

export function register(program: Command): void {
  const sweep = program.command('sweep').description('design-space sweeps: many points on every core or many machines, results in DuckDB');
  sweep
    .command('run')
    .description('run every point of a sweep file not yet in the store (resumable)')
    .argument('<file>', 'sweep file, YAML or JSON (schemas/sweep.schema.json)')
    .option('--store <file>', 'DuckDB results file', 'results.duckdb')
    .option('--jobs <n>', `points in parallel on this machine (default: one per core, ${availableParallelism()} here)`)
    .option('--queue <url>', 'enqueue on BullMQ at redis://HOST:PORT for `sweep worker` processes instead of running here')
    .option('--log <mode>', 'auto (bar on a terminal, jsonl in a pipe) | bar | jsonl | none', 'auto')
    .action((file: string, o: { store: string; jobs?: string; queue?: string; log: string }) => runCommand(file, o));
  sweep
    .command('worker')
    .description('run sweep points from a BullMQ queue until stopped')
    .requiredOption('--queue <url>', 'redis://HOST:PORT')
    .option('--jobs <n>', 'points at a time (default: one per core)')
    .option('--lock-duration <ms>', 'job lock lifetime; a dead worker\'s points are re-run after about this (default 30000)')
    .option('--log <mode>', 'auto | jsonl (one line per started/finished point) | none', 'auto')
    .action((o: { queue: string; jobs?: string; lockDuration?: string; log: string }) => workerCommand(o));
  sweep
    .command('status')
    .description('points stored per sweep and status; with a sweep file, how many of its points are done')
    .option('--store <file>', 'DuckDB results file', 'results.duckdb')
    .option('--sweep <file>', 'sweep file to count done / failed / not run')
    .action((o: { store: string; sweep?: string }) => statusCommand(o));
  sweep
    .command('export')
    .description('write the stored points as CSV, Parquet or JSON')
    .option('--store <file>', 'DuckDB results file', 'results.duckdb')
    .option('--format <f>', EXPORT_FORMATS.join(' | '), 'csv')
    .requiredOption('--out <file>', 'output file')
    .option('--sweep <name>', 'only this sweep')
    .action((o: { store: string; format: string; out: string; sweep?: string }) => exportCommand(o));
  sweep
    .command('query')
    .description('run SQL on the store (read-only) and print the rows: no DuckDB client needed')
    .argument('<sql>', 'a query on the table points, e.g. "SELECT topology, makespan_s FROM points ORDER BY 2"')
    .option('--store <file>', 'DuckDB results file', 'results.duckdb')
    .option('--csv', 'the rows as CSV')
    .option('--json', 'the rows as a JSON array')
    .action((sql: string, o: { store: string; csv?: boolean; json?: boolean }) => queryCommand(sql, o));
  sweep
    .command('plot')
    .description('plot one stored column against another (Vega-Lite), one line per --color value')
    .option('--store <file>', 'DuckDB results file', 'results.duckdb')
    .requiredOption('--x <column>', 'x column, e.g. rate or packet_size')
    .requiredOption('--y <column>', 'y column, e.g. packet_latency')
    .option('--color <column>', 'one series per value, e.g. topology')
    .option('--sweep <name>', 'only this sweep')
    .option('--log-x', 'log-scale x axis')
    .option('--log-y', 'log-scale y axis')
    .requiredOption('--out <file>', 'plot.svg or plot.html')
    .action((o: { store: string; x: string; y: string; color?: string; out: string; sweep?: string; logX?: boolean; logY?: boolean }) => plotCommand(o));
}
