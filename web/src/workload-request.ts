/**
 * The Workload form as a RunRequest of kind workload (what `meshwork workload run --print-request`
 * prints for the same fields), and how the library reaches the Chakra files the user opened: the
 * worker prepares and runs it as the CLI does (workload/request.ts). Apart from worker.ts so it
 * loads, and is tested, outside a worker.
 */
import { InputError } from '../../src/util/errors.js';
import type { RunRequest } from '../../src/sim/request.js';
import type { RankFile } from '../../src/workload/chakra/files.js';
import type { WorkloadIo } from '../../src/workload/request.js';
import type { Request } from './protocol.js';

export function workloadRequest(req: Extract<Request, { kind: 'workload' }>): RunRequest {
  const generate = { tp: req.tp, dp: req.dp, layers: req.layers, hidden: req.hidden, sequence: req.sequence };
  return {
    topology: req.spec,
    workload: req.trace
      ? { kind: 'workload', trace: req.trace.files.map((f) => f.name), deps: req.trace.deps, ...(req.trace.replicate !== undefined ? { replicate: req.trace.replicate } : {}) }
      : { kind: 'workload', generate },
    engine: req.engine,
  };
}

/** The opened rank files, by name, as the request's `trace` names them. */
export function openedFilesIo(files: readonly RankFile[], base: WorkloadIo = {}): WorkloadIo {
  const byName = new Map(files.map((f) => [f.name, f]));
  return {
    ...base,
    readRankFiles: (paths) =>
      paths.map((name) => {
        const file = byName.get(name);
        if (file === undefined) throw new InputError('trace', name, 'a file opened in this page (a link carries the form, not the files: open them again)');
        return file;
      }),
  };
}
