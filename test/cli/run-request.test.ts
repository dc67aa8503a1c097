/** `meshwork run --request FILE` runs a saved RunRequest; the result records the request, which re-runs it exactly. */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
import { runRequestJsonSchema } from '../../src/sim/request.js';

describe('run --request', () => {
  const dir = tempDir('request');

  it('schemas/run-request.schema.json is the validator (generated from the option schema), exported', () => {
    const file = JSON.parse(readFileSync(new URL('../../schemas/run-request.schema.json', import.meta.url), 'utf8'));
    expect(file).toEqual(runRequestJsonSchema());
    expect(Object.keys(file.properties.model.properties)).toContain('simultaneity');
  });

  it('runs a saved request, and the request its result records gives the same makespan', () => {
    const path = join(dir, 'a.json');
    writeFileSync(path, JSON.stringify({ topology: 'torus:4x4', workload: { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 4096 }, model: { alpha: 2e-6 } }));
    const first = JSON.parse(runCli(['run', '--request', path]).stdout);
    expect(first.model.alpha).toBe(2e-6);
    expect(first.request).toMatchObject({ engine: 'flow', routing: { name: 'dor', seed: 1 } });
    // The same run through the CLI's own options.
    const viaFlags = JSON.parse(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '4KiB', '--alpha', '2us', '--json']).stdout);
    expect(first.makespan_s).toBe(viaFlags.makespan_s);
    const again = join(dir, 'b.json');
    writeFileSync(again, JSON.stringify(first.request));
    expect(JSON.parse(runCli(['run', '--request', again]).stdout).makespan_s).toBe(first.makespan_s);
  });

  it('refuses a bad request in one line naming the field', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ topology: 'torus:4x4', workload: { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 4096 }, model: { alpah: 1 } }));
    expect(expectOneLineError(runCli(['run', '--request', path]))).toMatch(/^meshwork: error: request\.model\.alpah: got 1; accepted: only the keys alpha, /);
  });
});

