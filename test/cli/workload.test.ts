import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const ALL_REDUCE_8 = '../shared/reference/chakra/astra-sim/et_microbenchmarks/all_reduce/8npus_1MB';
const json = (args: string[]) => {
  const r = runCli([...args, '--json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { result: { makespan_s: number; engine: string }; report: { step_time_s: number; ranks: unknown[]; collectives: Array<{ busbw_bytes_per_s: number }>; links: unknown[] } };
};

describe('meshwork workload', () => {
  it('run: ASTRA-sim all_reduce 8 NPUs on a ring prints the step, ranks, collectives, critical path and links', () => {
    const r = runCli(['workload', 'run', '--trace', ALL_REDUCE_8, '--topology', 'ring:8,bw=50GiBps,lat=500ns', '--alpha', '10ns', '--algorithm', 'allreduce=ring']);
    expect(r.code).toBe(0);
    // 14 steps of 10 ns + 131,072 B / 50 GiB/s + 500 ns (test/workload/astra-reference.test.ts).
    expect(r.stdout).toContain('step time: 41.32us');
    for (const label of ['per rank', 'collectives', 'critical path', 'busiest links', 'exposed comm.']) expect(r.stdout).toContain(label);
    // By default the allreduce is NCCL's pick, named in the collectives table.
    const picked = runCli(['workload', 'run', '--trace', ALL_REDUCE_8, '--topology', 'ring:8,bw=50GiBps,lat=500ns']);
    // NCCL's model (2.30.7) on one 8-accelerator node at 1 MiB: ring LL, 15 µs + 1 MiB at 8/14 of half the 107 GB/s bus
    // (49 µs), ahead of ring LL128 (59 µs) and the tree with LL128 (77 µs, its bandwidth × NCCL's tree correction 0.6).
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toContain('nccl-ring:channels=1,proto=LL,machine=generic (nccl pick)');
  });

  it('run --json: the result and the report; --engine packet times the same trace', () => {
    const flow = json(['workload', 'run', '--trace', ALL_REDUCE_8, '--topology', 'fullmesh:8']);
    expect(flow.report.step_time_s).toBe(flow.result.makespan_s);
    expect(flow.report.ranks).toHaveLength(8);
    expect(flow.report.collectives[0].busbw_bytes_per_s).toBeGreaterThan(0);
    const packet = json(['workload', 'run', '--trace', ALL_REDUCE_8, '--topology', 'fullmesh:8', '--engine', 'packet']);
    expect(packet.result.engine).toBe('packet');
    expect(packet.report.step_time_s).toBeGreaterThan(0);
  });

  it('export then run: the exported ring allreduce times as meshwork run does', () => {
    const out = join(tempDir('export'), 'ring');
    const e = runCli(['workload', 'export', '--topology', 'ring:8', '--algorithm', 'ring', '--size', '1MiB', '--out', out]);
    expect(e.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(Array.from({ length: 8 }, (_, r) => `meshwork.${r}.et`).sort());
    const run = runCli(['run', '--topology', 'ring:8', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1MiB', '--json']);
    const direct = JSON.parse(run.stdout) as { makespan_s: number };
    expect(json(['workload', 'run', '--trace', out, '--topology', 'ring:8']).report.step_time_s).toBeCloseTo(direct.makespan_s, 12);
    // Writing again over the same files is refused, naming one of them.
    expect(expectOneLineError(runCli(['workload', 'export', '--topology', 'ring:8', '--algorithm', 'ring', '--size', '1MiB', '--out', out]))).toContain('meshwork.');
  });

  it('generate then run: TP 2 × DP 2 with 2 layers', () => {
    const out = join(tempDir('gen'), 'gpt');
    const g = runCli(['workload', 'generate', '--tp', '2', '--dp', '2', '--layers', '2', '--hidden', '256', '--sequence', '128', '--out', out]);
    expect(g.code).toBe(0);
    expect(readdirSync(out)).toHaveLength(4);
    const r = json(['workload', 'run', '--trace', out, '--topology', 'fullmesh:4']);
    expect(r.report.collectives.length).toBe(2 * 8 + 2 * 2);
    expect(expectOneLineError(runCli(['workload', 'generate', '--tp', '2', '--dp', '3', '--ep', '2', '--out', join(out, 'x')]))).toContain('ep: got 2');
  });
});
