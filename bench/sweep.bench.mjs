// Sweeps: the local pool's speed-up (--jobs 2 vs --jobs 1), the pool's and the store's per-point
// overhead on tiny points, and the same through BullMQ with two queue workers on this machine.
// Each figure is a ratio or a difference measured in this one run (the machine is shared).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.mjs';

const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const dir = tempDir('bench-sweep');

// 64 points of about a third of a second of CPU each: 16 loads x 4 seeds on an 8x8 torus (12,000
// cycles; 3,000 gave that when this bench was written, before the packet engine got about 4x faster).
// Against ~1.3 s of fixed start-up (module loading, DuckDB, the threads) the ratio depends on it.
const TRAFFIC_64 = { kind: 'traffic', fixed: { topology: 'torus:8x8', pattern: 'uniform', horizon: 12000 }, axes: { rates: '0.02:0.32:0.02' }, repeat: { seeds: 4 } };
// Points of a few milliseconds, 100 and 400 of them: the difference of the two runs, less the
// difference of the points' own work, is the marginal cost of 300 points in the pool and the store
// (start-up, the pool's threads and opening the store cancel out).
const tiny = (seeds) => ({ kind: 'traffic', fixed: { topology: 'ring:4', pattern: 'uniform', horizon: 50 }, axes: { rates: '0.01:0.25:0.01', 'packet-size': [1, 2, 3, 4] }, repeat: { seeds } });
const TINY_100 = tiny(1);
const TINY_400 = tiny(4);

function sweepFile(name, body) {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(body));
  return path;
}

/** Wall and CPU seconds (user + system, all threads) of one `meshwork sweep run`. */
function timedRun(args) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, MAIN, 'sweep', 'run', ...args, '--log', 'none'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sweep run failed: ${r.stderr}`);
  const [, user, sys] = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { wall: (performance.now() - t0) / 1000, cpu: Number(user) + Number(sys) };
}

/** As timedRun, without blocking, so that two can run at once. */
function timedRunAsync(args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [MAIN, 'sweep', 'run', ...args, '--log', 'none'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => (code === 0 ? resolve({ wall: (performance.now() - t0) / 1000 }) : reject(new Error(`sweep run failed: ${stderr}`))));
  });
}

/** CPU seconds of the points' own work: the same points through the adapter in this process, no pool, no store. */
async function pointsCpu(sweep) {
  const { expandSweep } = await import('../dist/sweep/file.js');
  const { executePoint } = await import('../dist/sweep/execute.js');
  const { loadCommand } = await import('../dist/sweep/commands.js');
  await loadCommand(sweep.kind); // expandSweep reads the kind's options from its command
  const points = expandSweep(sweep).points;
  await executePoint(points[0].kind, points[0].params); // load the command modules outside the measurement
  const c0 = process.cpuUsage();
  for (const p of points) await executePoint(p.kind, p.params);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function withQueue(workers, fn) {
  if (spawnSync('redis-server', ['--version']).status !== 0) return null;
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', tempDir('bench-redis'), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  while (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() !== 'PONG') await new Promise((r) => setTimeout(r, 100));
  const url = `redis://127.0.0.1:${port}`;
  const procs = [];
  try {
    for (let i = 0; i < workers; i++) {
      const p = spawn(process.execPath, [MAIN, 'sweep', 'worker', '--queue', url, '--jobs', '1', '--log', 'none'], { stdio: ['ignore', 'ignore', 'pipe'] });
      await new Promise((resolve) => p.stderr.once('data', resolve)); // "sweep worker ... on ..." once connected
      procs.push(p);
    }
    return await fn(url, redis.pid, procs.map((p) => p.pid));
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    redis.kill('SIGKILL');
  }
}

/**
 * Where the pool loses against two cores (issue 11), from CPU and per-point timestamps rather than
 * wall ratios, so a loaded machine still gives them: the same sweep in this process through the
 * pool and store that `sweep run` uses, every point's thread timing kept.
 */
