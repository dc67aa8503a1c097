/**
 * Human units at the boundary, SI units inside: bytes, bytes per second, seconds.
 * Both SI (k, M, G: powers of 1000) and IEC (Ki, Mi, Gi: powers of 1024) prefixes are accepted.
 */
import { InputError, LimitError } from './errors.js';

/** SI prefixes as powers of ten: a value is scaled in decimal (see `withPrefix`), not multiplied. */
// E and Ei are read so that a size past the limit (--size 1EiB) is refused naming the limit, not its unit.
const SI_EXPONENT: Record<string, number> = { '': 0, k: 3, K: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const IEC: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, Pi: 1024 ** 5, Ei: 1024 ** 6 };

/**
 * `digits` (a decimal such as 100, 1.5 or 2e3) scaled by a power of ten exactly as written: the
 * double nearest to the decimal value, which is what a reader of "100ns" means. Multiplying by a
 * factor rounds twice: 100 * 1e-9 is 1.0000000000000001e-7, one ulp off the 1e-7 a default holds.
 */
function scaleDecimal(digits: string, exponent: number): number {
  const [mantissa, ownExponent = '0'] = digits.toLowerCase().split('e');
  return Number(`${mantissa}e${Number(ownExponent) + exponent}`);
}

/** `digits` with a size or rate prefix: SI in decimal, IEC by its power of two (exact either way). */
function withPrefix(digits: string, prefix: string): number {
  const iec = IEC[prefix];
  return iec !== undefined ? Number(digits) * iec : scaleDecimal(digits, SI_EXPONENT[prefix] ?? 0);
}

const NUMBER = '([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)';

/** What a size accepts, in every message about one. */
const SIZE_ACCEPTED = 'a size in bytes such as 4096, 64KiB, 1MB, 1.5GiB (B or nothing = bytes; bits only spelled out: 80kbit)';

/** Largest size counted exactly (2^53 − 1 bytes); a collective's own limit is tighter (registry). */
export const MAX_SIZE_BYTES = Number.MAX_SAFE_INTEGER;

/**
 * Parses a size such as `64KiB`, `1MB`, `4096`, `1.5GiB`, `8kbit` into bytes. Every front end
 * (CLI options, sweep files, Studio, specs) parses sizes here. A lowercase `b` alone (`4kb`) is
 * refused: sizes are in bytes, and `4kb` meant 4 kilobits (500 B) while its writer meant 4 KB
 * (issue 28 item 5); the message asks which was meant.
 */
export function parseSize(text: string, field = 'size'): number {
  const m = new RegExp(`^\\s*${NUMBER}\\s*(Ki|Mi|Gi|Ti|Pi|Ei|k|K|M|G|T|P|E)?(B|bit|b)?\\s*$`).exec(String(text));
  if (!m) throw new InputError(field, text, SIZE_ACCEPTED);
  const prefix = m[2] ?? '';
  if (m[3] === 'b') {
    const upper = prefix === 'k' ? 'K' : prefix;
    const asBytes = prefix === '' || prefix.endsWith('i') ? `${m[1]}${upper}B` : `${m[1]}${upper}B or ${m[1]}${upper}iB`;
    throw new InputError(field, text, `a size in bytes: did you mean ${asBytes}? (a lowercase b reads as bits: write ${m[1]}${prefix}bit for bits)`);
  }
  const bytes = withPrefix(m[1], prefix) / (m[3] === 'bit' ? 8 : 1);
  if (!Number.isFinite(bytes) || bytes > MAX_SIZE_BYTES) throw new LimitError(field, text, `${MAX_SIZE_BYTES} bytes (2^53 − 1, about 8 PiB)`);
  if (bytes < 0) throw new InputError(field, text, SIZE_ACCEPTED);
  return bytes;
}

/**
 * Physical bounds on what a user writes (one bit per second to an exabyte per second; up to 10^9 s,
 * about 32 years): beyond them sums of times overflow or underflow, and a run that cannot finish in
 * floating point was reported as a deadlock.
 */
