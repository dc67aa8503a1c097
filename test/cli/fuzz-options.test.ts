/**
 * Issue 16's fuzz test: random values for every command's options. Whatever the values, a command
 * exits 0 or 2; on 2 it prints exactly one line on stderr and leaves no file behind. Values are
 * small or malformed (never a valid huge run) so each case takes seconds.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const junk = fc.oneof(
  fc.constantFrom('', ' ', '-1', '0', '1', '2', '3', '7', 'NaN', 'Infinity', '1e309', '0.1,,0.2', 'x', '1KiB', '-1KiB', '1TiB', '4:1:1', '0.1:0.2:0.05', 'a=b', ':', ',', '🙂', '/proc/x/y', 'missing/x', 'out.json'),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 70 }).map(String),
);
const topology = fc.oneof(fc.constantFrom('torus:2x2', 'mesh:2x3', 'ring:4', 'hypercube:2', 'fullmesh:3', 'dragonfly:h=1', 'torus:0x2', 'torus:99999999', 'file:none.json'), junk);
const collective = fc.oneof(fc.constantFrom('alltoall', 'broadcast', 'allreduce', 'barrier', 'one-to-one'), junk);
const algorithm = fc.oneof(fc.constantFrom('pairwise', 'linear', 'bruck', 'ring', 'hop-grouped', 'binomial', 'dissemination'), junk);

/** Each command with generators for its options; flags are present or absent. */
const commands: Record<string, fc.Arbitrary<string[]>> = {
  topo: fc.tuple(topology, fc.record({ '--method': fc.constantFrom('auto', 'all-pairs', 'sampled', 'x'), '--samples': junk, '--seed': junk, '--workers': junk, '--mapping': junk }, { requiredKeys: [] }), fc.subarray(['--json', '--no-bisection'])).map(([t, o, f]) => ['topo', t, ...flat(o), ...f]),
  export: fc.tuple(topology, fc.record({ '--format': fc.constantFrom('json', 'graphml', 'dot', 'svg'), '--out': junk, '--mapping': junk }, { requiredKeys: [] })).map(([t, o]) => ['export', t, ...flat(o)]),
  table: fc.record({ '--size': fc.constantFrom('1024', '2048', 'x'), '--extra-stage': fc.constantFrom('a', 'b', 'c') }, { requiredKeys: [] }).map((o) => ['table', 'mdce', ...flat(o)]),
  verify: fc.record({ '--topology': topology, '--collective': collective, '--algorithm': algorithm, '--size': junk, '--root': junk, '--mode': fc.constantFrom('bytes', 'chunks', 'x'), '--out': junk, '--dtype': junk, '--op': junk }, { requiredKeys: [] }).map((o) => ['collective', 'verify', ...flat(o)]),
  run: fc.record({ '--topology': topology, '--collective': collective, '--algorithm': algorithm, '--size': junk, '--engine': fc.constantFrom('flow', 'packet', 'x'), '--trace': junk, '--alpha': junk, '--nics': junk, '--tie': junk, '--routing': junk, '--injection': junk, '--noise': fc.oneof(fc.constantFrom('skew=1us', 'jitter=0.1us,seed=2', 'os=1us,osprob=0.5'), junk) }, { requiredKeys: [] }).map((o) => ['run', ...flat(o)]),
  compare: fc.record({ '--topology': topology, '--collective': collective, '--size': junk, '--seed': junk }, { requiredKeys: [] }).map((o) => ['compare', ...flat(o)]),
  traffic: fc.record({ '--topology': topology, '--pattern': fc.oneof(fc.constantFrom('uniform', 'transpose', 'hotspot'), junk), '--rates': junk, '--horizon': junk, '--vcs': junk, '--packet-size': junk, '--csv': junk, '--plot': junk, '--seed': junk }, { requiredKeys: [] }).map((o) => ['traffic', ...flat(o)]),
  reproduce: fc.tuple(junk, fc.record({ '--out': junk }, { requiredKeys: [] })).map(([seed, o]) => ['reproduce', `9${seed}`, ...flat(o)]),
};

function flat(o: Record<string, string>): string[] {
  return Object.entries(o).flatMap(([k, v]) => [k, v]);
}

describe('fuzz: every command, random option values (issue 16)', () => {
  it('exits 0 or 2; on 2, one line on stderr and no file left', () => {
    fc.assert(
      fc.property(fc.oneof(...Object.values(commands)), (args) => {
        const dir = mkdtempSync(join(tmpdir(), 'meshwork-fuzz-'));
        try {
          const r = runCli(args, { cwd: dir, timeoutMs: 60_000 });
          expect([0, 2], `${JSON.stringify(args)} → ${r.code}: ${r.stderr}`).toContain(r.code);
          if (r.code === 2) {
            expect(r.stderr.trim().split('\n'), JSON.stringify(args)).toHaveLength(1);
            expect(readdirSync(dir), JSON.stringify(args)).toEqual([]);
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 12, seed: 16 },
    );
  }, 900_000);
});
