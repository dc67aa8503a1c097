/**
 * Issue 28 item 2: the channel limit is set by measured memory. `topo fullmesh:11000` (121 M
 * channels, under the former 2^27) grew to 5 GB and died in "Array buffer allocation failed"; the
 * limit is now TOPOLOGY_MEMORY_BUDGET / BYTES_PER_CHANNEL, and this test re-measures the bytes per
 * channel (slope of the peak RSS of building fullmesh:1000 and fullmesh:3000 and computing their
 * metrics, each in a fresh process) so the constant cannot drift from what the code allocates.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BYTES_PER_CHANNEL, MAX_CHANNELS, TOPOLOGY_MEMORY_BUDGET } from '../../src/topology/builder.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';

const LIBRARY = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

function peak(spec: string): { channels: number; maxRss: number } {
  const script = `const { buildTopology, computeMetrics } = await import(${JSON.stringify(LIBRARY)});
const t = buildTopology(${JSON.stringify(spec)});
computeMetrics(t, { method: 'sampled', samples: 32, seed: 1, bisection: false });
process.stdout.write(JSON.stringify({ channels: t.numChannels, maxRss: process.resourceUsage().maxRSS * 1024 }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { channels: number; maxRss: number };
}

describe('topology size limit (issue 28 item 2)', () => {
  it('BYTES_PER_CHANNEL covers the measured peak, and the limit fits the budget', () => {
    const small = peak('fullmesh:1000');
    const large = peak('fullmesh:3000');
    const slope = (large.maxRss - small.maxRss) / (large.channels - small.channels);
    expect(slope).toBeGreaterThan(BYTES_PER_CHANNEL * 0.5);
    expect(slope).toBeLessThanOrEqual(BYTES_PER_CHANNEL);
    expect(MAX_CHANNELS * BYTES_PER_CHANNEL).toBeLessThanOrEqual(TOPOLOGY_MEMORY_BUDGET);
  }, 240_000);

  it('topo fullmesh:11000 is refused before allocation, naming the limit and its memory', () => {
    const r = runCli(['topo', 'fullmesh:11000'], { timeoutMs: 20_000 });
    expect(expectOneLineError(r)).toBe(
      `meshwork: error: fullmesh.n: got "120989000 channels"; accepted: at most ${MAX_CHANNELS} channels (${BYTES_PER_CHANNEL} bytes each at the peak: a 4 GiB budget)`,
    );
  });

  it('torus:4096x4096 still answers from closed forms (67 M channels, never built)', () => {
    const r = runCli(['topo', 'torus:4096x4096', '--json'], { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).nodes).toBe(2 ** 24);
  });
});
