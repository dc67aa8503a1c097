/**
 * Issue 28 item 11: a sweep file's validation messages say what is accepted in our words, never the
 * schema library's ("accepted: Invalid input", "Too big: expected number to be <=100000").
 * Through the built CLI: one line, exit 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir, writeSweep } from '../helpers/sweep.js';

const dir = tempDir('sweep-messages');
const VALUES = 'a list of at least one value (a string, a number or true/false)';

describe('sweep file messages (issue 28 item 11)', () => {
  it.each([
    [{ kind: 'topo', repeat: { seeds: 1_000_000 } }, 'repeat.seeds: got 1000000; accepted: a whole number of seeds from 1 to 100000'],
    [{ kind: 'topo', repeat: { seeds: 1.5 } }, 'repeat.seeds: got 1.5; accepted: a whole number of seeds from 1 to 100000'],
    [{ kind: 'topo', axes: { topology: [{ a: 1 }] } }, `axes.topology: got [{"a":1}]; accepted: ${VALUES}, or a range "start:stop:step", "start:stop:*factor" or "start:stop:logN"`],
    [{ kind: 'bogus' }, 'kind: got "bogus"; accepted: run | traffic | topo | verify | workload'],
    [{ kind: 'topo', fixed: { topology: null } }, 'fixed.topology: got null; accepted: a string, a number or true/false'],
    [{ kind: 'topo', extra: 1 }, 'extra: got 1; accepted: only the keys kind, name, fixed, axes, zip and repeat'],
    [{ kind: 'topo', repeat: { seeds: 2, x: 1 } }, 'repeat.x: got 1; accepted: only the key seeds in repeat'],
    [{ kind: 'topo', zip: [{ topology: [] }] }, `zip[0].topology: got []; accepted: ${VALUES}`],
    [{ kind: 'topo', zip: { a: 1 } }, 'zip: got {"a":1}; accepted: a list of groups, each an object of option: values'],
    [[1, 2], 'sweep: got [1,2]; accepted: a YAML or JSON object with kind and fixed, axes, zip or repeat'],
    [{ kind: 'topo', name: 5 }, 'name: got 5; accepted: a string'],
  ])('%j', (body, expected) => {
    const file = writeSweep(dir, 'bad', body);
    const line = expectOneLineError(runCli(['sweep', 'run', file, '--store', join(dir, 'x.duckdb'), '--log', 'none']));
    expect(line).toBe(`meshwork: error: ${expected} (see schemas/sweep.schema.json)`);
    expect(line).not.toMatch(/Invalid input|Too big|expected (number|string|array)/);
  });
});

it('a store that DuckDB would open in memory (an existing .json file) is refused, not filled and lost', () => {
  const file = writeSweep(dir, 'ok', { kind: 'topo', fixed: { topology: 'ring:4' } });
  const store = join(dir, 'results.json');
  writeFileSync(store, '{}');
  const line = expectOneLineError(runCli(['sweep', 'run', file, '--store', store, '--log', 'none']));
  expect(line).toMatch(/^meshwork: error: store: got ".*results\.json"; accepted: a DuckDB file, or a path where none exists yet/);
  expect(readFileSync(store, 'utf8')).toBe('{}');
});
