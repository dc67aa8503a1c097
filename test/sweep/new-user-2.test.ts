/**
 * Issue 28 items 7-10 through the built CLI: `sweep plot --out x.html` is the plot's own page,
 * `-` means standard output, a sweep with failed points exits 3, and the progress bar shows no
 * cli-progress placeholder and advances by work.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeSweep } from '../helpers/sweep.js';
import { etaText, formatDuration } from '../../src/cli/progress.js';

const dir = tempDir('newuser2');
const store = join(dir, 's.duckdb');

describe('sweeps (issue 28 items 7-10)', () => {
  let run: ReturnType<typeof runCli>;
  beforeAll(() => {
    const file = writeSweep(dir, 'mixed', { kind: 'topo', name: 'mixed', axes: { topology: ['ring:4', 'ring:6', 'torus:0x4', 'ring:8'] } });
    run = runCli(['sweep', 'run', file, '--store', store, '--log', 'bar', '--jobs', '1'], { cwd: dir });
  });

  it('item 9: a sweep with failed points exits 3 and says how many failed', () => {
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/done: 4\/4 points in .* \(4 run now, 0 already stored, 1 failed\)\n$/);
  });

  it('item 10: the bar (forced with --log bar in a pipe) shows points and an ETA, never a literal placeholder', () => {
    expect(run.stderr).toMatch(/sweep \[[^\]]*\] \d+% \| \d+s elapsed, ETA (…|\d+s) \| \d\/4 points/);
    // Only the bar's own lines: a failed point's message may quote the temp directory ("…/yKANFA/…").
    const barLines = run.stderr.split(/[\r\n]/).filter((l) => l.startsWith('sweep ['));
    expect(barLines.length).toBeGreaterThan(0);
    for (const line of barLines) expect(line).not.toMatch(/\{\w+\}|\bNF|NULL|INF/);
  });

  it('item 10: the ETA is the average pace so far, and none is claimed before 2 s and 2 % of the work', () => {
    expect(etaText(1, 0.5)).toBe('…');
    expect(etaText(10, 0.01)).toBe('…');
    // 62 s for 46 % of the work: 72.8 s left (the bar said `ETA 15s` at 46 % of a 2:15 run).
    expect(etaText(62, 0.46)).toBe('1m13s');
    expect(formatDuration(3725)).toBe('1h02m');
  });

  it('item 7: sweep plot --out x.html writes the plot with its points, not the seed report page', () => {
    const out = join(dir, 'curve.html');
    const r = runCli(['sweep', 'plot', '--store', store, '--x', 'nodes', '--y', 'diameter', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<h1>diameter against nodes</h1>');
    expect(html).toContain('3 finished points from');
    expect(html).toMatch(/<svg[\s\S]*<\/svg>/);
    // ring:4, ring:6, ring:8: diameters 2, 3, 4 (ring of n: floor(n/2)).
    expect(html).toContain('<tr><td>all</td><td class="num">4</td><td class="num">2</td></tr><tr><td>all</td><td class="num">6</td><td class="num">3</td></tr><tr><td>all</td><td class="num">8</td><td class="num">4</td></tr>');
    expect(html).not.toMatch(/<th>reproduced<\/th>|Parameters used|<h2>Claims/i);
  });

  it('item 8: --out - writes to standard output, and no file named - is made', () => {
    const csv = runCli(['sweep', 'export', '--store', store, '--format', 'csv', '--out', '-'], { cwd: dir });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\n')[0]).toMatch(/^key,/);
    expect(csv.stdout.trim().split('\n')).toHaveLength(5);
    const svg = runCli(['sweep', 'plot', '--store', store, '--x', 'nodes', '--y', 'diameter', '--out', '-'], { cwd: dir });
    expect(svg.code, svg.stderr).toBe(0);
    expect(svg.stdout).toMatch(/^<svg[\s\S]*<\/svg>\n?$/);
    const schedule = runCli(['collective', 'verify', '--topology', 'ring:4', '--collective', 'broadcast', '--algorithm', 'binomial', '--size', '8', '--out', '-', '--json'], { cwd: dir });
    expect(schedule.code, schedule.stderr).toBe(0);
    expect(schedule.stdout).toContain('"programs"');
    const traffic = runCli(['traffic', '--topology', 'ring:4', '--pattern', 'uniform', '--rates', '0.1', '--horizon', '200', '--csv', '-'], { cwd: dir });
    expect(traffic.code, traffic.stderr).toBe(0);
    expect(traffic.stdout).toMatch(/^rate,delivered,packet_latency,network_latency,accepted_flit_rate,hops,cycles\n0\.1,/);
    expect(existsSync(join(dir, '-'))).toBe(false);
    const report = runCli(['reproduce', '001', '--quick', '--out', '-'], { cwd: dir });
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('accepted: a directory path (a report is several files: - means standard output only for a single file)');
  });
});
