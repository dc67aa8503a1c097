/**
 * `meshwork reproduce all` (the full run) with every claim's verdict pinned. Too slow for `npm test`
 * (about 15–20 minutes of one core, docs/reproduce.md): run it with `npm run test:full`. Results are
 * seeded, so the verdicts are deterministic; a claim that flips fails here.
 *
 * MESHWORK_FULL_RESULTS=path/to/results.json checks an existing full run's results instead of
 * running it again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/**
 * claim id -> verdict expected from the full run, one file per seed (test/report/expected-full-<seed>.json,
 * shared with test/report/reproduce-full-001-003.test.ts, which re-runs the fast seeds in `npm test`).
 */
const EXPECTED: Record<string, string> = Object.assign(
  {},
  ...['000', '001', '002', '003', '004'].map((seed) => JSON.parse(readFileSync(new URL(`../report/expected-full-${seed}.json`, import.meta.url), 'utf8')).verdicts),
);

interface ResultsJson {
  command: string;
  quick: boolean;
  seeds: Array<{ id: string; error?: string; claims: Array<{ id: string; verdict: string }>; params: Record<string, unknown> }>;
}

describe('meshwork reproduce all (full run)', () => {
  let dir: string | undefined;
  let results: ResultsJson;

  beforeAll(() => {
    const existing = process.env.MESHWORK_FULL_RESULTS;
    if (existing) {
      results = JSON.parse(readFileSync(existing, 'utf8')) as ResultsJson;
      return;
    }
    dir = mkdtempSync(join(tmpdir(), 'meshwork-full-'));
    const r = runCli(['reproduce', 'all', '--out', join(dir, 'out')], { timeoutMs: 3_600_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as ResultsJson;
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is a full run with no seed in error', () => {
    expect(results.quick).toBe(false);
    expect(results.seeds.filter((s) => s.error).map((s) => s.id)).toEqual([]);
  });

  it('runs seed 000 at packet level on all four tori and seed 004 over the paper horizon', () => {
    const s000 = results.seeds.find((s) => s.id === '000')!;
    const cases = (s000.params.packet as { cases: Array<{ torus: string }> }).cases.map((c) => c.torus);
    expect(cases).toEqual(['torus:8x8', 'torus:16x16', 'torus:4x4x4', 'torus:8x8x8']);
    const sim = results.seeds.find((s) => s.id === '004')!.params.simulation as { horizonClocks: number; offeredLoads: number[]; patterns: string[] };
    // Seed 004 §5: "total packets delivered in 10,000 clocks", five patterns (Figs. 7–11).
    expect(sim.horizonClocks).toBe(10_000);
    expect(sim.offeredLoads.length).toBeGreaterThanOrEqual(6);
    expect(sim.patterns).toHaveLength(5);
  });

  it('gives every claim its pinned verdict', () => {
    const got = Object.fromEntries(results.seeds.flatMap((s) => s.claims.map((c) => [c.id, c.verdict])));
    expect(got).toEqual(EXPECTED);
  });
});
