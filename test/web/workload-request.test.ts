/**
 * The Studio's Workload view builds a RunRequest of kind workload (web/src/workload-request.ts) and
 * the worker prepares and runs it through the library's prepareRequest/runPreparedRequest, as
 * `meshwork workload run` does; opened Chakra files reach the platform-neutral reader through the
 * request's RunIo. The Chromium runs of the view are in studio.test.ts ("Workload ...").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openedFilesIo, workloadRequest } from '../../web/src/workload-request.js';
import { runRequest, type WorkloadResult } from '../../src/workload/request.js';
import { runWorkload } from '../../src/workload/run.js';
import { buildTopology } from '../../src/topology/registry.js';
import { generateTransformer, generatedTrace } from '../../src/workload/generate.js';
import { runCli } from '../helpers/cli.js';

const DIR = '../shared/reference/chakra/astra-sim/et_microbenchmarks/all_reduce/8npus_1MB';
const files = Array.from({ length: 8 }, (_, r) => ({ name: `all_reduce.${r}.et`, bytes: new Uint8Array(readFileSync(join(DIR, `all_reduce.${r}.et`))) }));

describe("Studio's Workload view: a RunRequest", () => {
  it('the generated form: the request the CLI would print, timed as runWorkload times the step', () => {
    const request = workloadRequest({ kind: 'workload', spec: 'fullmesh:4,bw=8Gbps,lat=0', tp: 2, dp: 2, layers: 2, hidden: 64, sequence: 32, engine: 'flow' });
    expect(request).toEqual({ topology: 'fullmesh:4,bw=8Gbps,lat=0', workload: { kind: 'workload', generate: { tp: 2, dp: 2, layers: 2, hidden: 64, sequence: 32 } }, engine: 'flow' });
    const r = runRequest(request, openedFilesIo([])) as WorkloadResult;
    const expected = runWorkload({ topology: buildTopology('fullmesh:4,bw=8Gbps,lat=0'), trace: generatedTrace(generateTransformer({ tp: 2, dp: 2, layers: 2, hidden: 64, sequence: 32 })) });
    expect(r.report.step_time_s).toBe(expected.report.step_time_s);
  });

  it('opened files: the same result as workload run --trace on the directory, the same request but for the file names', () => {
    const request = workloadRequest({ kind: 'workload', spec: 'ring:8,bw=50GiBps,lat=500ns', tp: 8, dp: 1, layers: 1, hidden: 64, sequence: 32, engine: 'flow', trace: { files, deps: 'both' } });
    const page = runRequest(request, openedFilesIo(files)) as WorkloadResult;
    const cli = runCli(['workload', 'run', '--trace', DIR, '--topology', 'ring:8,bw=50GiBps,lat=500ns', '--deps', 'both', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const expected = JSON.parse(cli.stdout) as WorkloadResult;
    expect(page.report).toEqual({ ...expected.report });
    expect(page.request).toEqual({ ...expected.request, workload: { ...expected.request.workload, trace: files.map((f) => f.name) } });
    // A file the request names but the page does not hold: one line naming it.
    expect(() => runRequest(request, openedFilesIo(files.slice(1)))).toThrow('trace: got "all_reduce.0.et"; accepted: a file opened in this page');
  });
});