const MIN_BANDWIDTH = 1 / 8;
const MAX_BANDWIDTH = 1e18;
/** The longest time a user may write, in seconds (typed times here; a request's durations in sim/program/model.ts). */
export const MAX_TIME_S = 1e9;

/** Parses a bandwidth such as `25Gbps`, `100Gb/s`, `12.5GB/s`, `1GiB/s` into bytes per second. */
export function parseBandwidth(text: string, field = 'bandwidth'): number {
  const m = new RegExp(`^\\s*${NUMBER}\\s*(Ki|Mi|Gi|Ti|Pi|Ei|k|K|M|G|T|P|E)?(bps|b/s|bit/s|Bps|B/s)\\s*$`).exec(String(text));
  if (!m) throw new InputError(field, text, 'a positive bandwidth such as 25Gbps, 100Gb/s, 12.5GB/s or 1GiB/s');
  const bits = m[3] === 'bps' || m[3] === 'b/s' || m[3] === 'bit/s';
  const value = withPrefix(m[1], m[2] ?? '') / (bits ? 8 : 1);
  if (!Number.isFinite(value) || value <= 0) throw new InputError(field, text, 'a positive finite bandwidth such as 25Gbps');
  if (value < MIN_BANDWIDTH || value > MAX_BANDWIDTH) throw new InputError(field, text, 'a bandwidth from 1bps to 1EB/s (10^18 bytes per second)');
  return value;
}

/** Time units as powers of ten of a second, scaled in decimal (`scaleDecimal`): 100ns is exactly 1e-7 s. */
const TIME_EXPONENT: Record<string, number> = { s: 0, ms: -3, us: -6, 'µs': -6, ns: -9, ps: -12 };

/** Parses a time such as `100ns`, `2us`, `2µs`, `1.5ms`, `0` into seconds. */
export function parseTime(text: string, field = 'time'): number {
  const m = new RegExp(`^\\s*${NUMBER}\\s*(s|ms|us|µs|ns|ps)?\\s*$`).exec(String(text));
  if (!m || (m[2] === undefined && Number(m[1]) !== 0)) {
    throw new InputError(field, text, 'a non-negative time with a unit such as 100ns, 2us, 1.5ms or 0');
  }
  const value = scaleDecimal(m[1], TIME_EXPONENT[m[2] ?? 's']);
  if (!Number.isFinite(value) || value < 0) throw new InputError(field, text, 'a non-negative finite time');
  if (value > MAX_TIME_S) throw new InputError(field, text, 'a time of at most 1e9s (about 32 years)');
  return value;
}

function scaled(value: number, units: [number, string][], digits: number): string {
  if (value === 0) return `0${units[units.length - 1][1]}`;
  for (const [factor, name] of units) {
    if (Math.abs(value) >= factor) return `${trim(value / factor, digits)}${name}`;
  }
  const [factor, name] = units[units.length - 1];
  return `${trim(value / factor, digits)}${name}`;
}

function trim(x: number, digits: number): string {
  return Number(x.toPrecision(digits)).toString();
}

/** 65536 -> "64KiB"; uses IEC prefixes for exact powers of 1024, SI otherwise. */
export function formatSize(bytes: number, digits = 4): string {
  const iec: [number, string][] = [[1024 ** 4, 'TiB'], [1024 ** 3, 'GiB'], [1024 ** 2, 'MiB'], [1024, 'KiB'], [1, 'B']];
  for (const [factor, name] of iec) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${name}`;
  }
  return scaled(bytes, [[1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'kB'], [1, 'B']], digits);
}

/** Bytes per second -> "25Gbps". */
export function formatBandwidth(bytesPerSecond: number, digits = 4): string {
  return scaled(bytesPerSecond * 8, [[1e12, 'Tbps'], [1e9, 'Gbps'], [1e6, 'Mbps'], [1e3, 'kbps'], [1, 'bps']], digits);
}

/** Seconds -> "2.1us". */
export function formatTime(seconds: number, digits = 4): string {
  return scaled(seconds, [[1, 's'], [1e-3, 'ms'], [1e-6, 'us'], [1e-9, 'ns'], [1e-12, 'ps']], digits);
}
