/**
 * A workload from its rank files' names and bytes, with no file system: the CLI (node/chakra.ts)
 * reads them from disk, Studio from the files the user opened. Names follow ASTRA-sim's layout,
 * `name.<rank>.et`, ranks 0 to N−1 with no gap and one prefix.
 */
import { InputError } from '../../util/errors.js';
import { maxOf } from '../../util/arrays.js';
import { decodeChakraRank, type ChakraRankTrace } from './read.js';
import { assembleTrace, type ChakraTrace, type DependencyKinds, type ProcessGroups } from './trace.js';

export const RANK_FILE = /^(.*)\.(\d+)\.et$/;

/** `items` ordered by the rank their file name carries (the last path component); refuses gaps, duplicates and mixtures. */
export function orderByRank<T>(items: readonly T[], nameOf: (item: T) => string): T[] {
  const byRank = new Map<number, T>();
  let prefix: string | undefined;
  for (const item of items) {
    const name = nameOf(item);
    const m = RANK_FILE.exec(name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1));
    if (!m) throw new InputError('trace', name, 'a file named name.<rank>.et (ASTRA-sim layout)');
    if (prefix !== undefined && m[1] !== prefix) throw new InputError('trace', name, `files of one workload (${prefix}.<rank>.et)`);
    prefix = m[1];
    const rank = Number(m[2]);
    if (byRank.has(rank)) throw new InputError('trace', name, `one file per rank (rank ${rank} is also ${nameOf(byRank.get(rank)!)})`);
    byRank.set(rank, item);
  }
  const n = byRank.size;
  for (let r = 0; r < n; r++) {
    if (!byRank.has(r)) throw new InputError('trace', `${prefix}.${r}.et missing`, `one file per rank 0 to ${maxOf([...byRank.keys()])} (rank ${r} has none)`);
  }
  return [...Array(n).keys()].map((r) => byRank.get(r)!);
}

export interface RankFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface TraceFileOptions {
  readonly groups?: ProcessGroups;
  readonly deps?: DependencyKinds;
  /** One file given: the same trace on this many ranks (SPMD), so its collectives span them. */
  readonly replicate?: number;
}

/** Decodes, checks and assembles a workload from its rank files. */
export function traceFromRankFiles(files: readonly RankFile[], opts: TraceFileOptions = {}): ChakraTrace {
  if (files.length === 0) throw new InputError('trace', undefined, 'a directory of name.<rank>.et files, or the files');
  let ranks: ChakraRankTrace[] = orderByRank(files, (f) => f.name).map((f, r) => decodeChakraRank(f.bytes, f.name, r));
  const replicate = opts.replicate;
  if (replicate !== undefined) {
    if (ranks.length !== 1) throw new InputError('replicate', replicate, `a trace of one file (this one has ${ranks.length})`);
    if (!(Number.isInteger(replicate) && replicate >= 1 && replicate <= 65536)) throw new InputError('replicate', replicate, 'an integer from 1 to 65536');
    const only = ranks[0];
    ranks = Array.from({ length: replicate }, (_, r) => ({ ...only, rank: r }));
  }
  return assembleTrace(ranks, opts.groups, opts.deps ?? 'both');
}
