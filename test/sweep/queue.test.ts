import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { killHard, startCli, startRedis, storedRows, tempDir, writeSweep } from '../helpers/sweep.js';

// Each test spawns several CLI processes; on the shared 2-core machine their wall time varies tenfold.
vi.setConfig({ testTimeout: 400_000 });

/** 12 points of a few hundred milliseconds each: long enough to kill a worker in the middle of one. */
const MEDIUM_12 = {
  kind: 'traffic',
  name: 'medium',
  fixed: { topology: 'torus:4x4', pattern: 'uniform', horizon: 2000 },
  axes: { rates: [0.05, 0.1, 0.15, 0.2, 0.25, 0.3] },
  repeat: { seeds: 2 },
};

describe('meshwork sweep on BullMQ with a real redis-server on loopback', () => {
  const dir = tempDir('queue');
  let redis: { url: string; stop: () => void };
  const workers: Array<ReturnType<typeof startCli>> = [];

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => {
    for (const w of workers) killHard(w);
    redis?.stop();
  });

  it('kill -9 of one of three workers mid-job: 0 lost, 0 duplicated, the stalled job re-runs elsewhere; rows equal --jobs 1', async () => {
    const file = writeSweep(dir, 'medium', MEDIUM_12);
    // A dead worker's lock expires after 2 s, so the stalled job is taken over quickly.
    for (let i = 0; i < 3; i++) workers.push(startCli(['sweep', 'worker', '--queue', redis.url, '--jobs', '1', '--lock-duration', '2000', '--log', 'jsonl']));
    const store = join(dir, 'queue.duckdb');
    const submitter = startCli(['sweep', 'run', file, '--store', store, '--queue', redis.url, '--log', 'jsonl']);
    const victim = workers[0];
    await victim.waitForLines(1);
    const started = JSON.parse(victim.lines[0]);
    expect(started.event).toBe('started');
    killHard(victim);
    expect(await submitter.exited).toBe(0);
    expect(submitter.lines).toHaveLength(12);

    const rows = await storedRows(store);
    expect(rows).toHaveLength(12);
    expect(new Set(rows.map((r) => r.key)).size).toBe(12);
    expect(rows.every((r) => r.status === 'ok')).toBe(true);
    // The job the killed worker held was run again, by another worker.
    const allRows = await storedRows(store, { keepTimings: true });
    const retaken = allRows.find((r) => r.key === started.key)!;
    expect(retaken.worker).not.toMatch(new RegExp(`:${victim.pid}$`));
    expect(retaken.status).toBe('ok');

    const local = join(dir, 'local.duckdb');
    expect(runCli(['sweep', 'run', file, '--store', local, '--jobs', '1', '--log', 'none']).code).toBe(0);
    expect(rows).toEqual(await storedRows(local));
  });

  it('a point that cannot run is recorded as failed with its error, not retried, not dropped', async () => {
    const file = writeSweep(dir, 'broken', { kind: 'topo', axes: { topology: ['ring:5', 'ring:0'] } });
    const store = join(dir, 'broken.duckdb');
    const r = runCli(['sweep', 'run', file, '--store', store, '--queue', redis.url, '--log', 'none']);
    expect(r.stderr).toMatch(/done: 2\/2 points .*1 failed/);
    const rows = await storedRows(store);
    expect(rows.find((x) => x.topology === 'ring:0')!.error).toMatch(/^error: topology/);
    // ring:5: diameter 2 (floor(5/2)).
    expect(rows.find((x) => x.topology === 'ring:5')!.diameter).toBe(2);
  });
});
