/**
 * Issue 16, items 12 (misleading outputs), 13 (progress bars), 14 (packet options on run) and 10
 * (closed forms without building): one CLI test per case, in a temporary directory, asserting the
 * exit code, the one-line message and which files exist afterwards. Progress bars show only on a
 * terminal: those tests run the CLI under a pseudo-terminal (util-linux `script`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { trafficPlot } from '../../src/report/traffic-plot.js';
import type { TrafficSweepResult } from '../../src/sim/packet/traffic-run.js';
import { runReproductions } from '../../src/analysis/reproduce/index.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'meshwork-hardening-outputs-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});
const cli = (args: string[], timeoutMs = 60_000) => runCli(args, { cwd: dir, timeoutMs });
const files = (d = dir): string[] => readdirSync(d).sort();

/** Runs the CLI with stdin, stdout and stderr on a pseudo-terminal; returns the exit code and everything written. */
function cliOnTty(args: string[], timeoutMs = 60_000): { code: number; output: string } {
  const quote = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;
  const r = spawnSync('script', ['-qec', [process.execPath, MAIN, ...args].map(quote).join(' '), '/dev/null'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, FORCE_COLOR: '0', COLUMNS: '200' },
  });
  return { code: r.status ?? -1, output: r.stdout };
}

/** Every percentage a progress bar drew, in order. */
const percentages = (output: string): number[] => [...output.matchAll(/\] (\d+)% \|/g)].map((m) => Number(m[1]));

