/**
 * The schedule file formats, apart from their readers: the RunRequest schema names them, and
 * loading the readers (which load every collective) for that would cost every run's start-up,
 * `meshwork traffic`'s included.
 */
import { InputError } from '../util/errors.js';

export type ScheduleFileFormat = 'json' | 'msccl-xml';
export const SCHEDULE_FILE_FORMATS: readonly ScheduleFileFormat[] = ['json', 'msccl-xml'];

/**
 * A `--schedule-format` as typed: one of the formats, and only beside a schedule file (alone it
 * would be accepted and do nothing). Undefined when not given.
 */
export function checkScheduleFormat(format: string | undefined, schedule: string | undefined): ScheduleFileFormat | undefined {
  if (format === undefined) return undefined;
  if (!(SCHEDULE_FILE_FORMATS as readonly string[]).includes(format)) throw new InputError('schedule-format', format, SCHEDULE_FILE_FORMATS.join(', '));
  if (schedule === undefined) throw new InputError('schedule-format', format, 'only with --schedule (the format of that file)');
  return format as ScheduleFileFormat;
}
