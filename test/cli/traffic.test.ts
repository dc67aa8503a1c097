import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('meshwork traffic', () => {
  it('prints the curve and writes CSV with BookSim column names and an SVG plot', () => {
    const dir = tempDir('traffic');
    const csv = join(dir, 'c.csv');
    const svg = join(dir, 'p.svg');
    const r = runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.05,0.1', '--csv', csv, '--plot', svg, '--log-x']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/packet_latency/);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('rate,packet_latency,network_latency,accepted_flit_rate,hops,cycles');
    expect(lines).toHaveLength(3);
    // A 4x4 torus with uniform traffic (self included): mean distance 2, so BookSim hops = 3.
    expect(Number(lines[1].split(',')[4])).toBeCloseTo(3, 1);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg/);
  });

  it('loads topologies like every other command: spec files and rank mappings', () => {
    const dir = tempDir('traffic');
    const specFile = join(dir, 'net.json');
    writeFileSync(specFile, JSON.stringify({ family: 'torus', shape: '4x4' }));
    const r = runCli(['traffic', '--topology', specFile, '--pattern', 'uniform', '--rates', '0.05', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).topology).toMatch(/torus:4x4/);
    expect(expectOneLineError(runCli(['traffic', '--topology', 'torus:4x4', '--mapping', 'sideways', '--pattern', 'uniform', '--rates', '0.05']))).toMatch(/mapping/);
  });

  it('refuses --log-x without --plot (it was accepted and did nothing)', () => {
    expect(expectOneLineError(runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.05', '--log-x']))).toBe(
      "meshwork: error: log-x: got true; accepted: only with --plot FILE (it sets the plot's x axis; nothing else is plotted)",
    );
  });

  it('gives the same JSON for the same seed, and a fixed-horizon mode for seed 004', () => {
    const args = ['traffic', '--topology', 'mesh:4x4', '--pattern', 'hotspot', '--rates', '0.1', '--horizon', '2000', '--json', '--seed', '7'];
    const a = runCli(args);
    const b = runCli(args);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const j = JSON.parse(a.stdout);
    expect(j.points[0].cycles).toBe(2000);
    expect(j.points[0].delivered).toBeGreaterThan(0);
  });

  it.each([
    [['--rates', '0,0.1'], /rates: got 0/],
    [['--rates', '1.2'], /rates/],
    [['--pattern', 'zipf'], /pattern: got "zipf"/],
    [['--vcs', '1'], /minimum 2/],
    [['--switching', 'vct', '--packet-size', '16', '--vc-buf', '8'], /vc-buf.*packet size/],
    [['--pattern', 'quarter', '--quarter-by', 'rows'], /quarter-by: got "rows"/],
    [['--pattern', 'quarter', '--quarter-by', 'rings'], /quarter-by.*address on torus/],
  ])('refuses bad input %j with one line and exit 2', (extra, msg) => {
    const dir = tempDir('traffic');
    const csv = join(dir, 'c.csv');
    const base = ['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.1', '--csv', csv];
    const args = [...base];
    for (let i = 0; i < extra.length; i += 2) {
      const k = args.indexOf(extra[i]);
      if (k >= 0) args[k + 1] = extra[i + 1];
      else args.push(extra[i], extra[i + 1]);
    }
    expect(expectOneLineError(runCli(args))).toMatch(msg);
    expect(existsSync(csv)).toBe(false);
  });
});

describe('an option left out is shown as not given, not as a typed "(nothing)"', () => {
  it('traffic without --pattern (was: pattern: got "(nothing)", quoted as if typed)', () => {
    expect(expectOneLineError(runCli(['traffic', '--topology', 'ring:4', '--rates', '0.1']))).toBe(
      'meshwork: error: pattern: got (nothing); accepted: a value (required unless --booksim-config is given)',
    );
  });
});
