/**
 * Issue 16 ("what a tester broke in the first hour"): one CLI test per item, each in a temporary
 * directory, asserting the exit code, the one-line message and which files exist afterwards.
 * Device-like targets are FIFOs and symlinks inside the temporary directory, never real devices.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScheduleBuilder } from '../../src/collectives/schedule.js';
import { buildTopology, exportDot, listFamilies } from '../../src/topology/index.js';
import '../../src/topology/families.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'meshwork-hardening-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});
const cli = (args: string[], timeoutMs = 60_000) => runCli(args, { cwd: dir, timeoutMs });
const files = (d = dir): string[] => readdirSync(d).sort();

describe('item 1: packet runs have a size limit, checked before anything is built', () => {
  it('refuses 1 TiB alltoall on torus:4x4 at packet level, naming the flit limit', () => {
    const r = cli(['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1TiB', '--engine', 'packet'], 20_000);
    // 16 ranks each receive 15 TiB: 16·15·2^40 / 32 = 8,246,337,208,320 flits (mustReceive, demand.ts).
    expect(expectOneLineError(r)).toBe(
      'meshwork: error: size: got "8246337208320 flits"; accepted: at most 67108864 flits (2^26, about 2 GiB, two minutes) at packet level, counting what 16 ranks must receive in this alltoall in 32-byte flits; time it with --engine flow',
    );
  });
  it('still runs a small packet-level schedule', () => {
    const r = cli(['run', '--topology', 'torus:2x2', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB', '--engine', 'packet', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).engine).toBe('packet');
  });
});

describe('item 2: --out writes through symlinks, streams to FIFOs, refuses directories', () => {
  it('writes through a symlink to its target and keeps the link', () => {
    writeFileSync(join(dir, 'real.json'), 'old');
    symlinkSync('real.json', join(dir, 'link.json'));
    const r = cli(['export', 'torus:2x2', '--format', 'json', '--out', 'link.json']);
    expect(r.code).toBe(0);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'real.json'), 'utf8')).name).toBe('torus:2x2');
    expect(files()).toEqual(['link.json', 'real.json']);
  });
  it('writes through a dangling symlink, creating its target', () => {
    symlinkSync('target.json', join(dir, 'link.json'));
    expect(cli(['export', 'torus:2x2', '--out', 'link.json']).code).toBe(0);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(files()).toEqual(['link.json', 'target.json']);
  });
  it('streams into a FIFO and leaves it a FIFO', async () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (d: Buffer) => (got += d.toString()));
    const done = new Promise((resolve) => reader.on('close', resolve));
    const r = cli(['export', 'torus:2x2', '--format', 'json', '--out', 'pipe']);
    await done;
    expect(r.code).toBe(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(JSON.parse(got).name).toBe('torus:2x2');
    expect(files()).toEqual(['pipe']);
  });
  it('streams through a symlink to a FIFO (as /dev/stdout is a link) and keeps both', async () => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    symlinkSync('pipe', join(dir, 'stdout'));
    const reader = spawn('cat', [join(dir, 'pipe')]);
    let got = '';
    reader.stdout.on('data', (d: Buffer) => (got += d.toString()));
    const done = new Promise((resolve) => reader.on('close', resolve));
    expect(cli(['export', 'torus:2x2', '--out', 'stdout']).code).toBe(0);
    await done;
    expect(lstatSync(join(dir, 'pipe')).isFIFO()).toBe(true);
    expect(lstatSync(join(dir, 'stdout')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(got).name).toBe('torus:2x2');
  });
  it('refuses a directory and leaves it untouched', () => {
    mkdirSync(join(dir, 'd'));
    expect(expectOneLineError(cli(['export', 'torus:2x2', '--out', 'd']))).toBe('meshwork: error: out: got "d"; accepted: a file path, not a directory');
    expect(files(join(dir, 'd'))).toEqual([]);
  });
  it('writes a schedule through a symlink (collective verify --out)', () => {
    writeFileSync(join(dir, 'real.json'), 'old');
    symlinkSync('real.json', join(dir, 's.json'));
    const r = cli(['collective', 'verify', '--topology', 'ring:4', '--collective', 'alltoall', '--algorithm', 'linear', '--size', '4', '--out', 's.json']);
    expect(r.code).toBe(0);
    expect(lstatSync(join(dir, 's.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'real.json'), 'utf8')).numRanks ?? 4).toBe(4);
  });
});

describe('item 3: no stack overflow on large groups', () => {
  it('a barrier group of 300,000 members (above the ~100K spread limit) is built', () => {
    const n = 300_000;
    const b = new ScheduleBuilder({ collective: 'barrier', numRanks: n, size: 0 });
    const all = Int32Array.from({ length: n }, (_, i) => i);
    expect(() => b.group(all)).not.toThrow();
  });
});

describe('item 4: output paths under /proc are refused at once, not hung on', () => {
  for (const [args, field] of [
    [['export', 'torus:2x2', '--out', '/proc/x/y.json'], 'out'],
    [['run', '--topology', 'torus:2x2', '--algorithm', 'pairwise', '--size', '1KiB', '--trace', '/proc/x/t.json'], 'trace'],
    [['traffic', '--topology', 'torus:2x2', '--pattern', 'uniform', '--rates', '0.1', '--plot', '/proc/x.svg'], 'plot'],
    [['reproduce', '000', '--quick', '--out', '/proc/x'], 'out'],
    [['demo', '--out', '/proc/x'], 'out'],
  ] as const) {
    it(`${args[0]} ${field} under /proc`, () => {
      const line = expectOneLineError(cli([...args], 15_000));
      expect(line).toMatch(new RegExp(`^meshwork: error: ${field}: got "/proc/x[^"]*"; accepted: `));
      expect(files()).toEqual([]);
    });
  }
});

describe('item 7: every output path is checked before the work; all outputs or none', () => {
  it('--csv ok.csv --plot missing/x.svg writes nothing and names the missing directory', () => {
    const r = cli(['traffic', '--topology', 'torus:2x2', '--pattern', 'uniform', '--rates', '0.1', '--csv', 'ok.csv', '--plot', 'missing/x.svg']);
    expect(expectOneLineError(r)).toBe(`meshwork: error: plot: got "missing/x.svg"; accepted: a path in an existing directory (${join(dir, 'missing')} does not exist; create it first)`);
    expect(files()).toEqual([]);
  });
  it('run --trace into a missing directory is refused before simulating', () => {
    const r = cli(['run', '--topology', 'torus:2x2', '--algorithm', 'pairwise', '--size', '1KiB', '--trace', 'missing/t.json']);
    expect(expectOneLineError(r)).toMatch(/^meshwork: error: trace: got "missing\/t.json"; accepted: a path in an existing directory/);
    expect(r.stdout).toBe('');
    expect(files()).toEqual([]);
  });
  it('--csv and --plot on the same file are refused', () => {
    const r = cli(['traffic', '--topology', 'torus:2x2', '--pattern', 'uniform', '--rates', '0.1', '--csv', 'a', '--plot', 'a']);
    expect(expectOneLineError(r)).toBe(`meshwork: error: plot: got "a"; accepted: a path other than --csv's`);
    expect(files()).toEqual([]);
  });
  it('both outputs are written when both paths are good', () => {
    const r = cli(['traffic', '--topology', 'torus:2x2', '--pattern', 'uniform', '--rates', '0.1', '--csv', 'ok.csv', '--plot', 'ok.svg']);
    expect(r.code).toBe(0);
    expect(files()).toEqual(['ok.csv', 'ok.svg']);
  });
});

describe('item 15: --out never creates missing parents', () => {
  it('export --out missing/x.json is refused and creates nothing', () => {
    const r = cli(['export', 'torus:2x2', '--out', 'nonexist/x.json']);
    expect(expectOneLineError(r)).toBe(`meshwork: error: out: got "nonexist/x.json"; accepted: a path in an existing directory (${join(dir, 'nonexist')} does not exist; create it first)`);
    expect(existsSync(join(dir, 'nonexist'))).toBe(false);
  });
});

describe('item 10: limits are checked from the spec, before building', () => {
  it('traffic on torus:4096x4096 is refused from the spec', () => {
    const r = cli(['traffic', '--topology', 'torus:4096x4096', '--pattern', 'uniform', '--rates', '0.1', '--horizon', '10'], 20_000);
    expect(expectOneLineError(r)).toBe('meshwork: error: topology: got "torus:4096x4096 (16777216 nodes)"; accepted: at most 1048576 nodes (2^20) for packet-level simulation');
  });
  it('topo mesh:4096x4096 --method all-pairs is refused from the spec', () => {
    // 2^24 endpoints × 2·2·4095·4096 channels (estimate.test.ts checks the count against built meshes).
    const r = cli(['topo', 'mesh:4096x4096', '--method', 'all-pairs'], 20_000);
    expect(expectOneLineError(r)).toBe('meshwork: error: method: got "all-pairs over 16777216 endpoints × 67092480 channels"; accepted: at most 17179869184 edge visits (2^34); use sampled');
  });
  it('topo torus:8192x4096 is refused from the spec (2^25 nodes)', () => {
    expect(expectOneLineError(cli(['topo', 'torus:8192x4096'], 20_000))).toBe('meshwork: error: topology: got "33554432 nodes"; accepted: at most 16777216 nodes (2^24)');
  });
});

describe('item 11: degenerate inputs are refused or reported plainly', () => {
  it('topo dragonfly:h=0 (one terminal) is refused', () => {
    expect(expectOneLineError(cli(['topo', 'dragonfly:h=0']))).toBe('meshwork: error: topology: got "dragonfly:h=0"; accepted: a topology with at least 2 endpoints (this one has 1)');
  });
  it('a disconnected file graph reports diameter ∞ and the unreachable pairs', () => {
    // Two separate links over four nodes: 4 self-pairs + 4 linked pairs reachable, 8 of 16 not.
    writeFileSync(join(dir, 'two.json'), JSON.stringify({ nodes: 4, links: [{ src: 0, dst: 1 }, { src: 2, dst: 3 }] }));
    const r = cli(['topo', 'file:two.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('diameter       ∞ (disconnected: 8 of 16 ordered pairs have no path; largest finite distance 1)');
    expect(r.stdout).toContain('(over the 8 reachable of N² = 16 ordered pairs)');
    const json = JSON.parse(cli(['topo', 'file:two.json', '--json']).stdout);
    expect(json.diameter).toBeNull();
    expect(json.unreachable_pairs).toBe(8);
  });
});

describe('item 15: error messages show what was typed, cut to ~80 characters', () => {
  const rates = (value: string) => cli(['traffic', '--topology', 'torus:2x2', '--pattern', 'uniform', '--rates', value]);
  for (const value of ['NaN', '1e309', '0.1,,0.2']) {
    it(`--rates ${value}`, () => {
      expect(expectOneLineError(rates(value))).toBe(`meshwork: error: rates: got "${value}"; accepted: start:stop:step or a comma list of rates in (0, 1] flits/node/cycle`);
    });
  }
  it('"nodes": 1e309 in a file is shown as Infinity, not null', () => {
    writeFileSync(join(dir, 'inf.json'), '{"nodes": 1e309, "links": []}');
    expect(expectOneLineError(cli(['topo', 'file:inf.json']))).toMatch(/^meshwork: error: inf\.json\.nodes: got Infinity; accepted: /);
  });
  it('30,000 dimensions: "more than 2^53 nodes", not "Infinity nodes"', () => {
    const r = cli(['topo', `torus:${Array.from({ length: 30_000 }, () => '2').join('x')}`]);
    expect(expectOneLineError(r)).toBe('meshwork: error: topology: got "more than 2^53 nodes"; accepted: at most 16777216 nodes (2^24)');
  });
  it('a 100,000-character key is cut', () => {
    const line = expectOneLineError(cli(['topo', `torus:4x4,${'k'.repeat(100_000)}=1`]));
    expect(line.length).toBeLessThan(400);
  });
  it('the hop-grouped refusal does not suggest hop-grouped', () => {
    // Under --symmetry auto the 64³ run is timed from its one representative (next test); off, its full schedule is refused.
    const line = expectOneLineError(cli(['run', '--topology', 'torus:64x64x64', '--collective', 'alltoall', '--algorithm', 'hop-grouped', '--size', '1KiB', '--symmetry', 'off'], 30_000));
    expect(line).toBe('meshwork: error: algorithm: got "596115456 schedule ops (hop-grouped, 262144 ranks)"; accepted: at most 134217728 schedule ops (2^27, about 16 GiB) at flow level; use fewer ranks');
  });
  it('the same 64³ hop-grouped alltoall runs under --symmetry auto from its one representative (hop-grouped declares its translations)', () => {
    const r = cli(['run', '--topology', 'torus:64x64x64', '--collective', 'alltoall', '--algorithm', 'hop-grouped', '--size', '1KiB', '--json'], 60_000);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { model: { symmetry: { representatives?: number; representatives_only?: boolean } }; workload: { ranks: number } };
    expect(out.workload.ranks).toBe(262_144);
    expect(out.model.symmetry.representatives).toBe(1);
    expect(out.model.symmetry.representatives_only).toBe(true);
  });
});

describe('item 8: a report directory is locked while a run writes it', () => {
  it('a second run into the same --out is refused with one line, and writes nothing', () => {
    // The lock names a live process (this test's own): the second run must not proceed.
    writeFileSync(join(dir, '.R.lock'), `${process.pid}\n`);
    const r = cli(['reproduce', '002', '--quick', '--out', 'R']);
    expect(expectOneLineError(r)).toBe(`meshwork: error: out: got "R"; accepted: a directory no other meshwork run is writing (process ${process.pid} is writing a report there; wait for it or choose another --out)`);
    expect(files()).toEqual(['.R.lock']);
  });
});

describe('item 9: interrupted runs leave no litter; stale temporaries of dead processes are swept', () => {
  it('a stale lock and temporary directory of a dead PID are cleaned by the next run', () => {
    const dead = 2 ** 22 + 12345; // above the default pid_max: never a live process
    mkdirSync(join(dir, `.R.tmp-${dead}`));
    writeFileSync(join(dir, '.R.lock'), `${dead}\n`);
    const r = cli(['reproduce', '002', '--quick', '--out', 'R'], 120_000);
    expect(r.code).toBe(0);
    expect(files()).toEqual(['R']);
  });
  it('SIGINT stops reproduce at once; what it leaves is swept by the next run', async () => {
    const child = spawn(process.execPath, [join(__dirname, '../../dist/cli/main.js'), 'reproduce', 'all', '--quick', '--out', 'R'], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    for (let i = 0; i < 600 && !files().some((f) => f.startsWith('.R.tmp-')); i++) await new Promise((r) => setTimeout(r, 100));
    expect(files()).toContain(`.R.tmp-${child.pid}`);
    child.kill('SIGINT');
    expect(await exited).toBe('SIGINT');
    expect(files().filter((f) => !f.startsWith('.R.'))).toEqual([]);
    expect(cli(['reproduce', '002', '--quick', '--out', 'R'], 120_000).code).toBe(0);
    expect(files()).toEqual(['R']);
  });
});

describe('item 5: DOT export parses in Graphviz, for every family', () => {
  // Graphviz (Debian `graphviz`, listed in .ci/apt-packages) is the reference parser.
  const specs = ['ring:4', 'uring:4', 'mesh:2x3', 'torus:2x2', 'hypercube:3', 'fullmesh:4', 'fattree:k=2,levels=2', 'twolevel:leaves=2,hosts=2', 'omega:8', 'fly:k=2,n=2', 'dragonfly:h=1', 'dce:n=3,delta=1', 'cbanyan:3', 'ccc:3', 'mdce:B=1,C=1,P=1,n=2', 'hyperx:2x3', 'flatfly:k=2,n=2,c=1', 'cmesh:k=4', 'slimfly:q=5,p=1', 'polarfly:q=2,p=1', 'dragonflyplus:h=1', 'jellyfish:routers=6,degree=3', 'comega:3', 'fabric:gpus=2,nodes=2,planes=1,links=1,nics=1', 'hgx-h100', 'hgx-a100', 'mi300x', 'gb200-nvl72', 'tpu:2x2x4,twist=on', 'simgrid-fattree:levels=2,down=2x2,up=1x2,links=1x1', 'simgrid-dragonfly:groups=2,chassis=1,routers=2,nodes=1', 'simgrid-flat:hosts=4', 'astra:topology=Switch_Ring,npus=2x2,bandwidth=1x1,latency=1x1'];
  it('every family listed is covered', () => {
    // By spec name: cbanyan and ccc are families of their own that build DCE-shaped topologies.
    const covered = new Set(specs.map((s) => s.split(':')[0]));
    expect(listFamilies().map((f) => f.name).filter((f) => f !== 'file' && !covered.has(f))).toEqual([]);
  });
  for (const spec of specs) {
    it(spec, () => {
      const svg = execFileSync('dot', ['-Tsvg'], { input: exportDot(buildTopology(spec)), encoding: 'utf8' });
      expect(svg).toContain('<svg');
    });
  }
  it('the CLI export of torus:2x2 parses (its latency 1e-07 was a syntax error unquoted)', () => {
    const r = cli(['export', 'torus:2x2', '--format', 'dot']);
    expect(r.code).toBe(0);
    expect(execFileSync('dot', ['-Tsvg'], { input: r.stdout, encoding: 'utf8' })).toContain('<svg');
  });
});

describe('item 17: the package ships a LICENSE and no source maps into an unshipped src/', () => {
  it('npm pack lists LICENSE and no .map files', () => {
    const root = join(__dirname, '../..');
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const paths = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
    expect(paths).toContain('LICENSE');
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 Meshwork authors/);
  });
});

describe('item 14: CLI gaps', () => {
  it('--json --csv together is refused', () => {
    const r = cli(['run', '--topology', 'torus:2x2', '--algorithm', 'pairwise', '--size', '1', '--json', '--csv']);
    expect(expectOneLineError(r)).toBe("meshwork: error: option '--csv' cannot be used with option '--json'");
  });
  it('--help marks required options and gives the defaults of --root and --tie', () => {
    const help = cli(['run', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('e.g. torus:8x8,bw=25Gbps,lat=100ns (required, except with --schedule FILE.json');
    expect(help).toContain('(source of one-to-one) (default: 0)');
    expect(help).toContain('simgrid (+ except from k/2) (default: positive)');
  });
  it('topo --help lists the families', () => {
    const help = cli(['topo', '--help']).stdout;
    for (const usage of ['torus:AxBx', 'dragonfly:h=H', 'hypercube:']) expect(help).toContain(usage);
  });
  it('table mdce defaults to 1,024 PEs', () => {
    const json = JSON.parse(cli(['table', 'mdce', '--json']).stdout);
    expect(json.sizes).toEqual([1024]);
  });
});
