/**
 * SMPI's per-message software overheads by size (SimGrid 3.32 `smpi/os`, `smpi/ois`, `smpi/or`;
 * model.sendOverhead, isendOverhead, recvOverhead): the time a rank's CPU is busy in the MPI
 * library around a message, which SMPI injects as a sleep of the calling actor. Where SMPI 3.32
 * injects each (src/smpi/mpi/smpi_request.cpp):
 *   - `os`, before a blocking send's transfer is created, when the send is detached (below
 *     smpi/send-is-detached-thresh); a blocking send at or above it sleeps nothing (Request::start);
 *   - `ois`, before an isend's transfer is created, whatever its size; MPI_Sendrecv posts its send
 *     with isend_init, so a sendrecv's send pays `ois` too;
 *   - `or`, when a receive whose sender was detached is finished (Request::finish_wait), after the
 *     message arrived: at once for a blocking receive, in completion order within a waitall
 *     (waitall is waitany repeated, each finished request sleeping in turn).
 * A value is SimGrid's piecewise syntax `threshold:offset:per-byte;...` (smpi::utils::parse_factor:
 * whole-byte thresholds, times in seconds or with a unit, further values ignored), looked up as
 * Host::osend does: the section of the lowest threshold for sizes up to the next threshold, each
 * later one above its own threshold (so `0:1e-6:1e-10` is 1 µs + 0.1 ns per byte for every size).
 */
import { InputError } from '../../util/errors.js';
import { isDecimal } from '../../util/spec.js';
import { parseTime } from '../../util/units.js';

export interface SizeOverheads {
  /** Section thresholds in bytes, ascending. */
  readonly thresholds: readonly number[];
  /** Per section: seconds for any message, and seconds per byte. */
  readonly offsets: readonly number[];
  readonly perByte: readonly number[];
}

const SYNTAX = "SimGrid's overhead syntax threshold:offset:per-byte;... (whole-byte thresholds, non-negative times such as 1e-6, 1us or 0.1ns)";

/** A time as SimGrid's xbt_parse_get_time reads it: seconds when bare, else a unit (1us, 0.1ns). */
function parseSeconds(text: string, field: string, whole: string): number {
  const t = text.trim();
  if (isDecimal(t)) {
    const v = Number(t);
    if (Number.isFinite(v) && v >= 0) return v;
    throw new InputError(field, whole, SYNTAX);
  }
  try {
    return parseTime(t, field);
  } catch {
    throw new InputError(field, whole, SYNTAX);
  }
}

/** Parses SMPI's `threshold:offset:per-byte;...`; null when every section is zero (no overhead at all). */
export function parseOverheadText(text: string, field: string): SizeOverheads | null {
  const sections = text
    .split(';')
    .filter((chunk) => chunk.trim().length > 0)
    .map((chunk) => {
      const [t, ...values] = chunk.split(':');
      const threshold = isDecimal(t.trim()) ? Number(t) : NaN;
      if (!Number.isSafeInteger(threshold) || threshold < 0 || values.length < 2) throw new InputError(field, text, SYNTAX);
      return [threshold, parseSeconds(values[0], field, text), parseSeconds(values[1], field, text)] as const;
    });
  if (sections.length === 0) throw new InputError(field, text, SYNTAX);
  sections.sort((a, b) => a[0] - b[0]);
  if (sections.every(([, offset, perByte]) => offset === 0 && perByte === 0)) return null;
  return { thresholds: sections.map((s) => s[0]), offsets: sections.map((s) => s[1]), perByte: sections.map((s) => s[2]) };
}

/** Seconds of overhead for a message of `size` bytes (SimGrid's Host::osend loop); 0 with none. */
export function overheadSeconds(o: SizeOverheads | null, size: number): number {
  if (o === null) return 0;
  const { thresholds, offsets, perByte } = o;
  let current = offsets[0] + perByte[0] * size;
  for (let i = 0; i < thresholds.length; i++) {
    if (size <= thresholds[i]) return current;
    current = offsets[i] + perByte[i] * size;
  }
  return current;
}
