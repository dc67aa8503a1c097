/** The RunIo of Node front ends (CLI, sweeps): topology, mapping, schedule and size-matrix files read from disk. */
import type { RunIo } from '../sim/prepare.js';
import type { Dtype, ReduceOp } from '../collectives/types.js';
import { scheduleFromJsonText, scheduleFromMscclAlgo, type LoadedSchedule, type ScheduleFileFormat } from '../interop/schedule-text.js';
import { detectScheduleFormat, readMscclFile } from './interop.js';
import { loadTopology, readText } from './load-topology.js';

/** A schedule file from disk: Meshwork schedule JSON, or MSCCL-XML streamed (a million-step file never exists as one string). */
export function readScheduleFile(path: string, o: { format?: ScheduleFileFormat; size?: string; dtype?: Dtype; op?: ReduceOp; topology?: string }): LoadedSchedule {
  const format = o.format ?? detectScheduleFormat(path);
  if (format === 'json') return scheduleFromJsonText(readText(path, 'schedule'), path);
  return scheduleFromMscclAlgo(() => readMscclFile(path), o);
}

export const nodeRunIo: RunIo = {
  loadTopology: (spec, opts) => loadTopology(spec, opts),
  readText,
  readSchedule: readScheduleFile,
};