export async function tracedSweep(body, jobs) {
  const { loadSweepFile } = await import('../dist/sweep/file.js');
  const { WorkerPool } = await import('../dist/sweep/pool.js');
  const { SweepStore } = await import('../dist/sweep/store.js');
  const { runSweepLocal } = await import('../dist/sweep/local.js');
  const { threadCpuSeconds, summarisePool, epochMs } = await import('../dist/sweep/trace.js');
  const process0 = process.cpuUsage();
  const mainAll0 = threadCpuSeconds();
  let pool;
  const sweep = await loadSweepFile(sweepFile(`traced${jobs}`, body), (kind) => (pool = new WorkerPool(jobs, { preload: kind, trace: true, tasksPerThread: 2 })));
  const store = await SweepStore.open(join(dir, `traced${jobs}.duckdb`));
  let commits = 0;
  const write = store.write.bind(store);
  store.write = (batch) => (commits++, write(batch));
  const main0 = threadCpuSeconds();
  await runSweepLocal(store, sweep, { jobs, pool: { run: (kind, params) => pool.run(kind, params), close: async () => {} } });
  const endedAt = epochMs();
  const mainCpu = threadCpuSeconds() - main0;
  const mainAllCpu = threadCpuSeconds() - mainAll0;
  const used = process.cpuUsage(process0);
  const threads = summarisePool(pool.traces, pool.createdAt, endedAt);
  await pool.close();
  store.close();
  const n = sweep.points.length;
  const poolCpu = threads.reduce((sum, t) => sum + t.cpuS, 0);
  // Everything else in the process from the file's loading to the last point: libuv's threads
  // (DuckDB's commits and their fsync), DuckDB's own thread, V8's GC and compiler threads.
  const otherCpu = (used.user + used.system) / 1e6 - mainAllCpu - poolCpu;
  return { n, commits, mainCpu, otherCpu, threads, wall: (endedAt - pool.createdAt) / 1000 };
}

export function tracedRows(label, t) {
  const ms = (s) => ((s / t.n) * 1000).toFixed(2);
  const rows = [
    { name: `${label}: main thread CPU per point`, value: ms(t.mainCpu), unit: 'ms', note: `${t.commits} store commits for ${t.n} points (results, progress, DuckDB calls)` },
    { name: `${label}: other threads' CPU per point`, value: ms(t.otherCpu), unit: 'ms', note: 'libuv + DuckDB threads (commits, fsync), V8 GC/compiler threads, whole run' },
  ];
  for (const th of t.threads) {
    rows.push({
      name: `${label}: thread ${th.thread}`,
      value: `${th.points} pts`,
      note: `start-up ${th.startupS.toFixed(2)} s wall / ${th.startupCpuS?.toFixed(2)} s CPU, busy ${th.busyS.toFixed(2)} s (CPU ${(th.cpuS - th.startupCpuS).toFixed(2)} s, GC ${th.gcS.toFixed(3)} s, heap ${th.heapMB.toFixed(0)} MB), idle between points ${th.gapS.toFixed(3)} s, tail ${th.tailS.toFixed(2)} s`,
    });
  }
  const busy = t.threads.reduce((sum, th) => sum + th.busyS, 0);
  rows.push({ name: `${label}: threads busy / (threads x wall)`, value: (busy / (t.threads.length * t.wall)).toFixed(3), unit: '', note: `wall ${t.wall.toFixed(1)} s from the pool's creation; the rest is start-up, idle and tail` });
  return rows;
}

/**
 * Process CPU (every thread: DuckDB's commit and fsync run on libuv's and DuckDB's threads, not on
 * the calling one) per row, writing 64 traffic-sized rows through SweepStore.write in batches of
 * `batch`: the cost of a commit against the cost of a row.
 */
