/**
 * One meaning of a named library algorithm (issue 25's library timing keyed by collective and
 * algorithm): a workload of one collective runs it as `meshwork run` does, the library's latency
 * and protocol efficiency through the same `libraryTiming` (sim/library.ts), whether the algorithm
 * is named with its parameters or picked by the library. Neither run sets α: a library
 * collective's messages are marked in the program (`opLibrary`) and both engines give them
 * `libraryAlpha` (0 unless α is set: the library's latency replaces it), while plain messages of
 * the same workload keep the default α of 1 µs.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { runWorkload } from '../../src/workload/run.js';
import { runCollectiveFlow, simulateCollective } from '../../src/sim/simulate.js';
import type { ChakraNodeInit } from '../../src/workload/chakra/write.js';
import { traceOf } from './chakra-helpers.js';
import { runCli } from '../helpers/cli.js';
import { parseAlgorithms } from '../../src/cli/commands/workload.js';

type Coll = 'allreduce' | 'allgather' | 'reduce-scatter';
const one = (collective: Coll, bytes: number, ranks: number) =>
  traceOf(Array(ranks).fill([{ id: 1, name: collective, kind: 'coll', collective, commSize: bytes } satisfies ChakraNodeInit]));

// The workload scales a message's bytes (bytes / efficiency, rounded up to a whole byte) where
// the run scales the link rates: the two agree to the rounding, a few parts per million.
const relative = (a: number, b: number): number => Math.abs(a - b) / b;

const cases: Array<{ topology: string; collective: Coll; algorithm: string; bytes: number }> = [
  { topology: 'ring:8', collective: 'allreduce', algorithm: 'nccl-ring:channels=2,proto=LL128', bytes: 1 << 20 },
  { topology: 'ring:8', collective: 'allreduce', algorithm: 'nccl-ring:channels=1,proto=LL', bytes: 64 << 10 },
  { topology: 'hgx-h100', collective: 'allreduce', algorithm: 'nvls', bytes: 4 << 20 },
  { topology: 'hgx-h100', collective: 'allgather', algorithm: 'nccl-ring:channels=4,proto=Simple', bytes: 1 << 20 },
  { topology: 'mi300x', collective: 'allreduce', algorithm: 'direct:mode=oneshot,proto=LL', bytes: 64 << 10 },
];

describe('a workload of one collective equals meshwork run of it', () => {
  for (const c of cases) {
    it(`${c.collective} ${c.algorithm} on ${c.topology}, ${c.bytes} B`, () => {
      const topology = buildTopology(c.topology);
      const P = topology.numEndpoints;
      // Chakra's allgather comm_size is one rank's contribution, Meshwork's size too (lower.ts meshworkSize).
      const w = runWorkload({ topology, trace: one(c.collective, c.bytes, P), algorithms: { [c.collective]: c.algorithm } });
      const r = runCollectiveFlow({ topology, collective: c.collective, algorithm: c.algorithm, size: c.bytes });
      expect(r.model.library).toBeDefined();
      expect(relative(w.report.step_time_s, r.makespan_s)).toBeLessThan(1e-5);
    });
  }

  it('the library pick (nccl) too: the workload default equals meshwork run --algorithm nccl', () => {
    const topology = buildTopology('hgx-h100');
    const w = runWorkload({ topology, trace: one('allreduce', 8 << 20, 8) });
    const r = runCollectiveFlow({ topology, collective: 'allreduce', algorithm: 'nccl', size: 8 << 20 });
    // 8 MiB on one HGX node: NCCL's model picks the in-switch reduction, in both.
    expect(w.report.collectives[0].algorithm).toMatch(/^nvls:.*\(nccl pick\)$/);
    expect((r.model.library as { algorithm: string; pickedBy: string }).algorithm).toBe('nvls');
    expect(relative(w.report.step_time_s, r.makespan_s)).toBeLessThan(1e-6);
  });

  it('at packet level too: the pick (Simple at 1 MiB on ring:8, no byte scaling) gives the same cycle count as meshwork run of the picked schedule', () => {
    const topology = buildTopology('ring:8');
    const picked = runWorkload({ topology, trace: one('allreduce', 1 << 20, 8), engine: 'packet' });
    expect(picked.report.collectives[0].algorithm).toMatch(/^nccl-ring:channels=1,proto=Simple.*\(nccl pick\)$/);
    // The workload's pick on a topology without nodes has one channel (docs/workloads.md); run names it.
    const run = simulateCollective({ topology, collective: 'allreduce', algorithm: 'nccl-ring:channels=1,proto=Simple', size: 1 << 20 }, { engine: 'packet' });
    expect(run.model.library).toMatchObject({ algorithm: 'nccl-ring', protocol: 'Simple' });
    expect(picked.report.step_time_s).toBe(run.makespan_s);
  });

  it('LL128 at packet level: bytes / efficiency on the wire against scaled link rates, within 0.1 %', () => {
    const topology = buildTopology('ring:8');
    const algorithm = 'nccl-ring:channels=2,proto=LL128';
    const w = runWorkload({ topology, trace: one('allreduce', 1 << 20, 8), algorithms: { allreduce: algorithm }, engine: 'packet' });
    const r = simulateCollective({ topology, collective: 'allreduce', algorithm, size: 1 << 20 }, { engine: 'packet' });
    // Measured 3.8e-4: the run's links are slower in whole flits per cycle, the workload's messages longer.
    expect(relative(w.report.step_time_s, r.makespan_s)).toBeLessThan(1e-3);
  });

  it('an α set applies to library messages in both; plain collectives keep the default α of 1 µs', () => {
    const topology = buildTopology('ring:8');
    const algorithm = 'nccl-ring:channels=1,proto=Simple';
    const set = runWorkload({ topology, trace: one('allreduce', 1 << 20, 8), algorithms: { allreduce: algorithm }, model: { alpha: 2e-6 } });
    const setRun = runCollectiveFlow({ topology, collective: 'allreduce', algorithm, size: 1 << 20, model: { alpha: 2e-6 } });
    expect(set.report.step_time_s).toBe(setRun.makespan_s);
    const unset = runCollectiveFlow({ topology, collective: 'allreduce', algorithm, size: 1 << 20 });
    // 14 sequential ring steps (2(P − 1)), each paying the 2 µs α the unset run does not.
    expect(setRun.makespan_s - unset.makespan_s).toBeCloseTo(14 * 2e-6, 12);
    expect(unset.model).toMatchObject({ alpha: 1e-6, libraryAlpha: 0 });
    expect(setRun.model).toMatchObject({ alpha: 2e-6, libraryAlpha: 2e-6 });
    // The plain ring in a workload: 14 steps of α + 128 KiB at 25 GB/s... as meshwork run of it, α = 1 µs.
    const plain = runWorkload({ topology, trace: one('allreduce', 1 << 20, 8), algorithms: { allreduce: 'ring' } });
    const plainRun = runCollectiveFlow({ topology, collective: 'allreduce', algorithm: 'ring', size: 1 << 20 });
    expect(plain.report.step_time_s).toBe(plainRun.makespan_s);
    const link = topology.chBandwidth[0];
    const lat = topology.chLatency[0];
    expect(plainRun.makespan_s).toBeCloseTo(14 * (1e-6 + (1 << 17) / link + lat), 12);
  });

  it('one workload of a library and a plain collective: each keeps its own α', () => {
    const topology = buildTopology('ring:8');
    const both = traceOf(
      Array(8).fill([
        { id: 1, name: 'allreduce', kind: 'coll', collective: 'allreduce', commSize: 1 << 20 },
        { id: 2, name: 'allgather', kind: 'coll', collective: 'allgather', commSize: 1 << 17, dataDeps: [1] },
      ] satisfies ChakraNodeInit[]),
    );
    const w = runWorkload({ topology, trace: both, algorithms: { allreduce: 'nccl-ring:channels=1,proto=Simple', allgather: 'ring' } });
    const library = runCollectiveFlow({ topology, collective: 'allreduce', algorithm: 'nccl-ring:channels=1,proto=Simple', size: 1 << 20 });
    const plain = runCollectiveFlow({ topology, collective: 'allgather', algorithm: 'ring', size: 1 << 17 });
    expect(w.report.step_time_s).toBeCloseTo(library.makespan_s + plain.makespan_s, 12);
  });

  it('--barriers keeps the library latency and α (the bracketed program carries both columns)', () => {
    const topology = buildTopology('ring:8');
    const algorithm = 'nccl-ring:channels=1,proto=Simple';
    const alone = runCollectiveFlow({ topology, collective: 'allreduce', algorithm, size: 1 << 20 });
    const bracketed = simulateCollective({ topology, collective: 'allreduce', algorithm, size: 1 << 20 }, { barriers: true });
    // The collective between the barriers, latency included, then the second barrier (zero-byte messages, α = 1 µs each way).
    const latency = (alone.model.library as { latency_s: number }).latency_s;
    expect(bracketed.program.opDelay).not.toBeNull();
    expect(bracketed.makespan_s).toBeGreaterThan(alone.makespan_s);
    expect(bracketed.makespan_s - alone.makespan_s).toBeLessThan(latency);
  });

  it("the CLI: workload run --algorithm allreduce=nccl-ring:channels=2,proto=LL128 on ASTRA-sim's 8-NPU 1 MiB trace times as meshwork run of it", () => {
    // An algorithm's own parameters stay with it; a comma before a collective's name starts the next item.
    expect(parseAlgorithms('allreduce=nccl-ring:channels=2,proto=LL128,alltoall=bruck')).toEqual({ allreduce: 'nccl-ring:channels=2,proto=LL128', alltoall: 'bruck' });
    const trace = fileURLToPath(new URL('../../../shared/reference/chakra/astra-sim/et_microbenchmarks/all_reduce/8npus_1MB', import.meta.url));
    const w = runCli(['workload', 'run', '--trace', trace, '--topology', 'ring:8', '--algorithm', 'allreduce=nccl-ring:channels=2,proto=LL128', '--json']);
    expect(w.code, w.stderr).toBe(0);
    const r = runCli(['run', '--topology', 'ring:8', '--collective', 'allreduce', '--algorithm', 'nccl-ring:channels=2,proto=LL128', '--size', '1MiB', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const step = (JSON.parse(w.stdout) as { report: { step_time_s: number } }).report.step_time_s;
    expect(relative(step, (JSON.parse(r.stdout) as { makespan_s: number }).makespan_s)).toBeLessThan(1e-5);
  });
});