describe('item 12: outputs that misled', () => {
  it('demo counts "reproduced" and "reproduced under a stated reading" in separate columns, as the report does', () => {
    const r = cli(['demo', '--out', 'D'], 300_000);
    expect(r.code).toBe(0);
    expect(files()).toEqual(['D']);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^seed +document +claims +reproduced +under a reading +not reproduced +not yet available +headline$/);
    const results = JSON.parse(readFileSync(join(dir, 'D', 'results.json'), 'utf8')) as { seeds: Array<{ id: string; claims: Array<{ source: string; verdict: string }> }> };
    for (const seed of results.seeds) {
      const claims = seed.claims.filter((c) => c.source === 'document');
      const n = (v: string) => claims.filter((c) => c.verdict === v).length;
      const row = lines.find((l) => l.startsWith(`${seed.id} `))!;
      // The five count columns follow the document title (which has no digits-only words).
      const counts = row.match(/ (\d+) +(\d+) +(\d+) +(\d+) +(\d+) {2}/)!.slice(1).map(Number);
      expect(counts, `seed ${seed.id}`).toEqual([claims.length, n('reproduced'), n('reproduced-under-reading'), n('not-reproduced'), n('not-available')]);
    }
  }, 300_000);

  it('xor-swap reports its combining-network contributions, and its schedule bound counts them', () => {
    // Seed 002 on 8 ranks: 3·n(n−1)/2 = 84 combining-network allreduces of one 1 KiB block in
    // sequence (docs/reproduce.md, seed 002), every rank contributing to each (84 × 8 = 672), two
    // ranks with the block and the rest with nothing: 84 × 2 × 1024 bytes.
    const args = ['run', '--topology', 'torus:8', '--collective', 'alltoall', '--algorithm', 'xor-swap', '--size', '1KiB'];
    const json = JSON.parse(cli([...args, '--json']).stdout);
    expect(json.stats.messages).toBe(0);
    expect(json.stats.hw_collective_ops).toBe(84 * 8);
    expect(json.stats.hw_bytes).toBe(84 * 2 * 1024);
    // Zero latency, one block at a time through the combining tree: 84 × 1024 B / hwBandwidth.
    expect(json.schedule_bound_s).toBeCloseTo((84 * 1024) / json.model.hwBandwidth, 15);
    const text = cli(args);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('messages        0 (0B moved); combining network: 672 hwCollective contributions (168KiB)');
    const verify = cli(['collective', 'verify', '--topology', 'torus:8', '--collective', 'alltoall', '--algorithm', 'xor-swap', '--size', '8']);
    expect(verify.stdout).toContain('ops 672, messages 0, hwCollective contributions 672 (combining network, no messages), slots checked 512');
    expect(files()).toEqual([]);
  });

  it('traffic --plot marks saturation and says how many rates it did not draw', () => {
    // torus:4x4 uniform under the booksim preset saturates between 0.4 and 0.6 (its bisection bound is 0.5).
    const r = cli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.2,0.4,0.6,0.8', '--plot', 'p.svg']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('saturation (latency > 500 cycles): 0.6');
    expect(files()).toEqual(['p.svg']);
    const svg = readFileSync(join(dir, 'p.svg'), 'utf8');
    expect(svg).toContain('saturated from offered rate 0.6 (latency &gt; 500 cycles): 2 of 4 rates not drawn');
    // The dashed reference line sits at the most throughput a drawn point accepted.
    expect(svg).toMatch(/aria-roledescription="rule mark"/);
  });

  it('the traffic plot joins points in order of offered rate (horizon mode: delivered can fall past saturation)', () => {
    const result = {
      measurement: 'horizon',
      topology: 'torus:4x4',
      pattern: 'uniform',
      saturationRate: null,
      measurementOptions: { horizon: 100 },
      points: [
        { rate: 0.1, delivered: 100, meanLatency: 10, cycles: 100 },
        { rate: 0.5, delivered: 300, meanLatency: 40, cycles: 100 },
        { rate: 0.9, delivered: 250, meanLatency: 90, cycles: 100 },
      ],
    } as unknown as TrafficSweepResult;
    const spec = trafficPlot(result, false).spec as unknown as { encoding: { order?: { field: string } }; data: { values: Array<{ x: number; i: number }> } };
    expect(spec.encoding.order).toEqual({ field: 'i', type: 'quantitative' });
    expect(spec.data.values.map((v) => v.x)).toEqual([100, 300, 250]);
  });

  it('reproduce: the progress bar never goes back (seed 002 once went 80% → 60%)', async () => {
    const seen: number[] = [];
    await runReproductions(['002'], { quick: true, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(5);
    for (let i = 1; i < seen.length; i++) expect(seen[i], `report ${i}`).toBeGreaterThanOrEqual(seen[i - 1]);
  }, 120_000);
});

describe('item 13: progress bars with ETA on a terminal, nothing in pipes or with --json', () => {
  const commands: Array<[string, string[]]> = [
    ['traffic', ['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.1,0.2']],
    ['run --engine packet', ['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '4KiB', '--engine', 'packet']],
    ['collective verify', ['collective', 'verify', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '64']],
    ['table mdce', ['table', 'mdce']],
    // Issue 28 item 10: large topo runs showed no progress; BFS in this thread and in two workers.
    ['topo (one thread)', ['topo', 'jellyfish:routers=3000,degree=8', '--workers', '1']],
    ['topo (BFS workers)', ['topo', 'jellyfish:routers=3000,degree=8', '--workers', '2']],
  ];
  for (const [name, args] of commands) {
    it(`${name}: a bar with ETA on a terminal; none in a pipe; none with --json`, () => {
      const tty = cliOnTty(args);
      expect(tty.code).toBe(0);
      expect(tty.output).toMatch(/\[[░█]+\] \d+% \| \d+\w* elapsed, ETA /);
      const p = percentages(tty.output);
      for (let i = 1; i < p.length; i++) expect(p[i]).toBeGreaterThanOrEqual(p[i - 1]);
      const piped = cli(args);
      expect(piped.code).toBe(0);
      expect(piped.stderr).toBe('');
      const json = cliOnTty([...args, '--json']);
      expect(json.code).toBe(0);
      expect(json.output).not.toContain('ETA');
      expect(files()).toEqual([]);
    });
  }
});

describe('item 14: run --engine packet takes the packet-router options traffic has', () => {
  const base = ['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '4KiB', '--engine', 'packet'];
  it('sets VCs, buffers and router delay, records them and shows them in the text output', () => {
    const r = cli([...base, '--vcs', '6', '--vc-buf', '12', '--router-delay', '3', '--packet-size', '4']);
    expect(r.code).toBe(0);
    // The cycle is one 32-byte flit on the slowest channel; channel latency = link latency / cycle.
    expect(r.stdout).toMatch(/^packet {10}flit=32B, packet=4 flits, VCs=6, VC buffer=12 flits, wormhole, router delay=6 cycles \(routing 3, VC alloc 1, switch alloc 1, traversal 1\), channel latency=x\+=\d+ x-=\d+ y\+=\d+ y-=\d+ cycles, terminals=direct, cycle=/m);
    const json = JSON.parse(cli([...base, '--vcs', '6', '--vc-buf', '12', '--router-delay', '3', '--packet-size', '4', '--json']).stdout);
    expect([json.model.vcs, json.model.vcBuf, json.model.routingDelay, json.model.packetSize]).toEqual([6, 12, 3, 4]);
    // A deeper router pipeline takes longer: the option reaches the engine.
    const plain = JSON.parse(cli([...base, '--json']).stdout);
    const slow = JSON.parse(cli([...base, '--router-delay', '20', '--json']).stdout);
    expect(slow.makespan_s).toBeGreaterThan(plain.makespan_s);
    expect(files()).toEqual([]);
  });
  it('the default text output of a packet run shows the packet values', () => {
    expect(cli(base).stdout).toMatch(/^packet {10}flit=32B, packet=8 flits, VCs=4, VC buffer=16 flits, wormhole, router delay=4 cycles/m);
  });
  it('refuses packet options at flow level, in one line', () => {
    const r = cli(['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '4KiB', '--vcs', '6']);
    expect(expectOneLineError(r)).toBe('meshwork: error: vcs: got "6"; accepted: a packet-router option with --engine packet (the flow engine has no routers)');
    expect(files()).toEqual([]);
  });
  it('refuses a bad value with the same message traffic gives', () => {
    const run = expectOneLineError(cli([...base, '--vcs', '0']));
    const traffic = expectOneLineError(cli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.1', '--vcs', '0']));
    expect(run).toBe('meshwork: error: vcs: got "0"; accepted: an integer in [1, 64]');
    expect(traffic).toBe(run);
  });
  it('run and traffic list the same packet options; help gives each default', () => {
    const flags = (help: string): string[] => [...help.matchAll(/^ {2}(--[a-z-]+) <[^>]+> /gm)].map((m) => m[1]);
    const runHelp = cli(['run', '--help']).stdout;
    const trafficHelp = cli(['traffic', '--help']).stdout;
    const packetFlags = ['--packet-size', '--vcs', '--vc-buf', '--switching', '--router-delay', '--arbitration', '--allocator', '--serialization', '--channel-latency', '--credit-return', '--terminals', '--vc-alloc-check', '--adaptive-decision'];
    for (const f of packetFlags) {
      expect(flags(runHelp)).toContain(f);
      expect(flags(trafficHelp)).toContain(f);
    }
    const flat = (h: string) => h.replace(/\s+/g, ' ');
    expect(flat(trafficHelp)).toContain('--vcs <n> virtual channels per port (default: 2)');
    expect(flat(trafficHelp)).toContain('--vc-buf <flits> buffer depth per VC (default: 8)');
    expect(flat(runHelp)).toContain('--vc-buf <flits> buffer depth per VC (with --engine packet) (default: 16)');
    // Every traffic option states its default or is required/flag-like.
    expect(flat(trafficHelp)).toContain('--seed <n> random seed (default 1)');
  });
});

describe('item 10: topo of a large mesh, torus or hypercube answers from closed forms, before building anything', () => {
  it('topo torus:4096x4096 prints exact closed forms (the graph of 2^24 nodes is not built)', () => {
    const r = cli(['topo', 'torus:4096x4096', '--json'], 20_000);
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout);
    // k×k torus, k even: N = k², 4N channels, diameter k, mean with self-pairs k/2 (k/4 per
    // dimension, Dally & Towles §3.2); halving one dimension cuts k rings twice: 2k links, 4k channels.
    const k = 4096;
    expect([m.nodes, m.channels, m.diameter, m.mean_distance_with_self, m.bisection.channels]).toEqual([k * k, 4 * k * k, k, k / 2, 4 * k]);
    expect(m.method).toBe('product');
    expect(m.method_reason).toContain('the graph (16777216 nodes, above 2^20) is not built');
    expect(files()).toEqual([]);
  });
  it('a method that needs the graph is refused in one line, naming the limit', () => {
    const r = cli(['topo', 'torus:4096x4096', '--method', 'sampled'], 20_000);
    expect(expectOneLineError(r)).toBe('meshwork: error: method: got "sampled"; accepted: auto or product: above 2^20 nodes (this one has 16777216) topo answers from closed forms, without building the graph');
  });
  it('an odd largest radix skips the bisection and says why', () => {
    const r = cli(['topo', 'mesh:1025x1025'], 20_000);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^bisection +not computed: the largest radix 1025 is odd, and the bound needs the graph;/m);
    const m = JSON.parse(cli(['topo', 'mesh:1025x1025', '--json'], 20_000).stdout);
    expect(m.bisection.method).toBe('not computed: the largest radix 1025 is odd, and the bound needs the graph; closed form from the spec; the graph (1050625 nodes, above 2^20) is not built');
    // k×k mesh: mean distance with self-pairs 2(k²−1)/(3k) (per dimension (k²−1)/(3k)).
    expect(m.mean_distance_with_self).toBeCloseTo((2 * (1025 ** 2 - 1)) / (3 * 1025), 9);
  });
});