export async function storeCpuPerRow(batch) {
  const { SweepStore } = await import('../dist/sweep/store.js');
  const { FIGURE_NAMES } = await import('../dist/sweep/execute.js');
  const store = await SweepStore.open(join(dir, `write${batch}.duckdb`));
  const params = { topology: 'torus:8x8', pattern: 'uniform', horizon: '12000', seed: '1' };
  await store.prepare('traffic', [...Object.keys(params), 'rates']);
  const result = JSON.stringify({ points: [{ rate: 0.1, meanLatency: 12.5, note: 'x'.repeat(1200) }] }); // a traffic Result is ~1.3 KB
  const row = (i) => ({ key: `k${i}`, kind: 'traffic', sweep: 'write', params: { ...params, rates: String(i) }, worker: 'bench', status: 'ok', result, figures: Object.fromEntries(FIGURE_NAMES.traffic.map((n) => [n, n === 'saturated' ? false : 1.5])), error: null, permanent: false, elapsed_s: 0.3 });
  const c0 = process.cpuUsage();
  for (let i = 0; i < 64; i += batch) await store.write(Array.from({ length: batch }, (_, j) => row(i + j)));
  const c = process.cpuUsage(c0);
  store.close();
  return (c.user + c.system) / 1000 / 64;
}

/**
 * CPU seconds of a process, its exited children and, recursively, its live ones (a queue worker's
 * sandboxed children live as long as it does). Linux /proc; 0 elsewhere.
 */
function processCpu(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100 + children.reduce((sum, child) => sum + processCpu(child), 0);
  } catch {
    return 0;
  }
}

function redisCommands(port) {
  const info = spawnSync('redis-cli', ['-p', String(port), 'info', 'stats'], { encoding: 'utf8' }).stdout;
  return Number(/total_commands_processed:(\d+)/.exec(info)[1]);
}

/** Marginal per-point cost beyond the points' own CPU, in ms, between the 100- and 400-point runs. */
function marginalMs(small, large, computeSmall, computeLarge) {
  return ((large - small - (computeLarge - computeSmall)) / 300) * 1000;
}

