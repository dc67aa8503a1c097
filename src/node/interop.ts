/**
 * Node adapter for the interop readers: files are streamed into the platform-neutral push parsers
 * in 1 MiB pieces (a million-step MSCCL-XML file never exists as one string), and a schedule
 * file's format is told from its first bytes.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { InputError } from '../util/errors.js';
import { MscclReader } from '../interop/msccl/read.js';
import type { MscclAlgo } from '../interop/msccl/format.js';
import { scheduleFormatOf, type ScheduleFileFormat } from '../interop/schedule-text.js';

// Named here too, as before they moved to the platform-neutral reader.
export { SCHEDULE_FILE_FORMATS, type ScheduleFileFormat } from '../interop/schedule-text.js';

const PIECE = 1 << 20;

/** Calls `write` with the file's text in pieces (UTF-8 decoded across piece boundaries). */
export function streamText(path: string, field: string, write: (text: string) => void): void {
  let fd: number;
  try {
    if (!statSync(path).isFile()) throw new Error('not a regular file');
    fd = openSync(path, 'r');
  } catch (err) {
    throw new InputError(field, path, `a readable file (${(err as Error).message.split('\n')[0]})`);
  }
  try {
    const decoder = new TextDecoder('utf-8');
    const buf = Buffer.alloc(PIECE);
    for (;;) {
      const n = readSync(fd, buf, 0, PIECE, null);
      if (n === 0) break;
      write(decoder.decode(buf.subarray(0, n), { stream: true }));
    }
    write(decoder.decode());
  } finally {
    closeSync(fd);
  }
}

/** Reads an MSCCL-XML file, streamed. */
export function readMscclFile(path: string, field = 'schedule'): MscclAlgo {
  const reader = new MscclReader(`${field}(${path})`);
  streamText(path, field, (t) => reader.write(t));
  return reader.finish();
}

/** The format of a schedule file from its first bytes (the rule: scheduleFormatOf). */
export function detectScheduleFormat(path: string, field = 'schedule'): ScheduleFileFormat {
  let head: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(4096);
      const n = readSync(fd, buf, 0, buf.length, 0);
      head = buf.subarray(0, n).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new InputError(field, path, `a readable file (${(err as Error).message.split('\n')[0]})`);
  }
  return scheduleFormatOf(head, path, field);
}
