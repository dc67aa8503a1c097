import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('meshwork run / compare', () => {
  it('run prints makespan, bound, efficiency, max link utilisation and messages', () => {
    const r = runCli(['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'hop-grouped', '--size', '64KiB']);
    expect(r.code).toBe(0);
    for (const label of ['makespan', 'bound', 'efficiency', 'max link util.', 'messages', '64KiB']) expect(r.stdout).toContain(label);
  });

  it('run --json has top-level makespan_s, bound_s and efficiency = bound / makespan', () => {
    const r = runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '4KiB', '--json', '--tie', 'split']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.makespan_s).toBeGreaterThan(0);
    expect(j.efficiency).toBeCloseTo(j.bound_s / j.makespan_s, 12);
    expect(j.routing.params.tie).toBe('split');
    expect(j.workload.size_bytes).toBe(4096);
  });

  it('run --csv prints a header and one row', () => {
    const r = runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'linear', '--size', '1KiB', '--csv']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0].split(',')).toContain('makespan_s');
  });

  it('--trace writes a Chrome trace-event file', () => {
    const dir = tempDir('trace');
    const file = join(dir, 'out.json');
    const r = runCli(['run', '--topology', 'torus:4', '--algorithm', 'linear', '--size', '1KiB', '--trace', file]);
    expect(r.code).toBe(0);
    const trace = JSON.parse(readFileSync(file, 'utf8'));
    const slices = trace.traceEvents.filter((e: { ph: string }) => e.ph === 'X');
    expect(slices.length).toBeGreaterThan(0);
    expect(trace.traceEvents.some((e: { ph: string }) => e.ph === 'C')).toBe(true);
  });

  it('compare runs every applicable algorithm, sorted by makespan, best marked', () => {
    const r = runCli(['compare', '--topology', 'torus:4x4', '--collective', 'alltoall', '--size', '16KiB']);
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').slice(6).filter((l) => /\d+(\.\d+)?(ms|us|s)\s/.test(l));
    expect(rows.length).toBeGreaterThan(3);
    expect(rows[0]).toContain('<- best');
    const toSeconds = (t: string): number => parseFloat(t) * ({ s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 } as Record<string, number>)[t.replace(/[0-9.]/g, '')];
    const times = rows.map((l) => toSeconds(l.trim().split(/\s+/)[1]));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]);
  });

  it('compare names an alias with what it resolved to, so no two rows read alike', () => {
    // nccl and rccl both pick nccl-ring:channels=16,proto=LL,machine=auto here: the rows used to show the spec alone, twice.
    const r = runCli(['compare', '--topology', 'torus:4x4', '--collective', 'allgather', '--size', '1KiB']);
    const labels = r.stdout.split('\n').filter((l) => /\d(ms|us|s)\s/.test(l)).map((l) => l.split(/\s{2,}/)[0]);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('nccl (= nccl-ring:channels=16,proto=LL,machine=auto)');
    expect(labels).toContain('rccl (= nccl-ring:channels=16,proto=LL,machine=auto)');
    expect(labels).toContain('nccl-ring');
  });

  it('--engine packet runs the schedule on the packet engine against the same bounds', () => {
    const flow = JSON.parse(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '1KiB', '--json']).stdout);
    const r = runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '1KiB', '--json', '--engine', 'packet']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.engine).toBe('packet');
    expect(j.bound_s).toBeCloseTo(flow.bound_s, 15);
    expect(j.makespan_s).toBeGreaterThanOrEqual(j.bound_s);
  });

  it('bad input: one line, exit 2', () => {
    expectOneLineError(runCli(['run', '--topology', 'torus:4x4,bw=0Gbps', '--algorithm', 'linear', '--size', '1KiB']));
    expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'linear', '--size', '1KiB', '--injection', '-5Gbps']));
    expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'linear', '--size', '1KiB', '--engine', 'warp']));
    expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'nosuch', '--size', '1KiB']));
    expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'linear', '--size', 'lots']));
  });

  it('refuses a direct alltoall too large for the flow level, naming the limit, before building it', () => {
    // linear on 32768 ranks lists 2 × 32768 × 32767 ops > MAX_FLOW_OPS (2^27): refused in one line, exit 2, not an out-of-memory crash.
    const line = expectOneLineError(runCli(['run', '--topology', 'torus:32x32x32', '--algorithm', 'linear', '--size', '1MiB']));
    expect(line).toMatch(/2147418112 schedule ops \(linear, 32768 ranks\).*at most 134217728 schedule ops \(2\^27/);
    // compare lists linear too: refused at once rather than after running the others.
    expect(expectOneLineError(runCli(['compare', '--topology', 'torus:32x32x32', '--size', '1MiB']))).toMatch(/2\^27/);
  });
});
