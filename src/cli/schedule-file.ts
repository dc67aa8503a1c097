/**
 * `--schedule FILE` for `collective verify|show` and `run`: a Meshwork schedule JSON file, or an
 * MSCCL-XML algorithm (told apart by content, or `--schedule-format`), which takes `--size`.
 */
import { dirname, resolve } from 'node:path';
import { InputError } from '../util/errors.js';
import { isNamedMapping } from '../topology/mapping.js';
import { parseCollective, type Dtype, type ReduceOp } from '../collectives/types.js';
import { SCHEDULE_FILE_FORMATS, type LoadedSchedule, type ScheduleFileFormat } from '../interop/schedule-text.js';
import { checkScheduleFormat } from '../interop/schedule-formats.js';
import { detectScheduleFormat } from '../node/interop.js';
import { nodeRunIo, readScheduleFile } from '../node/run-io.js';
import { absoluteTopologyPath } from '../node/request-paths.js';
import type { RunIo } from '../sim/prepare.js';

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

/**
 * `run --schedule FILE` without `--topology`: the topology (and rank mapping) a Meshwork schedule JSON file records
 * (a file it names is read from the schedule's directory, as a request file's paths are). The
 * file is read once: the RunIo returned hands the loaded schedule to prepare(). MSCCL-XML records
 * no topology, so it still needs `--topology`; one given is used instead of the file's (same rank
 * count), as `collective verify --schedule` does.
 */
export function topologyOfScheduleFile(o: { schedule: string; scheduleFormat?: string }): { topology: string; mapping?: string; io: RunIo } {
  const format = checkScheduleFormat(o.scheduleFormat, o.schedule) ?? detectScheduleFormat(o.schedule);
  if (format !== 'json') throw new InputError('topology', undefined, 'a topology spec or file such as torus:8x8 (required: an MSCCL-XML schedule records none)');
  const loaded = readScheduleFile(o.schedule, { format });
  const topology = recordedTopology(loaded, o.schedule);
  if (topology === undefined) throw new InputError('topology', undefined, `a topology spec or file such as torus:8x8 (required: ${o.schedule} records none)`);
  const io: RunIo = { ...nodeRunIo, readSchedule: (path, opts) => (path === o.schedule ? loaded : nodeRunIo.readSchedule!(path, opts)) };
  // The mapping the file was built under comes with its topology (its route hints name mapped nodes).
  return loaded.mapping === undefined ? { topology, io } : { topology, mapping: loaded.mapping, io };
}

/**
 * The `--mapping` a schedule JSON file records: a named mapping as typed, a permutation file by its
 * absolute path (the schedule may be run from anywhere). Undefined without one.
 */
export function recordedMapping(mapping: string | undefined): string | undefined {
  if (mapping === undefined) return undefined;
  return isNamedMapping(mapping.trim()) ? mapping.trim() : resolve(mapping);
}

/** The topology a loaded schedule file records, a file it names read from the schedule's own directory; undefined if none. */
export function recordedTopology(loaded: LoadedSchedule, file: string): string | undefined {
  const recorded = loaded.schedule.topology;
  return recorded ? absoluteTopologyPath(recorded, dirname(resolve(file))) : undefined;
}
