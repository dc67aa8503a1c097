/**
 * Where `workload export` and `workload generate` write: a directory of `name.<rank>.et` files,
 * checked before any work (an existing file, or a directory that already holds this workload's
 * files, is refused rather than mixed), then written through writeOutputs (every file or none).
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../../util/errors.js';
import { checkParent, planOutput, writeOutputs } from '../outputs.js';
import { encodeChakraRank, type ChakraNodeInit } from '../../workload/chakra/write.js';

export function planOutputDir(out: string, name: string): string {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name)) throw new InputError('name', name, 'a file name prefix of letters, digits, _ . -');
  const dir = resolve(out);
  let st;
  try {
    st = statSync(dir);
  } catch {
    checkParent('out', out, dir);
    return dir;
  }
  if (!st.isDirectory()) throw new InputError('out', out, 'a directory (missing, or without .et files of this name)');
  const clash = readdirSync(dir).find((f) => f.startsWith(`${name}.`) && f.endsWith('.et'));
  if (clash) throw new InputError('out', out, `a directory without ${name}.<rank>.et files (it holds ${clash}; choose another --out or --name)`);
  return dir;
}

export function writeRankFiles(dir: string, name: string, ranks: ReadonlyArray<readonly ChakraNodeInit[]>): void {
  mkdirSync(dir, { recursive: true });
  writeOutputs(ranks.map((nodes, r) => [planOutput(join(dir, `${name}.${r}.et`), 'out'), encodeChakraRank(nodes)] as const));
}
