/**
 * Schedule files from their text: a Meshwork schedule JSON document or an MSCCL-XML algorithm
 * (which takes a size: it counts chunks, not bytes), told apart by the first character. The CLI
 * streams large files from disk (src/cli/schedule-file.ts); Meshwork Studio reads the file a user
 * opened. Both use these checks, so a file gets the same schedule and the same one-line errors.
 */
import { InputError, requireText } from '../util/errors.js';
import { parseSize } from '../util/units.js';
import { scheduleFromJson, type Schedule } from '../collectives/index.js';
import type { Dtype, ReduceOp } from '../collectives/types.js';
import type { MscclAlgo } from './msccl/format.js';
import { readMscclXml } from './msccl/read.js';
import { mscclToSchedule, type MscclSchedule } from './msccl/to-schedule.js';

import type { ScheduleFileFormat } from './schedule-formats.js';

export { SCHEDULE_FILE_FORMATS, type ScheduleFileFormat } from './schedule-formats.js';

/** The format of a schedule file from its first non-blank character: '<' is XML, '{' JSON. */
export function scheduleFormatOf(head: string, path: string, field = 'schedule'): ScheduleFileFormat {
  const first = requireText(head, field, 'the start of a schedule file').replace(/^\uFEFF/, '').trimStart().charAt(0);
  if (first === '<') return 'msccl-xml';
  if (first === '{') return 'json';
  throw new InputError(field, path, 'a Meshwork schedule JSON file ({...}) or an MSCCL-XML file (<algo ...>); or name it with --schedule-format');
}

export interface ScheduleImportOptions {
  readonly size?: string;
  readonly dtype?: Dtype;
  readonly op?: ReduceOp;
  /** The topology spec, recorded in an imported schedule. */
  readonly topology?: string;
}

export interface LoadedSchedule {
  schedule: Schedule;
  /** Set for an MSCCL-XML file: its steps, for messages, verification and the protocol. */
  msccl?: MscclSchedule;
  /** The rank mapping a Meshwork schedule JSON file records (its route hints name the mapped nodes). */
  mapping?: string;
}

/** A Meshwork schedule JSON document's text: the schedule, and the rank mapping it records. */
export function scheduleFromJsonText(text: string, path: string, field = 'schedule'): LoadedSchedule {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InputError(field, path, `a JSON file (${(err as Error).message})`);
  }
  const schedule = scheduleFromJson(json);
  const mapping = (json as { mapping?: string }).mapping;
  return mapping === undefined ? { schedule } : { schedule, mapping };
}

/** An MSCCL algorithm at the size the user gave; the size is checked before the (possibly large) file is read. */
export function scheduleFromMscclAlgo(readAlgo: () => MscclAlgo, o: ScheduleImportOptions): LoadedSchedule {
  if (o.size === undefined) throw new InputError('size', undefined, 'a size such as 1MiB with an MSCCL-XML schedule (the file counts chunks, not bytes)');
  const msccl = mscclToSchedule(readAlgo(), { size: parseSize(o.size, 'size'), dtype: o.dtype, op: o.op, topology: o.topology });
  return { schedule: msccl.schedule, msccl };
}

/** A schedule file held in one string (the format from its content unless given). */
export function scheduleFromText(text: string, path: string, o: ScheduleImportOptions, format: ScheduleFileFormat = scheduleFormatOf(requireText(text, 'schedule', 'the text of a schedule file').slice(0, 4096), path)): LoadedSchedule {
  if (format === 'json') return scheduleFromJsonText(text, path);
  return scheduleFromMscclAlgo(() => readMscclXml(text, `schedule(${path})`), o);
}
