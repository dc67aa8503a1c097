/** Test helpers: build Chakra workloads in memory, as files, and run them. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeChakraRank, type ChakraRankTrace } from '../../src/workload/chakra/read.js';
import { encodeChakraRank, type ChakraNodeInit } from '../../src/workload/chakra/write.js';
import { assembleTrace, type ChakraTrace } from '../../src/workload/chakra/trace.js';
import { tempDir } from '../helpers/temp.js';

/** Each rank's nodes through the real encoder and decoder. */
export function traceOf(perRank: ReadonlyArray<readonly ChakraNodeInit[]>): ChakraTrace {
  const ranks: ChakraRankTrace[] = perRank.map((nodes, r) => decodeChakraRank(encodeChakraRank(nodes), `w.${r}.et`, r));
  return assembleTrace(ranks);
}

/** Writes `name.<rank>.et` files into a fresh directory and returns it. */
export function writeTraceDir(perRank: ReadonlyArray<readonly ChakraNodeInit[]>, name = 'w'): string {
  const dir = tempDir('chakra');
  perRank.forEach((nodes, r) => writeFileSync(join(dir, `${name}.${r}.et`), encodeChakraRank(nodes)));
  return dir;
}

/** A compute node of `us` microseconds. */
export function comp(id: number, us: number, deps: number[] = []): ChakraNodeInit {
  return { id, name: `comp${id}`, kind: 'comp', durationMicros: us, dataDeps: deps };
}

/**
 * The plain ring for the collectives whose default is the library's pick: tests whose expected
 * figures are hand-computed for the ring name it (library picks are pinned in library-pick.test.ts).
 */
export const RING_ALGORITHMS = { allreduce: 'ring', allgather: 'ring', 'reduce-scatter': 'ring' } as const;
