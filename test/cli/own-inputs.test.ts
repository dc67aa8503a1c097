/**
 * A new user's own inputs through the built CLI (h-user): each case a finding of running the user
 * stories with hand-written files, guided by README.md and docs/.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('own');
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('a disconnected graph of ones own', () => {
  // Two islands {0, 1} and {2, 3}: topo reports the unreachable pairs; timing it is refused naming
  // the topology (it was `route: got "1 -> 3"; accepted: a pair of nodes joined by a path`).
  const disc = file('disc.json', JSON.stringify({ format: 'meshwork-topology', version: 1, nodes: 4, links: [{ src: 0, dst: 1 }, { src: 2, dst: 3 }] }));
  const refused = `meshwork: error: topology: got "file:${disc}"; accepted: a connected network: every rank must reach every other (2 of 4 ranks, rank 2 first, cannot reach rank 0); topo shows the unreachable pairs`;
  it.each([
    ['run', ['run', '--topology', `file:${disc}`, '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB']],
    ['run --engine packet', ['run', '--topology', `file:${disc}`, '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB', '--engine', 'packet']],
    ['compare', ['compare', '--topology', `file:${disc}`, '--collective', 'alltoall', '--size', '1KiB']],
    ['traffic', ['traffic', '--topology', `file:${disc}`, '--pattern', 'uniform', '--rates', '0.05']],
    ['perf', ['perf', '--topology', `file:${disc}`, '-b', '8', '-e', '64']],
  ])('%s refuses it in one line naming the topology', (_name, args) => {
    expect(expectOneLineError(runCli(args))).toBe(refused);
  });

  it('topo still analyses it', () => {
    const r = runCli(['topo', `file:${disc}`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).unreachable_pairs).toBe(8);
  });
});

/** A ring allgather of 8-byte blocks on 4 ranks, written by hand in Meshwork's schedule JSON; `wrongRank` sends its step-1 block again. */
function ringAllgather(wrongRank?: number): string {
  const n = 4;
  const S = 8;
  const regions: number[][][] = [];
  const region = (buffer: number, offset: number): number => {
    const key = JSON.stringify([[buffer, offset, S]]);
    const at = regions.findIndex((r) => JSON.stringify(r) === key);
    if (at >= 0) return at;
    regions.push([[buffer, offset, S]]);
    return regions.length - 1;
  };
  const programs = Array.from({ length: n }, (_, r) => {
    const ops: unknown[] = [['copy', region(0, 0), region(1, r * S)]];
    for (let k = 0; k < n - 1; k++) {
      const sendBlock = r === wrongRank && k === 1 ? r : (r - k + n) % n;
      ops.push(['send', (r + 1) % n, region(1, sendBlock * S), k], ['recv', (r - 1 + n) % n, region(1, ((r - k - 1 + 2 * n) % n) * S), k]);
    }
    return { rank: r, stream: 0, ops };
  });
  return JSON.stringify({
    format: 'meshwork-schedule', version: 1, algorithm: 'my-ring', ranks: n, streams: 1, dtype: 'int32', op: 'sum', inPlace: false,
    parts: [{ collective: 'allgather', ranks: [0, 1, 2, 3], size: S, root: -1, peer: -1 }],
    buffers: [{ name: 'send', bytes: 0 }, { name: 'recv', bytes: 0 }], regions, groups: [], hints: [], programs,
  });
}