export default async function bench() {
  const rows = [];
  const load = () => loadavg()[0].toFixed(1);
  const traffic = sweepFile('traffic64', TRAFFIC_64);
  const loadBefore = load();
  const one = timedRun([traffic, '--store', join(dir, 't1.duckdb'), '--jobs', '1']);
  const two = timedRun([traffic, '--store', join(dir, 't2.duckdb'), '--jobs', '2']);
  rows.push({ name: '64-point traffic sweep, --jobs 1', value: one.wall.toFixed(1), unit: 's', note: `CPU ${one.cpu.toFixed(1)} s` });
  rows.push({ name: '64-point traffic sweep, --jobs 2', value: two.wall.toFixed(1), unit: 's', note: `CPU ${two.cpu.toFixed(1)} s` });
  rows.push({ name: 'speed-up --jobs 2 / --jobs 1', value: (one.wall / two.wall).toFixed(2), unit: 'x', target: '>= 1.8', note: `wall, same run, load average ${loadBefore} then ${load()} on 2 cores` });
  rows.push({ name: 'CPU --jobs 2 / --jobs 1', value: (two.cpu / one.cpu).toFixed(2), unit: 'x', note: 'the parallel run\'s extra work (one more thread\'s start-up)' });
  // What this machine itself allows: two independent --jobs 1 processes at once, each the whole sweep.
  // Their combined throughput over one alone bounds any two-thread speed-up here (shared caches,
  // memory bandwidth, a VM's two vCPUs).
  const pair = await Promise.all(['p1', 'p2'].map((tag) => timedRunAsync([traffic, '--store', join(dir, `${tag}.duckdb`), '--jobs', '1'])));
  const ceiling = (2 * one.wall) / Math.max(pair[0].wall, pair[1].wall);
  rows.push({ name: 'two --jobs 1 sweeps at once: machine ceiling', value: ceiling.toFixed(2), unit: 'x', note: 'throughput of two independent processes over one alone' });
  rows.push({ name: 'pool speed-up / machine ceiling', value: (one.wall / two.wall / ceiling).toFixed(2), unit: '', note: 'how much of what 2 cores give here the pool reaches' });

  // The same 64 points in this process, every point's thread timing kept (after the wall ratios, so
  // they do not disturb them).
  rows.push(...tracedRows('traced --jobs 1', await tracedSweep(TRAFFIC_64, 1)));
  rows.push(...tracedRows('traced --jobs 2', await tracedSweep(TRAFFIC_64, 2)));

  const [perRowAlone, perRowBatched] = [await storeCpuPerRow(1), await storeCpuPerRow(64)];
  rows.push({ name: 'store CPU per row, one row per commit', value: perRowAlone.toFixed(2), unit: 'ms', note: 'process CPU, all threads; what a 200 ms flush gave with 0.3 s points' });
  rows.push({ name: 'store CPU per row, 64 rows per commit', value: perRowBatched.toFixed(2), unit: 'ms', note: `same; load average ${load()}` });

  const small = sweepFile('tiny100', TINY_100);
  const large = sweepFile('tiny400', TINY_400);
  const [computeSmall, computeLarge] = [await pointsCpu(TINY_100), await pointsCpu(TINY_400)];
  const runSmall = timedRun([small, '--store', join(dir, 'tiny100.duckdb'), '--jobs', '1']);
  const runLarge = timedRun([large, '--store', join(dir, 'tiny400.duckdb'), '--jobs', '1']);
  rows.push({ name: 'tiny point, its own CPU', value: ((computeLarge / 400) * 1000).toFixed(2), unit: 'ms' });
  rows.push({ name: 'pool + store CPU per tiny point', value: marginalMs(runSmall.cpu, runLarge.cpu, computeSmall, computeLarge).toFixed(2), unit: 'ms', target: '< 5', note: '--jobs 1, marginal between 100 and 400 points' });
  rows.push({ name: 'pool + store wall per tiny point', value: marginalMs(runSmall.wall, runLarge.wall, computeSmall, computeLarge).toFixed(2), unit: 'ms', note: `load average ${load()}` });

  const queued = await withQueue(2, async (url, redisPid, workerPids) => {
    const port = new URL(url).port;
    const t = timedRun([traffic, '--store', join(dir, 'q.duckdb'), '--queue', url]);
    // What the queue costs per point whatever the load: Redis commands and Redis CPU, and the
    // workers' CPU beyond the points' own (each point runs in a sandboxed child of a worker).
    const counters = () => ({ commands: redisCommands(port), redisCpu: processCpu(redisPid), workerCpu: workerPids.reduce((sum, pid) => sum + processCpu(pid), 0) });
    const c0 = counters();
    const qs = timedRun([small, '--store', join(dir, 'q100.duckdb'), '--queue', url]);
    const c1 = counters();
    const ql = timedRun([large, '--store', join(dir, 'q400.duckdb'), '--queue', url]);
    const c2 = counters();
    const per = (field) => (c2[field] - c1[field] - (c1[field] - c0[field])) / 300;
    return { t, perPoint: marginalMs(qs.wall, ql.wall, computeSmall / 2, computeLarge / 2), submitterCpu: marginalMs(qs.cpu, ql.cpu, 0, 0), commands: per('commands'), redisCpuMs: per('redisCpu') * 1000, workerCpuMs: per('workerCpu') * 1000 - ((computeLarge - computeSmall) / 300) * 1000 };
  });
  if (queued) {
    rows.push({ name: '64-point traffic sweep, queue, 2 workers', value: queued.t.wall.toFixed(1), unit: 's', note: 'workers started beforehand' });
    rows.push({ name: 'speed-up queue (2 workers) / --jobs 1', value: (one.wall / queued.t.wall).toFixed(2), unit: 'x', note: `wall, load average ${load()}` });
    rows.push({ name: 'queue wall per tiny point', value: queued.perPoint.toFixed(2), unit: 'ms', note: '2 workers, marginal between 100 and 400 points' });
    rows.push({ name: 'queue: Redis commands per point', value: queued.commands.toFixed(1), unit: '', note: 'marginal, INFO total_commands_processed' });
    rows.push({ name: 'queue: Redis CPU per point', value: queued.redisCpuMs.toFixed(3), unit: 'ms', note: 'marginal, redis-server\'s own CPU' });
    rows.push({ name: 'queue: submitter CPU per point', value: queued.submitterCpu.toFixed(2), unit: 'ms', note: 'marginal: enqueue, collect, store' });
    rows.push({ name: 'queue: worker CPU per point beyond the point', value: queued.workerCpuMs.toFixed(2), unit: 'ms', note: 'marginal: BullMQ, the sandboxed child\'s hand-off (its sandboxed children included)' });
  } else {
    rows.push({ name: 'queue', value: 'skipped', note: 'redis-server not installed' });
  }
  return rows;
}
