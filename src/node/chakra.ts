/**
 * Finds and reads a Chakra workload's files: a directory of `name.<rank>.et`, or the files
 * themselves (one per rank, numbered 0 to N−1 with no gap). Everything else is the platform-
 * neutral reader's (workload/chakra).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError } from '../util/errors.js';
import { appendAll, maxOf } from '../util/arrays.js';
import { decodeChakraRank, type ChakraRankTrace } from '../workload/chakra/read.js';
import { assembleTrace, parseCommGroups, type ChakraTrace, type DependencyKinds } from '../workload/chakra/trace.js';

const RANK_FILE = /^(.*)\.(\d+)\.et$/;

/** The rank files `paths` name (directories expanded), ordered by rank; refuses gaps and mixtures. */
export function chakraFiles(paths: readonly string[]): string[] {
  if (paths.length === 0) throw new InputError('trace', '(nothing)', 'a directory of name.<rank>.et files, or the files');
  const files: string[] = [];
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      throw new InputError('trace', p, 'an existing directory or .et file');
    }
    if (isDir) {
      const found = readdirSync(p).filter((f) => RANK_FILE.test(f)).map((f) => join(p, f));
      if (found.length === 0) throw new InputError('trace', p, 'a directory holding name.<rank>.et files');
      appendAll(files, found);
    } else files.push(p);
  }
  const byRank = new Map<number, string>();
  let prefix: string | undefined;
  for (const f of files) {
    const m = RANK_FILE.exec(basename(f));
    if (!m) throw new InputError('trace', f, 'a file named name.<rank>.et (ASTRA-sim layout)');
    if (prefix !== undefined && m[1] !== prefix) throw new InputError('trace', f, `files of one workload (${prefix}.<rank>.et)`);
    prefix = m[1];
    const rank = Number(m[2]);
    if (byRank.has(rank)) throw new InputError('trace', f, `one file per rank (rank ${rank} is also ${byRank.get(rank)})`);
    byRank.set(rank, f);
  }
  const n = byRank.size;
  for (let r = 0; r < n; r++) {
    if (!byRank.has(r)) throw new InputError('trace', `${prefix}.${r}.et missing`, `one file per rank 0 to ${maxOf([...byRank.keys()])} (rank ${r} has none)`);
  }
  return [...Array(n).keys()].map((r) => byRank.get(r)!);
}

/** Reads, decodes and checks a workload; `commGroups`: ASTRA-sim's communicator-group JSON file. */
export function loadChakraTrace(paths: readonly string[], commGroups?: string, deps: DependencyKinds = 'both', replicate?: number): ChakraTrace {
  let ranks: ChakraRankTrace[] = chakraFiles(paths).map((f, r) => decodeChakraRank(readFileSync(f), f, r));
  if (replicate !== undefined) {
    // SPMD: one rank's trace stands for every rank (a single PyTorch rank's trace, for example).
    if (ranks.length !== 1) throw new InputError('replicate', replicate, `a trace of one file (this one has ${ranks.length})`);
    if (!(Number.isInteger(replicate) && replicate >= 1 && replicate <= 65536)) throw new InputError('replicate', replicate, 'an integer from 1 to 65536');
    const only = ranks[0];
    ranks = Array.from({ length: replicate }, (_, r) => ({ ...only, rank: r }));
  }
  let groups;
  if (commGroups !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(commGroups, 'utf8'));
    } catch (err) {
      throw new InputError('comm-groups', commGroups, `a readable JSON file (${(err as Error).message.split('\n')[0]})`);
    }
    groups = parseCommGroups(json, ranks.length);
  }
  return assembleTrace(ranks, groups, deps);
}
