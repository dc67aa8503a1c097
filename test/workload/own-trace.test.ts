/**
 * docs/workloads.md, "A trace of your own": ASTRA-sim's 4-NPU all_reduce microbenchmark changed as
 * a user would change it with the library's reader and writer (another size, a compute node before
 * it as an extra dependency, an allgather on two communicators from a --comm-groups file), then
 * timed through the built CLI as the page shows. Numbers: the page's, by hand below.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeChakraRank, encodeChakraRank, type ChakraNodeInit } from '../../src/index.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const ref = new URL('../../../shared/reference/chakra/astra-sim/et_microbenchmarks/all_reduce/4npus_1MB/', import.meta.url);

function writeTrace(dir: string, pgName: (rank: number) => string): void {
  mkdirSync(join(dir, 'mytrace'), { recursive: true });
  for (let rank = 0; rank < 4; rank++) {
    const [allreduce] = decodeChakraRank(readFileSync(new URL(`all_reduce.${rank}.et`, ref)), `all_reduce.${rank}.et`, rank).nodes;
    const nodes: ChakraNodeInit[] = [
      { id: 100, name: 'fwd', kind: 'comp', durationMicros: 50 + 10 * rank },
      { ...allreduce, commSize: 4 * 1024 * 1024, dataDeps: [100] },
      { id: 101, name: 'ag', kind: 'coll', collective: 'allgather', commSize: 1 << 20, pgName: pgName(rank), dataDeps: [allreduce.id] },
    ];
    writeFileSync(join(dir, 'mytrace', `my.${rank}.et`), encodeChakraRank(nodes));
  }
  writeFileSync(join(dir, 'groups.json'), JSON.stringify({ 1: [0, 1], 2: [2, 3] }));
}

interface Report {
  step_time_s: number;
  critical_path: Array<{ rank: number; node: number; name: string; end_s: number }>;
  collectives: Array<{ group: string; ranks: number }>;
}

describe('a trace of ones own (docs/workloads.md)', () => {
  const dir = tempDir('trace');
  writeTrace(dir, (rank) => (rank < 2 ? '1' : '2'));
  const args = ['workload', 'run', '--trace', join(dir, 'mytrace'), '--topology', 'ring:4,bw=50GBps,lat=500ns', '--comm-groups', join(dir, 'groups.json'), '--json'];

  it('runs it: the extra dependency holds the allreduce for rank 3 and the allgathers run on their two groups', () => {
    const r = runCli(args);
    expect(r.code, r.stderr).toBe(0);
    const report = (JSON.parse(r.stdout) as { report: Report }).report;
    // The critical path starts with rank 3's 80 µs of compute, the latest, then the allreduce, then an allgather.
    expect(report.critical_path.map((c) => [c.rank, c.node])[0]).toEqual([3, 100]);
    expect(report.critical_path[0].end_s).toBeCloseTo(80e-6, 12);
    expect(report.critical_path.map((c) => c.name)).toEqual(['fwd', 'all_reduce_4npus_1MB', 'ag']);
    expect(report.collectives.map((c) => [c.group, c.ranks]).sort()).toEqual([['1', 2], ['2', 2], ['world', 4]]);
    // The page's step time, and byte-identical output on a second run.
    expect(report.step_time_s * 1e6).toBeCloseTo(270.9, 1);
    expect(runCli(args).stdout).toBe(r.stdout);
  });

  it('refuses a pg_name the group file does not define, naming the file, node and field', () => {
    const bad = tempDir('trace-bad');
    writeTrace(bad, (rank) => (rank < 2 ? '1' : '3'));
    const line = expectOneLineError(runCli(['workload', 'run', '--trace', join(bad, 'mytrace'), '--topology', 'ring:4', '--comm-groups', join(bad, 'groups.json')]));
    expect(line).toMatch(/my\.2\.et: node 101: pg_name/);
  });
});
