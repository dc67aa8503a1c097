/**
 * alltoallv's per-pair sizes (bytes from rank i to rank j at [i·n + j], row = sender) from a
 * generator spec, or from the text of a size-matrix file (the Node side reads the file):
 *   uniform:size=B                  every block B bytes (alltoall's traffic through alltoallv)
 *   random:max=B[,min=0][,seed=1]    each block uniform in [min, max], from a seeded stream
 *   diagonal:size=B[,far=0]          B to the next rank (i+1), `far` bytes to every other rank
 * A file holds n × n whole byte counts separated by spaces, commas or newlines (the format
 * test/reference/simgrid/src/coll.c reads for smpirun).
 */
import { InputError, LimitError, requireText } from '../util/errors.js';
import { Rng } from '../util/rng.js';
import { Spec } from '../util/spec.js';

export const ALLTOALLV_GENERATORS = ['uniform', 'random', 'diagonal'] as const;
/** Largest matrix (n² entries) Meshwork builds: 4,096 ranks. */
export const MAX_ALLTOALLV_ENTRIES = 4096 * 4096;

/** Whether `text` names a generator rather than a file. */
export function isAlltoallvGenerator(text: string): boolean {
  return (ALLTOALLV_GENERATORS as readonly string[]).includes(text.trim().split(':')[0].toLowerCase());
}

export function generateAlltoallvSizes(text: string, n: number, field = 'sizes'): Float64Array {
  if (n * n > MAX_ALLTOALLV_ENTRIES) throw new LimitError(field, `${n} ranks`, `${Math.sqrt(MAX_ALLTOALLV_ENTRIES)} ranks for alltoallv`);
  const spec = Spec.parse(text, field);
  const size = (key: string, dflt?: number): number => {
    const b = spec.size(key, dflt);
    if (b === undefined) throw new InputError(`${field}.${key}`, undefined, `${spec.family}:${key}=BYTES`);
    if (!Number.isSafeInteger(b)) throw new InputError(`${field}.${key}`, b, 'a whole number of bytes');
    return b;
  };
  const out = new Float64Array(n * n);
  switch (spec.family) {
    case 'uniform':
      out.fill(size('size'));
      break;
    case 'random': {
      const max = size('max');
      const min = size('min', 0);
      if (min > max) throw new InputError(`${field}.min`, min, `at most max = ${max}`);
      const rng = new Rng(spec.int('seed', { min: 0, max: 0xffffffff, default: 1 }));
      for (let k = 0; k < n * n; k++) out[k] = min + rng.int(max - min + 1);
      break;
    }
    case 'diagonal': {
      const near = size('size');
      const far = size('far', 0);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * n + j] = j === (i + 1) % n ? near : far;
      break;
    }
    default:
      throw new InputError(field, text, `${ALLTOALLV_GENERATORS.join(', ')} (e.g. random:max=64KiB,seed=3), or a size-matrix file`);
  }
  if (spec.positional !== undefined) throw new InputError(field, text, `${spec.family}:key=value,...`);
  spec.assertAllRead();
  return out;
}

/** A size-matrix file's text: n × n whole byte counts. */
export function parseAlltoallvSizes(text: string, n: number, field = 'sizes'): Float64Array {
  const tokens = requireText(text, field, 'n x n byte counts').split(/[\s,]+/).filter((t) => t !== '');
  if (tokens.length !== n * n) throw new InputError(field, `${tokens.length} numbers`, `${n} x ${n} = ${n * n} byte counts (row = sender), separated by spaces, commas or newlines`);
  const out = new Float64Array(n * n);
  tokens.forEach((t, k) => {
    if (!/^[0-9]+$/.test(t) || !Number.isSafeInteger(Number(t))) throw new InputError(`${field}[${Math.floor(k / n)}][${k % n}]`, t, 'a whole number of bytes');
    out[k] = Number(t);
  });
  return out;
}

/**
 * A RunRequest's `sizes` (src/sim/request.ts): a generator spec, an n x n matrix (rows = senders),
 * or a file path whose text `readText` gives (the core reads no files itself).
 */
export function alltoallvSizes(sizes: string | readonly (readonly number[])[], n: number, readText?: (path: string, field: string) => string): Float64Array {
  if (typeof sizes !== 'string') {
    if (sizes.length !== n || sizes.some((row) => row.length !== n)) {
      throw new InputError('sizes', `${sizes.length} rows of ${sizes.map((r) => r.length).join(', ')}`, `${n} rows of ${n} byte counts (row = sender)`);
    }
    if (n * n > MAX_ALLTOALLV_ENTRIES) throw new LimitError('sizes', `${n} ranks`, `${Math.sqrt(MAX_ALLTOALLV_ENTRIES)} ranks for alltoallv`);
    return Float64Array.from(sizes.flat());
  }
  if (isAlltoallvGenerator(sizes)) return generateAlltoallvSizes(sizes, n);
  if (!readText) throw new InputError('sizes', sizes, 'a generator (uniform:size=B, random:max=B, diagonal:size=B) or a matrix; a size-matrix file needs a RunIo that reads files');
  return parseAlltoallvSizes(readSizesFile(sizes, readText), n, `sizes(${sizes})`);
}

/**
 * The size-matrix file `sizes` names. A value that is neither a generator nor a readable file is
 * refused naming the generators too: a misspelt `unifrom:size=1KiB` was told only 'a readable file
 * (ENOENT ...)', as --mapping was before it named its orders.
 */
function readSizesFile(sizes: string, readText: (path: string, field: string) => string): string {
  try {
    return readText(sizes, 'sizes');
  } catch (err) {
    if (!(err instanceof InputError) || err instanceof LimitError) throw err;
    throw new InputError('sizes', sizes, `a generator (uniform:size=B, random:max=B[,min=0,seed=1], diagonal:size=B[,far=0]) or a file of n x n byte counts (${err.accepted})`);
  }
}
