/** Helpers of the sweep tests: tiny sweep files, the built CLI in the background, stored rows. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.js';

export const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export { tempDir };

export function writeSweep(dir: string, name: string, body: unknown): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(body));
  return path;
}

/**
 * A 200-point traffic sweep of tiny points (4-node ring, 200-cycle horizon): 25 rates × 4 packet
 * sizes × 2 seeds, a few milliseconds each.
 */
export const TINY_200 = {
  kind: 'traffic',
  name: 'tiny',
  fixed: { topology: 'ring:4', pattern: 'uniform', horizon: 200 },
  axes: { rates: '0.01:0.25:0.01', 'packet-size': [1, 2, 3, 4] },
  repeat: { seeds: 2 },
};

/** Columns that differ between two runs of the same point. */
const TIMING = new Set(['elapsed_s', 'finished_at', 'worker']);

/** Every stored row, sorted by key, timing columns dropped unless kept (read with DuckDB itself, as a user would). */
export async function storedRows(store: string, options: { keepTimings?: boolean } = {}): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(store, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const rows = (await connection.runAndReadAll('SELECT * FROM points ORDER BY key')).getRowObjectsJS();
    return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => options.keepTimings || !TIMING.has(k))));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The built CLI in its own process group (so a kill -9 takes its children with it). */
export function startCli(args: string[]): ChildProcess & { lines: string[]; waitForLines: (n: number, timeoutMs?: number) => Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MAIN, ...args], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
  const lines: string[] = [];
  let partial = '';
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts.filter((l) => l.trim() !== ''));
    for (const w of waiters.splice(0)) w();
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitForLines = async (n: number, timeoutMs = 90_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (lines.length < n) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited after ${lines.length} lines: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`timed out after ${lines.length} lines: ${stderr}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  return Object.assign(child, { lines, waitForLines, exited });
}

/** kill -9 of a process group: the process and every child it started, as a power loss would. */
export function killHard(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** A real redis-server on a free loopback port with its own data directory; stop() ends it. */
export async function startRedis(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const dir = tempDir('redis');
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ping = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], { encoding: 'utf8' });
    if (ping.stdout.trim() === 'PONG') break;
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}
