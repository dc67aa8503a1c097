/**
 * One meaning of a named library algorithm (issue 25's library timing keyed by collective and
 * algorithm): a workload of one collective runs it as `meshwork run` does, the library's latency
 * and protocol efficiency through the same `libraryTiming` (sim/library.ts), whether the algorithm
 * is named with its parameters or picked by the library. Both runs take α = 0, as `meshwork run`
 * does for a library schedule (a workload's α applies to every message of the step).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { runWorkload } from '../../src/workload/run.js';
import { runCollectiveFlow } from '../../src/sim/simulate.js';
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
      const w = runWorkload({ topology, trace: one(c.collective, c.bytes, P), algorithms: { [c.collective]: c.algorithm }, model: { alpha: 0 } });
      const r = runCollectiveFlow({ topology, collective: c.collective, algorithm: c.algorithm, size: c.bytes });
      expect(r.model.library).toBeDefined();
      expect(relative(w.report.step_time_s, r.makespan_s)).toBeLessThan(1e-5);
    });
  }

  it('the library pick (nccl) too: the workload default equals meshwork run --algorithm nccl', () => {
    const topology = buildTopology('hgx-h100');
    const w = runWorkload({ topology, trace: one('allreduce', 8 << 20, 8), model: { alpha: 0 } });
    const r = runCollectiveFlow({ topology, collective: 'allreduce', algorithm: 'nccl', size: 8 << 20 });
    // 8 MiB on one HGX node: NCCL's model picks the in-switch reduction, in both.
    expect(w.report.collectives[0].algorithm).toMatch(/^nvls:.*\(nccl pick\)$/);
    expect((r.model.library as { algorithm: string; pickedBy: string }).algorithm).toBe('nvls');
    expect(relative(w.report.step_time_s, r.makespan_s)).toBeLessThan(1e-6);
  });

  it("the CLI: workload run --algorithm allreduce=nccl-ring:channels=2,proto=LL128 on ASTRA-sim's 8-NPU 1 MiB trace times as meshwork run of it", () => {
    // An algorithm's own parameters stay with it; a comma before a collective's name starts the next item.
    expect(parseAlgorithms('allreduce=nccl-ring:channels=2,proto=LL128,alltoall=bruck')).toEqual({ allreduce: 'nccl-ring:channels=2,proto=LL128', alltoall: 'bruck' });
    const trace = fileURLToPath(new URL('../../../shared/reference/chakra/astra-sim/et_microbenchmarks/all_reduce/8npus_1MB', import.meta.url));
    const w = runCli(['workload', 'run', '--trace', trace, '--topology', 'ring:8', '--algorithm', 'allreduce=nccl-ring:channels=2,proto=LL128', '--alpha', '0', '--json']);
    expect(w.code, w.stderr).toBe(0);
    const r = runCli(['run', '--topology', 'ring:8', '--collective', 'allreduce', '--algorithm', 'nccl-ring:channels=2,proto=LL128', '--size', '1MiB', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const step = (JSON.parse(w.stdout) as { report: { step_time_s: number } }).report.step_time_s;
    expect(relative(step, (JSON.parse(r.stdout) as { makespan_s: number }).makespan_s)).toBeLessThan(1e-5);
  });
});
