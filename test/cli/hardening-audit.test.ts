/**
 * h-input's bad-input audit (issue: adversarial input over every command and file format). Each case
 * failed before its fix: a crash (exit 1 "internal error"), a hang filling memory, or a refusal of a
 * file another editor writes validly (a UTF-8 byte-order mark).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const BOM = '\uFEFF';

function scratch(): string {
  return tempDir('audit');
}

describe('files with a UTF-8 byte-order mark are read as without it', () => {
  it('a JSON graph file (was: "Unexpected token" refusal)', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'g.json'), `${BOM}{"format":"meshwork-topology","version":1,"nodes":3,"links":[{"src":0,"dst":1},{"src":1,"dst":2}]}\r\n`);
    const r = runCli(['topo', 'file:g.json', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).diameter).toBe(2);
  });

  it('a saved RunRequest', () => {
    const dir = scratch();
    const request = runCli(['run', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB', '--print-request']);
    expect(request.code).toBe(0);
    writeFileSync(join(dir, 'r.json'), BOM + request.stdout.replace(/\n/g, '\r\n'));
    const withBom = runCli(['run', '--request', 'r.json'], { cwd: dir });
    writeFileSync(join(dir, 'r.json'), request.stdout);
    const without = runCli(['run', '--request', 'r.json'], { cwd: dir });
    expect(withBom.code, withBom.stderr).toBe(0);
    expect(withBom.stdout).toBe(without.stdout);
  });

  it('a measured nccl-tests CSV (its header was not found behind the mark)', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'm.csv'), `${BOM}size_B,oop_time_us,oop_busbw_GBps\r\n1048576,50.0,20.0\r\n`);
    const r = runCli(['perf', '--topology', 'ring:4', '--measured', 'm.csv', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1048576');
  });
});

describe('inputs too large to read are refused in one line, naming the limit', () => {
  it('perf --measured /dev/zero (was: read without end until std::bad_alloc)', () => {
    const line = expectOneLineError(runCli(['perf', '--topology', 'ring:4', '--measured', '/dev/zero'], { timeoutMs: 60_000 }));
    expect(line).toMatch(/^meshwork: error: measured: got "\/dev\/zero"; accepted: a file of at most \d+ bytes$/);
  });

  it('sweep status --sweep /dev/zero (the same)', () => {
    const dir = scratch();
    const line = expectOneLineError(runCli(['sweep', 'status', '--sweep', '/dev/zero', '--store', 'r.duckdb'], { cwd: dir, timeoutMs: 60_000 }));
    expect(line).toMatch(/sweep: got "\/dev\/zero"; accepted: a file of at most \d+ bytes/);
  });

  it('a pipe is still read (cat m.csv | meshwork perf --measured /dev/stdin)', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'm.csv'), 'size_B,oop_time_us,oop_busbw_GBps\n1048576,50.0,20.0\n');
    const main = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
    const stdout = execFileSync('sh', ['-c', `cat m.csv | "${process.execPath}" "${main}" perf --topology ring:4 --measured /dev/stdin --json`], { cwd: dir, encoding: 'utf8' });
    expect(stdout).toContain('1048576');
  });

  it('an anynet router id of 10^20 (was: internal error "Invalid typed array length")', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'a.anynet'), 'router 0 node 0 router 99999999999999999999\nrouter 1 node 1 router 0\n');
    const line = expectOneLineError(runCli(['topo', 'anynet:a.anynet'], { cwd: dir }));
    expect(line).toContain('accepted: at most 16777216 nodes (2^24)');
  });

  it('an anynet router id just past 2^24 is refused before the routers are allocated', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'a.anynet'), 'router 0 node 0 router 16777300\n');
    const line = expectOneLineError(runCli(['topo', 'anynet:a.anynet'], { cwd: dir }));
    expect(line).toBe('meshwork: error: topology(a.anynet).routers: got "16777302 nodes"; accepted: at most 16777216 nodes (2^24)');
  });
});

describe('option values the library would read as "not given" or as another base', () => {
  const run = ['run', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB'];

  it.each([
    ['--alpha', ''],
    ['--injection', ' '],
    ['--protocol', ''],
    ['--eager-threshold', ''],
  ])('run %s %j is refused (was: the default, silently)', (flag, value) => {
    const line = expectOneLineError(runCli([...run, flag, value]));
    expect(line).toBe(`meshwork: error: ${flag.slice(2)}: got ${JSON.stringify(value)}; accepted: a non-blank value`);
  });

  it('traffic --vcs " " and compare --include "" are refused the same way', () => {
    expect(expectOneLineError(runCli(['traffic', '--topology', 'ring:4', '--pattern', 'uniform', '--rates', '0.1', '--horizon', '100', '--vcs', ' ']))).toContain('vcs: got " "');
    expect(expectOneLineError(runCli(['compare', '--topology', 'ring:4', '--collective', 'allreduce', '--size', '1KiB', '--include', '']))).toContain('include: got ""');
  });

  it('run --nics 0x10 is refused (was: 16 NICs)', () => {
    expect(expectOneLineError(runCli([...run, '--nics', '0x10']))).toBe('meshwork: error: nics: got "0x10"; accepted: an integer from 1 to 64');
  });

  it('decimal and exponent forms still parse', () => {
    const r = runCli([...run, '--nics', '2', '--simultaneity', '1e-12', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).request.model).toMatchObject({ nics: 2, simultaneity: 1e-12 });
  });

  it.each([
    [['perf', '--topology', 'ring:4', '-e', '64', '-f', '0x10'], 'stepfactor: got "0x10"'],
    [['traffic', '--topology', 'ring:4', '--pattern', 'uniform', '--rates', '0x1', '--horizon', '100'], 'rates: got "0x1"'],
    [['traffic', '--topology', 'ring:4', '--pattern', 'uniform', '--rates', '0:0x1:0.5', '--horizon', '100'], 'rates: got "0:0x1:0.5"'],
  ])('%j: hexadecimal refused where Number() read it', (args, message) => {
    expect(expectOneLineError(runCli(args))).toContain(message);
  });

  it('workload run --links 0x10 is refused (was: 16 links)', () => {
    const dir = scratch();
    expect(runCli(['workload', 'generate', '--out', 'et', '--tp', '2', '--layers', '1'], { cwd: dir }).code).toBe(0);
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', 'et', '--topology', 'ring:4', '--links', '0x10'], { cwd: dir }))).toContain('links: got "0x10"');
  });
});

describe('sweep run refusing its store', () => {
  it('exits 2 with one line every time (was: a V8 abort, exit 134, in about 1 run of 6)', () => {
    // The pool's threads start loading as soon as the file names its kind; the store is refused
    // while they load. Before the fix, destroying them mid-load aborted the process at random:
    // ten runs caught it with probability about 0.85.
    const dir = scratch();
    writeFileSync(join(dir, 's.yaml'), 'kind: traffic\nname: s\nfixed:\n  pattern: uniform\n  horizon: 100\n  rates: 0.1\naxes:\n  topology: [ring:4]\n');
    for (let i = 0; i < 10; i++) {
      const line = expectOneLineError(runCli(['sweep', 'run', 's.yaml', '--store', '/proc/self/none', '--log', 'none'], { cwd: dir }));
      expect(line).toContain('store: got "/proc/self/none"');
    }
  }, 120_000);
});

describe('--schedule-format without --schedule', () => {
  it.each([
    [['collective', 'verify', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '64', '--schedule-format', 'abc'], 'schedule-format: got "abc"; accepted: json, msccl-xml'],
    [['collective', 'show', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '64', '--rank', '0', '--schedule-format', 'json'], 'schedule-format: got "json"; accepted: only with --schedule'],
    [['run', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '64', '--schedule-format', 'msccl-xml'], 'schedule-format: got "msccl-xml"; accepted: only with --schedule'],
  ])('%j is refused (was: accepted and ignored; collective took any value)', (args, message) => {
    expect(expectOneLineError(runCli(args))).toContain(message);
  });
});

describe('options that would be ignored are refused', () => {
  function savedRequest(dir: string, args: string[]): string {
    const r = runCli([...args, '--print-request']);
    expect(r.code, r.stderr).toBe(0);
    writeFileSync(join(dir, 'r.json'), r.stdout);
    return 'r.json';
  }

  it('run --request r.json --size 128 (was: the file\'s size, silently)', () => {
    const dir = scratch();
    savedRequest(dir, ['run', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '64']);
    const line = expectOneLineError(runCli(['run', '--request', 'r.json', '--size', '128'], { cwd: dir }));
    expect(line).toBe('meshwork: error: size: got "128"; accepted: nothing beside --request (the file holds the whole run; only --json, --trace, --print-request are read beside it)');
    expect(runCli(['run', '--request', 'r.json', '--json'], { cwd: dir }).code).toBe(0);
  });

  it('traffic --request r.json --vcs 4 (was: the file\'s VCs, silently); --csv is still read', () => {
    const dir = scratch();
    savedRequest(dir, ['traffic', '--topology', 'ring:4', '--pattern', 'uniform', '--rates', '0.1', '--horizon', '100']);
    expect(expectOneLineError(runCli(['traffic', '--request', 'r.json', '--vcs', '4'], { cwd: dir }))).toContain('vcs: got "4"; accepted: nothing beside --request');
    const r = runCli(['traffic', '--request', 'r.json', '--csv', 'c.csv'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
  });

  it('perf --json --csv (was: JSON only, silently)', () => {
    expect(expectOneLineError(runCli(['perf', '--topology', 'ring:4', '-e', '64', '--json', '--csv']))).toBe("meshwork: error: option '--csv' cannot be used with option '--json'");
  });

  it('collective verify --schedule with --algorithm or --collective (was: the file\'s, silently)', () => {
    const dir = scratch();
    expect(runCli(['collective', 'export', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '64', '--format', 'msccl-xml', '--out', 's.xml'], { cwd: dir }).code).toBe(0);
    expect(expectOneLineError(runCli(['collective', 'verify', '--schedule', 's.xml', '--size', '64', '--algorithm', 'pairwise'], { cwd: dir }))).toContain('accepted: either --schedule or --algorithm, not both');
    // Another collective than the file's is refused; its own is accepted (test/cli/own-inputs.test.ts).
    expect(expectOneLineError(runCli(['collective', 'verify', '--schedule', 's.xml', '--size', '64', '--collective', 'allgather'], { cwd: dir }))).toContain("collective: got \"allgather\"; accepted: the schedule file's own collective (allreduce)");
    expect(runCli(['collective', 'verify', '--schedule', 's.xml', '--size', '64', '--collective', 'allreduce'], { cwd: dir }).code).toBe(0);
    expect(runCli(['collective', 'verify', '--schedule', 's.xml', '--size', '64'], { cwd: dir }).code).toBe(0);
  });
});

describe('workload generate: a trace too large to hold is refused from its parameters', () => {
  it('--layers 100000000 is refused at once (was: minutes of work, then out of memory)', () => {
    const dir = scratch();
    const line = expectOneLineError(runCli(['workload', 'generate', '--out', 'o', '--tp', '2', '--layers', '100000000'], { cwd: dir, timeoutMs: 30_000 }));
    expect(line).toBe('meshwork: error: layers: got "100000000 layers × 1 microbatches on 2 ranks: about 1800000012 trace nodes"; accepted: at most 4194304 trace nodes (2^22; a generated trace is held in memory)');
    expect(readdirSync(dir)).toEqual([]);
    // Named by the factor that outgrows the other: --microbatches here (it named layers).
    const many = expectOneLineError(runCli(['workload', 'generate', '--out', 'o', '--tp', '2', '--microbatches', '2147483647'], { cwd: dir, timeoutMs: 30_000 }));
    expect(many).toMatch(/^meshwork: error: microbatches: got "4 layers × 2147483647 microbatches on 2 ranks: about \d+ trace nodes"; accepted: at most 4194304 trace nodes/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the bound counts no fewer nodes than are made (pp, experts and microbatches)', async () => {
    const { generateTransformer } = await import('../../src/workload/generate.js');
    for (const o of [{ tp: 2, pp: 2, dp: 4, ep: 2, layers: 4, microbatches: 3 }, { tp: 1, pp: 1, dp: 1, layers: 2 }, { tp: 2, pp: 4, dp: 2, layers: 8, microbatches: 2 }]) {
      const g = generateTransformer(o);
      const m = o.microbatches ?? 1;
      const perStage = o.layers / o.pp;
      const bound = 2 + 4 * m + 2 * m * perStage * ((o.ep ?? 1) > 1 ? 6 : 4) + perStage;
      for (const nodes of g.ranks) expect(nodes.length).toBeLessThanOrEqual(bound);
      // With tensor parallelism (its allreduces counted) and a middle pipeline stage, reached exactly.
      if (o.tp > 1 && o.pp > 2) expect(Math.max(...g.ranks.map((n) => n.length))).toBe(bound);
    }
  });
});

describe('sweep run --queue with no Redis there', () => {
  it('is refused in one line and leaves no store (was: connection errors with stacks, for ever)', () => {
    const dir = scratch();
    writeFileSync(join(dir, 's.yaml'), 'kind: traffic\nname: s\nfixed:\n  pattern: uniform\n  horizon: 100\n  rates: 0.1\naxes:\n  topology: [ring:4]\n');
    // Port 1 (tcpmux) has no listener on a test machine: the connection is refused at once.
    const line = expectOneLineError(runCli(['sweep', 'run', 's.yaml', '--queue', 'redis://127.0.0.1:1', '--store', 'q.duckdb', '--log', 'none'], { cwd: dir, timeoutMs: 60_000 }));
    expect(line).toBe('meshwork: error: queue: got "redis://127.0.0.1:1"; accepted: a reachable Redis server (connect ECONNREFUSED 127.0.0.1:1)');
    expect(readdirSync(dir)).toEqual(['s.yaml']);
  });

  it('sweep worker is refused the same way at start (was: the error line, then running for ever)', () => {
    const line = expectOneLineError(runCli(['sweep', 'worker', '--queue', 'redis://127.0.0.1:1', '--log', 'none'], { timeoutMs: 60_000 }));
    expect(line).toBe('meshwork: error: queue: got "redis://127.0.0.1:1"; accepted: a reachable Redis server (connect ECONNREFUSED 127.0.0.1:1)');
  });
});

describe('load points are capped however they are written', () => {
  const many = Array.from({ length: 1001 }, () => '0.1').join(',');

  it('traffic --rates with 1,001 listed rates (the range form was capped, the list was not)', () => {
    expect(expectOneLineError(runCli(['traffic', '--topology', 'ring:4', '--pattern', 'uniform', '--horizon', '100', '--rates', many]))).toBe('meshwork: error: rates: got "1001 rates"; accepted: at most 1000 load points');
  });

  it('a saved traffic request with 1,001 rates', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'r.json'), JSON.stringify({ topology: 'ring:4', engine: 'packet', workload: { kind: 'traffic', pattern: 'uniform', rates: many.split(',').map(Number), measurement: 'horizon', horizon: 100 } }));
    expect(expectOneLineError(runCli(['traffic', '--request', 'r.json'], { cwd: dir }))).toContain('request.workload.rates: got [0.1,');
  });
});

describe('a --mapping that is neither a named order nor a file', () => {
  it('names the orders (was: "a readable file (ENOENT ...)" only)', () => {
    expect(expectOneLineError(runCli(['topo', 'ring:4', '--mapping', 'sideways']))).toBe('meshwork: error: mapping: got "sideways"; accepted: identity, reverse, snake, random:seed=N, or a permutation file (no file of this name)');
  });
});

describe('temporary siblings left by Ctrl-C are swept by the next write', () => {
  it('.t.json.PID.tmp of a dead process goes; a live one and another target\'s stay (they piled up before)', () => {
    const dir = scratch();
    const dead = spawnSync('true').pid!; // has exited by now
    writeFileSync(join(dir, `.t.json.${dead}.tmp`), 'half');
    writeFileSync(join(dir, `.t.json.${process.pid}.tmp`), 'being written');
    writeFileSync(join(dir, `.u.json.${dead}.tmp`), 'another target');
    const r = runCli(['export', 'torus:2x2', '--out', 't.json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([`.t.json.${process.pid}.tmp`, `.u.json.${dead}.tmp`, 't.json'].sort());
  });
});

describe('--sizes that is neither a generator nor a readable file names the generators', () => {
  it('a misspelt generator (was: only "a readable file (ENOENT ...)")', () => {
    const line = expectOneLineError(runCli(['run', '--topology', 'ring:4', '--collective', 'alltoallv', '--algorithm', 'pairwise', '--sizes', 'unifrom:size=1KiB'], { cwd: scratch() }));
    expect(line).toMatch(/^meshwork: error: sizes: got "unifrom:size=1KiB"; accepted: a generator \(uniform:size=B, random:max=B\[,min=0,seed=1\], diagonal:size=B\[,far=0\]\) or a file of n x n byte counts \(a readable file \(ENOENT/);
  });
});
