/**
 * `--schedule FILE` for `collective verify|show` and `run`: a Meshwork schedule JSON file, or an
 * MSCCL-XML algorithm (told apart by content, or `--schedule-format`), which takes `--size`.
 */
import { InputError } from '../util/errors.js';
import { parseCollective, type Dtype, type ReduceOp } from '../collectives/types.js';
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

/**
 * `--collective` typed beside `--schedule FILE`: the file says what it runs, so another collective
 * is refused rather than ignored; its own is accepted (MSCCL's `custom` names none, so any is).
 */
export function refuseOtherCollective(given: string | undefined, loaded: LoadedSchedule): void {
  const own = loaded.msccl?.algo.collective === 'custom' ? undefined : loaded.schedule.parts[0]?.collective;
  if (given === undefined || own === undefined || parseCollective(given) === own) return;
  throw new InputError('collective', given, `the schedule file's own collective (${own}), or no --collective: --schedule FILE says what it runs`);
}
