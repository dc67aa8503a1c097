/**
 * `--schedule FILE` for `collective verify|show` and `run`: a Meshwork schedule JSON file, or an
 * MSCCL-XML algorithm (told apart by content, or `--schedule-format`), which takes `--size`.
 */
import { InputError } from '../util/errors.js';
import type { Dtype, ReduceOp } from '../collectives/types.js';
import { SCHEDULE_FILE_FORMATS, scheduleFromJsonText, scheduleFromMscclAlgo, type LoadedSchedule, type ScheduleFileFormat } from '../interop/schedule-text.js';
import { detectScheduleFormat, readMscclFile } from '../node/interop.js';
import { readText } from '../node/load-topology.js';

export type { LoadedSchedule };

export interface ScheduleFileOptions {
  schedule: string;
  scheduleFormat?: string;
  size?: string;
  dtype?: Dtype;
  op?: ReduceOp;
  /** The topology spec, recorded in an imported schedule. */
  topology?: string;
}

export const SCHEDULE_FORMAT_HELP = `schedule file format: ${SCHEDULE_FILE_FORMATS.join(' or ')} (default: told from the content)`;

export function loadScheduleFile(o: ScheduleFileOptions): LoadedSchedule {
  const format = o.scheduleFormat === undefined ? detectScheduleFormat(o.schedule) : o.scheduleFormat;
  if (!(SCHEDULE_FILE_FORMATS as readonly string[]).includes(format)) throw new InputError('schedule-format', format, SCHEDULE_FILE_FORMATS.join(', '));
  if ((format as ScheduleFileFormat) === 'json') return { schedule: scheduleFromJsonText(readText(o.schedule, 'schedule'), o.schedule) };
  // Streamed from disk: a million-step file never exists as one string.
  return scheduleFromMscclAlgo(() => readMscclFile(o.schedule), o);
}
