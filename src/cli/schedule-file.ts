/**
 * `--schedule FILE` for `collective verify|show` and `run`: a Meshwork schedule JSON file, or an
 * MSCCL-XML algorithm (told apart by content, or `--schedule-format`), which takes `--size`.
 */
import { InputError } from '../util/errors.js';
import { parseSize } from '../util/units.js';
import { scheduleFromJson, type Schedule } from '../collectives/index.js';
import type { Dtype, ReduceOp } from '../collectives/types.js';
import { mscclToSchedule, type MscclSchedule } from '../interop/msccl/to-schedule.js';
import { detectScheduleFormat, readMscclFile, SCHEDULE_FILE_FORMATS, type ScheduleFileFormat } from '../node/interop.js';
import { readText } from '../node/load-topology.js';

export interface ScheduleFileOptions {
  schedule: string;
  scheduleFormat?: string;
  size?: string;
  dtype?: Dtype;
  op?: ReduceOp;
  /** The topology spec, recorded in an imported schedule. */
  topology?: string;
}

export interface LoadedSchedule {
  schedule: Schedule;
  /** Set for an MSCCL-XML file: its steps, for messages, verification and the protocol. */
  msccl?: MscclSchedule;
}

export const SCHEDULE_FORMAT_HELP = `schedule file format: ${SCHEDULE_FILE_FORMATS.join(' or ')} (default: told from the content)`;

export function loadScheduleFile(o: ScheduleFileOptions): LoadedSchedule {
  const format = o.scheduleFormat === undefined ? detectScheduleFormat(o.schedule) : o.scheduleFormat;
  if (!(SCHEDULE_FILE_FORMATS as readonly string[]).includes(format)) throw new InputError('schedule-format', format, SCHEDULE_FILE_FORMATS.join(', '));
  if ((format as ScheduleFileFormat) === 'json') {
    const text = readText(o.schedule, 'schedule');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new InputError('schedule', o.schedule, `a JSON file (${(err as Error).message})`);
    }
    return { schedule: scheduleFromJson(json) };
  }
  if (o.size === undefined) throw new InputError('size', undefined, 'a size such as 1MiB with an MSCCL-XML schedule (the file counts chunks, not bytes)');
  const algo = readMscclFile(o.schedule);
  const msccl = mscclToSchedule(algo, { size: parseSize(o.size, 'size'), dtype: o.dtype, op: o.op, topology: o.topology });
  return { schedule: msccl.schedule, msccl };
}
