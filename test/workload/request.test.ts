/**
 * Workloads as a RunRequest kind (issue 24: collective runs, traffic runs and Chakra workloads are
 * workload kinds of one request): `workload run` builds a RunRequest that the library prepares and
 * runs (workload/request.ts), `--print-request` writes it, and `--request` (of `workload run` or
 * `run`) re-runs it to the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { prepareRequest, runRequest, type WorkloadResult } from '../../src/workload/request.js';
import { prepare } from '../../src/sim/prepare.js';
import { nodeWorkloadIo, loadChakraTrace } from '../../src/node/chakra.js';
import { runWorkload } from '../../src/workload/run.js';
import { buildTopology } from '../../src/topology/registry.js';
import { generateTransformer, generatedTrace } from '../../src/workload/generate.js';
import { writeTraceDir, comp } from './chakra-helpers.js';

const ALL_REDUCE_8 = '../shared/reference/chakra/astra-sim/et_microbenchmarks/all_reduce/8npus_1MB';

describe('workload requests', () => {
  const dir = tempDir('wl-request');

  it('print-request, then --request (workload run and run alike): the identical result, byte for byte', () => {
    const args = ['workload', 'run', '--trace', ALL_REDUCE_8, '--topology', 'ring:8,bw=50GiBps,lat=500ns', '--alpha', '10ns', '--algorithm', 'allreduce=ring', '--injection-order', 'per-destination'];
    const printed = runCli([...args, '--print-request']);
    expect(printed.code, printed.stderr).toBe(0);
    const request = JSON.parse(printed.stdout);
    // The trace path printed absolute (node/request-paths.ts), so the saved request runs from anywhere.
    expect(request).toMatchObject({ workload: { kind: 'workload', trace: [resolve(ALL_REDUCE_8)], algorithms: { allreduce: 'ring' } }, engine: 'flow', model: { alpha: 1e-8, injectionOrder: 'per-destination' }, routing: { seed: 1 } });
    const path = join(dir, 'req.json');
    writeFileSync(path, printed.stdout);
    const direct = runCli([...args, '--json']);
    expect(direct.code, direct.stderr).toBe(0);
    const viaWorkload = runCli(['workload', 'run', '--request', path]);
    const viaRun = runCli(['run', '--request', path]);
    expect(viaWorkload.stdout).toBe(direct.stdout);
    expect(viaRun.stdout).toBe(direct.stdout);
    const result = JSON.parse(direct.stdout) as WorkloadResult;
    expect(result.kind).toBe('meshwork-workload-result');
    // 14 steps of 10 ns + 131,072 B / 50 GiB/s + 500 ns (test/workload/astra-reference.test.ts).
    expect(result.report.step_time_s).toBeCloseTo(14 * (10e-9 + 131072 / (50 * 2 ** 30) + 500e-9), 15);
    // The result's request re-runs it too.
    writeFileSync(join(dir, 'again.json'), JSON.stringify(result.request));
    expect(runCli(['run', '--request', join(dir, 'again.json')]).stdout).toBe(direct.stdout);
  });

  it('the library: a request of trace files times as runWorkload on the same trace, at flow and packet level', () => {
    for (const engine of ['flow', 'packet'] as const) {
      const r = runRequest({ topology: 'fullmesh:8', workload: { kind: 'workload', trace: [ALL_REDUCE_8] }, engine }, nodeWorkloadIo) as WorkloadResult;
      const expected = runWorkload({ topology: buildTopology('fullmesh:8'), trace: loadChakraTrace([ALL_REDUCE_8]), engine });
      expect(r.report.step_time_s).toBe(expected.report.step_time_s);
      expect(r.result.engine).toBe(engine);
      expect(r.request).toMatchObject({ engine, routing: { name: expect.any(String), seed: 1 } });
    }
  });

  it('a generated step as a request: no files, the same as generating and running it', () => {
    const generate = { tp: 2, dp: 2, layers: 1, hidden: 256, sequence: 64 };
    const r = runRequest({ topology: 'fullmesh:4', workload: { kind: 'workload', generate, algorithms: { allreduce: 'ring' } } }) as WorkloadResult;
    const expected = runWorkload({ topology: buildTopology('fullmesh:4'), trace: generatedTrace(generateTransformer(generate)), algorithms: { allreduce: 'ring' } });
    expect(r.report.step_time_s).toBe(expected.report.step_time_s);
    expect(r.report.collectives).toHaveLength(expected.report.collectives.length);
  });

  it('refusals: files without a RunIo, trace and generate together, prepare() of sim/ naming prepareRequest, a workload with noise', () => {
    const traceDir = writeTraceDir([[comp(1, 5)], [comp(1, 5)]]);
    expect(() => prepareRequest({ topology: 'ring:2', workload: { kind: 'workload', trace: [traceDir] } })).toThrow(/request\.workload\.trace: .*RunIo/);
    expect(() => prepareRequest({ topology: 'ring:2', workload: { kind: 'workload', trace: [traceDir], generate: { tp: 2 } } })).toThrow(/exactly one of trace/);
    expect(() => prepare({ topology: 'ring:2', workload: { kind: 'workload', trace: [traceDir] } })).toThrow(/prepareRequest/);
    expect(() => prepareRequest({ topology: 'ring:2', workload: { kind: 'workload', trace: [traceDir] }, noise: { skew: 1e-6 } }, nodeWorkloadIo)).toThrow(/request\.noise/);
    // A file that is not a request's workload in the CLI: one line, exit 2.
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ topology: 'ring:2', workload: { kind: 'workload', trace: [traceDir], compute: 'exact' } }));
    expect(expectOneLineError(runCli(['workload', 'run', '--request', bad]))).toMatch(/^meshwork: error: request\.workload\.compute: got "exact"/);
    const collective = join(dir, 'collective.json');
    writeFileSync(collective, JSON.stringify({ topology: 'ring:2', workload: { kind: 'collective', collective: 'allreduce', algorithm: 'ring', size: 64 } }));
    expect(expectOneLineError(runCli(['workload', 'run', '--request', collective]))).toContain('request.workload.kind: got "collective"');
  });
});