describe('--print-request: argv to a saved request and back', () => {
  const dir = tempDir('print-request');
  const roundTrip = (command: 'run' | 'traffic', args: string[]): { direct: string; saved: string; request: Record<string, unknown> } => {
    const printed = runCli([command, ...args, '--print-request']);
    expect(printed.code, printed.stderr).toBe(0);
    const file = join(dir, `${command}-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, printed.stdout);
    const direct = runCli([command, ...args, '--json']);
    const saved = runCli(command === 'run' ? ['run', '--request', file] : ['traffic', '--request', file, '--json']);
    expect(direct.code, direct.stderr).toBe(0);
    expect(saved.code, saved.stderr).toBe(0);
    return { direct: direct.stdout, saved: saved.stdout, request: JSON.parse(printed.stdout) };
  };

  it.each([
    [['--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '4KiB', '--tie', 'split', '--alpha', '2us', '--noise', 'skew=1us,seed=3']],
    [['--topology', 'torus:4x4', '--collective', 'alltoallv', '--algorithm', 'pairwise', '--sizes', 'random:max=4KiB,seed=3']],
    [['--topology', 'torus:4x4', '--collective', 'broadcast', '--algorithm', 'binomial', '--size', '1KiB', '--root', '5', '--engine', 'packet', '--vcs', '4', '--packet-size', '4']],
    [['--topology', 'torus:4x4x4,bw=10GBps,lat=100ns', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB', '--preset', 'simgrid', '--barriers']],
  ])('run %j: the saved request gives the byte-identical result', (args) => {
    const { direct, saved, request } = roundTrip('run', args);
    expect(saved).toBe(direct);
    // The printed request is the resolved one the result records.
    expect(JSON.parse(direct).request).toEqual(request);
  });

  it('run: an alltoallv size-matrix file travels as its path (read through RunIo) and round-trips', () => {
    const matrix = join(dir, 'sizes.txt');
    writeFileSync(matrix, '0 100 200 300\n400 0 500 600\n700 800 0 900\n1000 1100 1200 0\n');
    const { direct, saved, request } = roundTrip('run', ['--topology', 'torus:2x2', '--collective', 'alltoallv', '--algorithm', 'linear', '--sizes', matrix]);
    expect(saved).toBe(direct);
    expect(request.workload).toMatchObject({ kind: 'collective', collective: 'alltoallv', sizes: matrix });
    // 12 off-diagonal blocks, 7,800 bytes in all (the matrix's sum).
    expect(JSON.parse(direct).stats.bytes).toBe(7800);
  });

  it.each([
    [['--topology', 'mesh:4x4', '--pattern', 'hotspot', '--rates', '0.1', '--horizon', '2000', '--seed', '7', '--hot', '5']],
    [['--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.05,0.1', '--vcs', '4', '--routing', 'dor']],
  ])('traffic %j: the saved request gives the byte-identical result', (args) => {
    const { direct, saved, request } = roundTrip('traffic', args);
    expect(saved).toBe(direct);
    expect(request.workload).toMatchObject({ kind: 'traffic' });
  });

  it('traffic: a BookSim file is folded into the request, which reruns the same numbers without the file', () => {
    const cfg = join(dir, 'mesh44');
    writeFileSync(cfg, 'topology = mesh; k = 4; n = 2; routing_function = dim_order; num_vcs = 2; packet_size = 4; injection_rate = 0.02; seed = 3;\n');
    const { direct, saved, request } = roundTrip('traffic', ['--booksim-config', cfg]);
    expect(request).toMatchObject({ topology: 'mesh:4x4', workload: { rateUnit: 'packets', rates: [0.02], seed: 3 }, packet: { preset: 'booksim', config: { vcs: 2, packetSize: 4 } } });
    const strip = (text: string): unknown => ({ ...JSON.parse(text), bookSimConfig: undefined, warnings: undefined });
    expect(strip(saved)).toEqual(strip(direct));
  });

  it('refuses --print-request with --seeds (one request per run) in one line', () => {
    expect(expectOneLineError(runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.1', '--seeds', '1,2', '--print-request']))).toMatch(/print-request/);
  });

  it("refuses a pattern's option beside another pattern, and names --xr when the digits do not fit", () => {
    expect(expectOneLineError(runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.1', '--hot', '3']))).toBe(
      'meshwork: error: hot: got "3"; accepted: nothing unless --pattern hotspot (the pattern here is uniform)',
    );
    expect(expectOneLineError(runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'transpose', '--rates', '0.1', '--xr', '2']))).toMatch(/^meshwork: error: xr: got "2"; accepted: nothing unless --pattern tornado or neighbor/);
    expect(expectOneLineError(runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'tornado', '--rates', '0.1', '--xr', '4096']))).toBe(
      'meshwork: error: xr: got 4096; accepted: (xr·k)^n <= 16, the terminals, with k=4 and n=2 (tornado\'s destinations are ranks)',
    );
  });

  it('refuses a seed given twice (it would count one run twice in the means)', () => {
    expect(expectOneLineError(runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.1', '--seeds', '1,2,1']))).toBe(
      'meshwork: error: seeds: got "1,2,1"; accepted: distinct seeds (1 is given twice)',
    );
  });
});

describe('alltoallv sizes in the request', () => {
  it('compare --collective alltoallv times each algorithm as run does', () => {
    const args = ['--topology', 'torus:4x4', '--collective', 'alltoallv', '--sizes', 'diagonal:size=8KiB,far=1KiB'];
    const r = runCli(['compare', ...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const compared = JSON.parse(r.stdout);
    expect(compared.runs.length).toBeGreaterThanOrEqual(2);
    for (const run of compared.runs) {
      const alone = JSON.parse(runCli(['run', ...args, '--algorithm', run.workload.algorithm_spec, '--json']).stdout);
      expect(run.makespan_s).toBe(alone.makespan_s);
      expect(run.stats.bytes).toBe(16 * 8192 + 16 * 14 * 1024);
    }
  });

  it('the text headers of run and compare name the per-pair sizes (they said "size none")', () => {
    const args = ['--topology', 'torus:4x4', '--collective', 'alltoallv', '--sizes', 'diagonal:size=8KiB,far=1KiB'];
    expect(runCli(['run', ...args, '--algorithm', 'linear']).stdout).toContain('collective      alltoallv, algorithm linear, size per pair, diagonal:size=8KiB,far=1KiB\n');
    expect(runCli(['compare', ...args]).stdout).toContain('collective alltoallv, size per pair, diagonal:size=8KiB,far=1KiB, flow engine\n');
  });

  it('refuses a matrix of the wrong shape, and sizes on another collective, naming the field', () => {
    const dir = tempDir('sizes');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ topology: 'torus:2x2', workload: { kind: 'collective', collective: 'alltoallv', algorithm: 'linear', sizes: [[0, 1], [1, 0]] } }));
    expect(expectOneLineError(runCli(['run', '--request', bad]))).toMatch(/^meshwork: error: sizes: got "2 rows of 2, 2"; accepted: 4 rows of 4 byte counts/);
    writeFileSync(bad, JSON.stringify({ topology: 'torus:2x2', workload: { kind: 'collective', collective: 'alltoall', algorithm: 'linear', size: 8, sizes: 'uniform:size=8' } }));
    expect(expectOneLineError(runCli(['run', '--request', bad]))).toMatch(/^meshwork: error: sizes: .*only with --collective alltoallv/);
    writeFileSync(bad, JSON.stringify({ topology: 'torus:2x2', workload: { kind: 'collective', collective: 'alltoallv', algorithm: 'linear', sizes: [[0, -1], [1, 0]] } }));
    expect(expectOneLineError(runCli(['run', '--request', bad]))).toMatch(/^meshwork: error: request\.workload\.sizes/);
  });
});

describe("a saved request's relative paths are read from its own directory", () => {
  const root = realpathSync(tempDir('request-paths'));
  const data = join(root, 'data');
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(data);
  mkdirSync(elsewhere);
  writeFileSync(join(data, 'ring.yaml'), 'family: ring\nshape: "4"\n');
  writeFileSync(join(data, 'perm.txt'), '3 1 2 0\n');
  writeFileSync(join(data, 'sizes.txt'), '0 100 200 300\n400 0 500 600\n700 800 0 900\n1000 1100 1200 0\n');

  it('workload run --print-request saved to another directory runs from a third (run --request, workload run --request)', () => {
    expect(runCli(['workload', 'export', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '64KiB', '--out', 'tr', '--name', 'ar'], { cwd: data }).code).toBe(0);
    const args = ['workload', 'run', '--trace', 'tr', '--topology', 'ring:4'];
    const printed = runCli([...args, '--print-request'], { cwd: data });
    expect(printed.code, printed.stderr).toBe(0);
    // Printed absolute, so it runs from anywhere.
    expect(JSON.parse(printed.stdout).workload.trace).toEqual([join(data, 'tr')]);
    mkdirSync(join(root, 'saved'));
    writeFileSync(join(root, 'saved', 'req.json'), printed.stdout);
    const direct = runCli([...args, '--json'], { cwd: data });
    expect(direct.code, direct.stderr).toBe(0);
    for (const command of [['run'], ['workload', 'run']]) {
      const saved = runCli([...command, '--request', '../saved/req.json'], { cwd: elsewhere });
      expect(saved.code, saved.stderr).toBe(0);
      expect(saved.stdout).toBe(direct.stdout);
    }
  });

  it('a hand-written request naming a topology file, mapping, schedule file and size matrix by relative path', () => {
    expect(runCli(['collective', 'export', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB', '--format', 'json', '--out', 'sched.json'], { cwd: data }).code).toBe(0);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ topology: 'file:ring.yaml', mapping: 'perm.txt', workload: { kind: 'schedule', file: 'sched.json' } }, ['--topology', 'file:ring.yaml', '--mapping', 'perm.txt', '--schedule', 'sched.json']],
      [{ topology: 'ring.yaml', workload: { kind: 'collective', collective: 'alltoallv', algorithm: 'linear', sizes: 'sizes.txt' } }, ['--topology', 'ring.yaml', '--collective', 'alltoallv', '--algorithm', 'linear', '--sizes', 'sizes.txt']],
    ];
    for (const [request, args] of cases) {
      writeFileSync(join(data, 'hand.json'), JSON.stringify(request));
      const saved = runCli(['run', '--request', join(data, 'hand.json')], { cwd: elsewhere });
      expect(saved.code, saved.stderr).toBe(0);
      // The same run typed in the data directory: the same result, its recorded paths absolute.
      const direct = runCli(['run', ...args, '--json'], { cwd: data });
      expect(direct.code, direct.stderr).toBe(0);
      expect(saved.stdout).toBe(direct.stdout);
      expect(JSON.parse(saved.stdout).request.topology).toMatch(new RegExp(`^(file:)?${join(data, 'ring.yaml')}$`));
    }
    // 12 off-diagonal blocks of the matrix, 7,800 bytes in all.
    expect(JSON.parse(runCli(['run', '--request', join(data, 'hand.json')], { cwd: elsewhere }).stdout).stats.bytes).toBe(7800);
  });

  it('a request read from a pipe (--request /dev/stdin) reads its relative paths from the working directory', () => {
    const request = JSON.stringify({ topology: 'ring.yaml', mapping: 'perm.txt', workload: { kind: 'collective', collective: 'allreduce', algorithm: 'ring', size: 1024 } });
    writeFileSync(join(elsewhere, 'piped.json'), request);
    // Through a shell pipe (a FIFO; Node's own stdio pipes are sockets, which are refused as files).
    const piped = spawnSync('sh', ['-c', `cat "${join(elsewhere, 'piped.json')}" | "${process.execPath}" "${MAIN}" run --request /dev/stdin`], { cwd: data, encoding: 'utf8' });
    expect(piped.status, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout).request).toMatchObject({ topology: join(data, 'ring.yaml'), mapping: join(data, 'perm.txt') });
  });

  it('traffic --print-request with a topology file and mapping file runs from another directory', () => {
    const args = ['traffic', '--topology', 'ring.yaml', '--mapping', 'perm.txt', '--pattern', 'uniform', '--rates', '0.1', '--horizon', '500'];
    const printed = runCli([...args, '--print-request'], { cwd: data });
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toMatchObject({ topology: join(data, 'ring.yaml'), mapping: join(data, 'perm.txt') });
    writeFileSync(join(data, 'traffic.json'), printed.stdout);
    const saved = runCli(['traffic', '--request', join(data, 'traffic.json'), '--json'], { cwd: elsewhere });
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toBe(runCli([...args, '--json'], { cwd: data }).stdout);
  });
});
