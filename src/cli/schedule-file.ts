/**
 * `--schedule FILE` for `collective verify|show` and `run`: a Meshwork schedule JSON file, or an
 * MSCCL-XML algorithm (told apart by content, or `--schedule-format`), which takes `--size`.
 */
import { InputError } from '../util/errors.js';
import type { Dtype, ReduceOp } from '../collectives/types.js';
import { SCHEDULE_FILE_FORMATS, type LoadedSchedule, type ScheduleFileFormat } from '../interop/schedule-text.js';
import { detectScheduleFormat } from '../node/interop.js';
import { readScheduleFile } from '../node/run-io.js';

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
  return readScheduleFile(o.schedule, { ...o, format: format as ScheduleFileFormat });
}
