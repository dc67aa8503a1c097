/**
 * A `workload` sweep point → a RunRequest of kind workload, through `workload run`'s own parser
 * (cli/commands/workload.ts `workloadRequestFromOptions`: the option schema's units and
 * validators), checked by the request schema. The sweep's node layer: execute.ts prepares and runs
 * the request with the Node file reader (node/chakra.ts `nodeWorkloadIo`); the library stays
 * platform-neutral. Loaded as the kind's command module (commands.ts), so no other kind loads the
 * Chakra reader.
 */
import { flagProperty } from '../sim/options-schema.js';
import { parseRunRequest, type RunRequest } from '../sim/request.js';
import { workloadRequestFromOptions } from '../cli/commands/workload.js';
import { prepareRequest, runPreparedRequest, type WorkloadResult } from '../workload/request.js';
import { chakraFiles, nodeWorkloadIo } from '../node/chakra.js';
import { resolveDevice } from '../workload/device.js';
import type { Params } from './file.js';

export { register } from '../cli/commands/workload.js';

/** The point's options under commander's property names (`vc-buf` → `vcBuf`), `trace` a one-path list. */
export function requestOfPoint(params: Params): RunRequest {
  const opts: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) opts[flagProperty(name)] = name === 'trace' && typeof value === 'string' ? [value] : value;
  return parseRunRequest(workloadRequestFromOptions(opts as unknown as Parameters<typeof workloadRequestFromOptions>[0]));
}

/**
 * The sweep file's check of every point before any runs (commands.ts `pointCheck`): the request
 * builds and validates, its device model resolves and its trace files exist, so a misspelt device
 * or path is refused in one line (exit 2) rather than failing every point. Each distinct device and
 * trace is checked once. The request is the point's identity (sweep/file.ts keys it).
 */
export function checkPoint(params: Params, seen: Set<string> = new Set()): RunRequest {
  const request = requestOfPoint(params);
  const w = request.workload;
  if (w.kind !== 'workload') return request;
  if (w.device !== undefined && !seen.has(`device ${w.device}`)) {
    resolveDevice(w.device);
    seen.add(`device ${w.device}`);
  }
  const trace = w.trace?.join('\0');
  if (trace !== undefined && !seen.has(`trace ${trace}`)) {
    chakraFiles(w.trace!);
    seen.add(`trace ${trace}`);
  }
  return request;
}

/** Runs a point's request through the library (prepareRequest, runPreparedRequest), rank files read from disk. */
export function runWorkloadPoint(params: Params): WorkloadResult {
  return runPreparedRequest(prepareRequest(requestOfPoint(params), nodeWorkloadIo)) as WorkloadResult;
}
