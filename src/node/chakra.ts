/**
 * Finds and reads a Chakra workload's files: a directory of `name.<rank>.et`, or the files
 * themselves (one per rank, numbered 0 to N−1 with no gap). Everything else is the platform-
 * neutral reader's (workload/chakra).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../util/errors.js';
import { appendAll } from '../util/arrays.js';
import type { ChakraTrace, DependencyKinds } from '../workload/chakra/trace.js';
import { orderByRank, RANK_FILE, type RankFile } from '../workload/chakra/files.js';
import { readTrace, type WorkloadIo } from '../workload/request.js';
import { nodeRunIo } from './run-io.js';

/** The rank files `paths` name (directories expanded), ordered by rank; refuses gaps and mixtures. */
export function chakraFiles(paths: readonly string[]): string[] {
  if (paths.length === 0) throw new InputError('trace', undefined, 'a directory of name.<rank>.et files, or the files');
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
  return orderByRank(files, (f) => f);
}

/** The rank files `paths` name, read from disk (a workload request's RunIo part). */
export function readRankFiles(paths: readonly string[]): RankFile[] {
  return chakraFiles(paths).map((f) => ({ name: f, bytes: readFileSync(f) }));
}

/** The RunIo of Node front ends for requests of every kind: nodeRunIo and the rank files of a workload. */
export const nodeWorkloadIo: WorkloadIo = { ...nodeRunIo, readRankFiles };

/** Reads, decodes and checks a workload; `commGroups`: ASTRA-sim's communicator-group JSON file. */
export function loadChakraTrace(paths: readonly string[], commGroups?: string, deps: DependencyKinds = 'both', replicate?: number): ChakraTrace {
  return readTrace({ paths, commGroups, deps, replicate }, nodeWorkloadIo);
}
