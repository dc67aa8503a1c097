/**
 * A new user's own inputs through the built CLI (h-user): each case a finding of running the user
 * stories with hand-written files, guided by README.md and docs/.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'meshwork-own-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('a disconnected graph of ones own', () => {
  // Two islands {0, 1} and {2, 3}: topo reports the unreachable pairs; timing it is refused naming
  // the topology (it was `route: got "1 -> 3"; accepted: a pair of nodes joined by a path`).
  const disc = file('disc.json', JSON.stringify({ format: 'meshwork-topology', version: 1, nodes: 4, links: [{ src: 0, dst: 1 }, { src: 2, dst: 3 }] }));
  const refused = `meshwork: error: topology: got "file:${disc}"; accepted: a connected network: every rank must reach every other (2 of 4 ranks, rank 2 first, cannot reach rank 0); topo shows the unreachable pairs`;
  it.each([
    ['run', ['run', '--topology', `file:${disc}`, '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB']],
    ['run --engine packet', ['run', '--topology', `file:${disc}`, '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB', '--engine', 'packet']],
    ['compare', ['compare', '--topology', `file:${disc}`, '--collective', 'alltoall', '--size', '1KiB']],
    ['traffic', ['traffic', '--topology', `file:${disc}`, '--pattern', 'uniform', '--rates', '0.05']],
    ['perf', ['perf', '--topology', `file:${disc}`, '-b', '8', '-e', '64']],
  ])('%s refuses it in one line naming the topology', (_name, args) => {
    expect(expectOneLineError(runCli(args))).toBe(refused);
  });

  it('topo still analyses it', () => {
    const r = runCli(['topo', `file:${disc}`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).unreachable_pairs).toBe(8);
  });
});