describe('compare with ones own schedule', () => {
  const good = file('ring-ag.json', ringAllgather());
  const bad = file('ring-ag-bad.json', ringAllgather(2));
  const base = ['compare', '--topology', 'ring:4', '--collective', 'allgather', '--size', '8'];

  it('times a schedule file in the same table as the registered algorithms, with the same makespan as `run --schedule`', () => {
    const r = runCli([...base, '--schedule', good, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { runs: Array<{ makespan_s: number; workload: { algorithm_spec: string } }> };
    const mine = out.runs.find((x) => x.workload.algorithm_spec === 'my-ring');
    const alone = JSON.parse(runCli(['run', '--topology', 'ring:4', '--schedule', good, '--json']).stdout) as { makespan_s: number };
    expect(mine?.makespan_s).toBe(alone.makespan_s);
    // The same ring as the registered one: the same time.
    expect(mine?.makespan_s).toBe(out.runs.find((x) => x.workload.algorithm_spec === 'ring')?.makespan_s);
  });

  it('lists a schedule that does not verify as failed (exit 3), naming the first wrong rank and bytes', () => {
    const r = runCli([...base, '--schedule', bad]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`failed my-ring: does not verify: 2 output slots wrong, first rank 0 recv[8..15] should hold rank 1 block 0 byte 0 but holds rank 2 block 0 byte 0 (meshwork collective verify --schedule ${bad} shows all)`);
  });

  it('refuses a --collective that is not the schedule file\'s own (run, verify), instead of ignoring it', () => {
    const refused = 'meshwork: error: collective: got "alltoall"; accepted: the schedule file\'s own collective (allgather), or no --collective: --schedule FILE says what it runs';
    expect(expectOneLineError(runCli(['run', '--topology', 'ring:4', '--schedule', good, '--collective', 'alltoall']))).toBe(refused);
    expect(expectOneLineError(runCli(['collective', 'verify', '--schedule', good, '--collective', 'alltoall']))).toBe(refused);
    expect(runCli(['run', '--topology', 'ring:4', '--schedule', good, '--collective', 'allgather']).code).toBe(0);
  });

  it('reads the topology, collective and size a schedule JSON records when they are left out, and names the file in its row', () => {
    const exported = join(dir, 'exported-ring.json');
    expect(runCli(['collective', 'verify', '--topology', 'ring:4', '--collective', 'allgather', '--algorithm', 'ring', '--size', '8', '--out', exported]).code).toBe(0);
    const r = runCli(['compare', '--schedule', exported]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('topology   ring:4 (4 endpoints');
    expect(r.stdout).toContain('collective allgather, size 8 = 8B (8 B)');
    const row = (label: string): string | undefined => r.stdout.split('\n').find((line) => line.startsWith(`${label} `));
    // The file's row is told apart from the registered ring it equals, and times the same.
    expect(row('ring (exported-ring.json)')).toBeDefined();
    expect(row('ring (exported-ring.json)')!.replace('ring (exported-ring.json)', '').trim().split(/\s+/)[0]).toBe(row('ring')!.replace(/^ring/, '').trim().split(/\s+/)[0]);
    // What is given still wins: another size is refused as before.
    expect(expectOneLineError(runCli(['compare', '--schedule', exported, '--size', '16']))).toContain('accepted: a schedule of the compared collective and size (allgather, 16 B); this one is allgather of 8 B');
  });

  it('refuses a schedule of another collective or size in one line', () => {
    expect(expectOneLineError(runCli(['compare', '--topology', 'ring:4', '--collective', 'allgather', '--size', '16', '--schedule', good]))).toBe(
      `meshwork: error: schedule: got "${good}"; accepted: a schedule of the compared collective and size (allgather, 16 B); this one is allgather of 8 B`,
    );
  });
});

describe('packet level on long links with short buffers', () => {
  // ring:4 at 50 GB/s with 500 ns links: 781-cycle channels; 2 VCs × 16 flits cover 32 of the
  // 1,563-cycle credit round trip, so the links move at most 2 % of their bandwidth and the packet
  // run took 23× (46× at 4 MiB) the flow one with nothing said. Now the run says so and what covers it.
  const args = ['run', '--topology', 'ring:4,bw=50GBps,lat=500ns', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '256KiB'];
  const makespan = (extra: string[]): number => (JSON.parse(runCli([...args, ...extra, '--json']).stdout) as { makespan_s: number }).makespan_s;

  it('names the credit limit and the --vc-buf that covers it', () => {
    const r = runCli([...args, '--engine', 'packet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('credit-limited: channels of class ring+, ring- move at most 2 VCs × 16 flits per 1563-cycle credit round trip (2.0 % of their bandwidth); --vc-buf 782 covers it');
    // The limit is the whole difference: 23× the flow time (256 KiB), and within 1 % of it with the buffers named.
    expect(makespan(['--engine', 'packet']) / makespan([])).toBeGreaterThan(20);
    const covered = runCli([...args, '--engine', 'packet', '--vc-buf', '782']);
    expect(covered.stdout).not.toContain('credit-limited');
    expect(Math.abs(makespan(['--engine', 'packet', '--vc-buf', '782']) / makespan([]) - 1)).toBeLessThan(0.01);
  });
});

describe('perf --measured with a hand-written all_reduce_perf table', () => {
  // nccl-tests' own layout: the device lines (one per rank), then size count type redop root and the out-of-place columns.
  const ranks = Array.from({ length: 8 }, (_, r) => `#  Rank  ${r} Group  0 Pid  4123${r} on    node01 device  ${r} [0x18] NVIDIA H100 80GB HBM3`);
  const table = (redop: string): string =>
    [
      '# nThread 1 nGpus 1 minBytes 1024 maxBytes 4194304 step: 64(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0',
      '#',
      '# Using devices',
      ...ranks,
      '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong',
      `        1024           256     float    ${redop}      -1    14.10    0.07    0.13      0    13.90    0.07    0.13      0`,
      `       65536         16384     float    ${redop}      -1    18.90    3.47    6.07      0    18.70    3.50    6.13      0`,
      `     4194304       1048576     float    ${redop}      -1    62.10   67.54  118.20      0    61.80   67.87  118.77      0`,
      '# Avg bus bandwidth    : 41.5',
    ].join('\n');
  const mine = file('my_all_reduce_perf.txt', table('sum'));

  it('compares it row by row on the machine it was measured on', () => {
    const r = runCli(['perf', '--topology', 'hgx-h100', '--algorithm', 'nccl', '--measured', mine, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { rows: Array<{ measured: { size_bytes: number; time_s: number } }> }).rows;
    expect(rows.map((x) => [x.measured.size_bytes, Number((x.measured.time_s * 1e6).toFixed(6))])).toEqual([[1024, 14.1], [65536, 18.9], [4194304, 62.1]]);
  });

  it('refuses a table of another rank count or collective in one line (they were compared without a word)', () => {
    expect(expectOneLineError(runCli(['perf', '--topology', 'hgx-h100:nodes=2', '--measured', mine]))).toBe(
      `meshwork: error: measured: got "a table measured on 8 ranks (its # Rank lines)"; accepted: a table measured on the topology's 16 ranks (or a topology of 8 endpoints)`,
    );
    expect(expectOneLineError(runCli(['perf', '--topology', 'hgx-h100', '--measured', mine, '--collective', 'allgather']))).toBe(
      'meshwork: error: measured: got "a table of a reduction (redop sum)"; accepted: a table of allgather (--collective names what the table measured)',
    );
    const gather = file('my_all_gather_perf.txt', table('none'));
    expect(expectOneLineError(runCli(['perf', '--topology', 'hgx-h100', '--measured', gather]))).toMatch(/^meshwork: error: measured: got "a table of a collective that does not reduce \(redop none/);
    expect(runCli(['perf', '--topology', 'hgx-h100', '--measured', gather, '--collective', 'allgather']).code).toBe(0);
  });
});

describe('packet level on a graph of mixed rates', () => {
  it('says that each channel runs at its own rate, and shows a class of mixed latencies as a range', () => {
    const g = file('mixed.json', JSON.stringify({
      format: 'meshwork-topology', version: 1, defaults: { bw: '100Gbps', lat: '50ns' },
      nodes: [{ kind: 'switch' }, { kind: 'switch' }, { kind: 'terminal' }, { kind: 'terminal' }],
      links: [{ src: 0, dst: 1, bw: '10Gbps', lat: '1us' }, { src: 2, dst: 0, class: 'host' }, { src: 3, dst: 1, class: 'host' }],
    }));
    const r = runCli(['run', '--topology', `file:${g}`, '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB', '--engine', 'packet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('mixed rates: each channel at its own rate; a cycle is one flit on the fastest channel (100 Gbps), the slowest (10 Gbps) takes 10 cycles per flit');
    // 1 µs and 50 ns at 2.56 ns cycles (a 32-byte flit at 100 Gbps): the one link of class `link` is 391 cycles, the host links 20.
    expect(r.stdout).toMatch(/channel latency=link=391 host=20 cycles/);
  });
});
