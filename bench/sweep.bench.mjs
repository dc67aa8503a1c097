// Sweeps: the local pool's speed-up (--jobs 2 vs --jobs 1), the pool's and the store's per-point
// overhead on tiny points, and the same through BullMQ with two queue workers on this machine.
// Each figure is a ratio or a difference measured in this one run (the machine is shared).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'meshwork-bench-sweep-'));

// 64 points of about a quarter second each: 16 loads x 4 seeds on a 4x4 torus.
const TRAFFIC_64 = { kind: 'traffic', fixed: { topology: 'torus:4x4', pattern: 'uniform', horizon: 3000 }, axes: { rates: '0.02:0.32:0.02' }, repeat: { seeds: 4 } };
// 200 points of a few milliseconds: what is left is the pool's and the store's cost.
const TINY_200 = { kind: 'traffic', fixed: { topology: 'ring:4', pattern: 'uniform', horizon: 50 }, axes: { rates: '0.01:0.25:0.01', 'packet-size': [1, 2, 3, 4] }, repeat: { seeds: 2 } };

function sweepFile(name, body) {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(body));
  return path;
}

/** Wall seconds of one `meshwork sweep run`. */
function timedRun(args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [MAIN, 'sweep', 'run', ...args, '--log', 'none'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sweep run failed: ${r.stderr}`);
  return (performance.now() - t0) / 1000;
}

async function sumElapsed(store) {
  const instance = await DuckDBInstance.create(store, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const [row] = (await connection.runAndReadAll('SELECT sum(elapsed_s) AS s, count(*)::INTEGER AS n FROM points')).getRowObjectsJS();
  connection.closeSync();
  instance.closeSync();
  return { seconds: row.s, points: row.n };
}

/** Per-point cost beyond the points' own compute: (run - start-up - compute) / points. */
async function overheadMs(runSeconds, startupSeconds, store) {
  const { seconds, points } = await sumElapsed(store);
  return ((runSeconds - startupSeconds - seconds) / points) * 1000;
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
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', mkdtempSync(join(tmpdir(), 'meshwork-bench-redis-')), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  while (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() !== 'PONG') await new Promise((r) => setTimeout(r, 100));
  const url = `redis://127.0.0.1:${port}`;
  const procs = [];
  try {
    for (let i = 0; i < workers; i++) {
      const p = spawn(process.execPath, [MAIN, 'sweep', 'worker', '--queue', url, '--jobs', '1', '--log', 'none'], { stdio: ['ignore', 'ignore', 'pipe'] });
      await new Promise((resolve) => p.stderr.once('data', resolve)); // "sweep worker ... on ..." once connected
      procs.push(p);
    }
    return await fn(url);
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    redis.kill('SIGKILL');
  }
}

export default async function bench() {
  const rows = [];
  const traffic = sweepFile('traffic64', TRAFFIC_64);
  const one = timedRun([traffic, '--store', join(dir, 't1.duckdb'), '--jobs', '1']);
  const two = timedRun([traffic, '--store', join(dir, 't2.duckdb'), '--jobs', '2']);
  rows.push({ name: '64-point traffic sweep, --jobs 1', value: one.toFixed(1), unit: 's' });
  rows.push({ name: '64-point traffic sweep, --jobs 2', value: two.toFixed(1), unit: 's' });
  rows.push({ name: 'speed-up --jobs 2 / --jobs 1', value: (one / two).toFixed(2), unit: 'x', target: '>= 1.8', note: 'wall, same run; start-up included' });

  const tiny = sweepFile('tiny200', TINY_200);
  const tinyStore = join(dir, 'tiny.duckdb');
  const tinyRun = timedRun([tiny, '--store', tinyStore, '--jobs', '1']);
  // The same command with every point stored: start-up, expansion and the store look-up, no point.
  const startup = timedRun([tiny, '--store', tinyStore, '--jobs', '1']);
  rows.push({ name: 'start-up of sweep run (nothing to run)', value: startup.toFixed(2), unit: 's' });
  rows.push({ name: 'pool + store overhead per tiny point', value: (await overheadMs(tinyRun, startup, tinyStore)).toFixed(2), unit: 'ms', target: '< 5', note: '--jobs 1, 200 points' });

  const queued = await withQueue(2, async (url) => {
    const t = timedRun([traffic, '--store', join(dir, 'q.duckdb'), '--queue', url]);
    const qStore = join(dir, 'qtiny.duckdb');
    const qt = timedRun([tiny, '--store', qStore, '--queue', url]);
    return { t, qt, overhead: await overheadMs(qt, startup, qStore) };
  });
  if (queued) {
    rows.push({ name: '64-point traffic sweep, queue, 2 workers', value: queued.t.toFixed(1), unit: 's', note: 'workers started beforehand' });
    rows.push({ name: 'speed-up queue (2 workers) / --jobs 1', value: (one / queued.t).toFixed(2), unit: 'x' });
    rows.push({ name: 'queue overhead per tiny point', value: queued.overhead.toFixed(2), unit: 'ms', note: '2 workers, 200 points, sandboxed processors' });
  } else {
    rows.push({ name: 'queue', value: 'skipped', note: 'redis-server not installed' });
  }
  return rows;
}
