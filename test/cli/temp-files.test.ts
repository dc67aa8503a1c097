/**
 * The CLI leaves nothing in the system's temporary directory, after a normal run or a refused one:
 * each command here runs with TMPDIR pointed at an empty directory, which must stay empty.
 * `sweep export --out -` is the one command that writes there (DuckDB writes a file, which is then
 * copied to standard output); a file a killed export left is swept by the next.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('the CLI and the temporary directory', () => {
  const tmp = tempDir('tmpdir');
  const work = tempDir('tmpdir-work');
  const cli = (args: string[]): number => runCli(args, { cwd: work, env: { TMPDIR: tmp } }).code;
  writeFileSync(join(work, 's.json'), JSON.stringify({ kind: 'topo', name: 't', axes: { topology: ['ring:4', 'ring:6'] } }));

  it('runs, exports and refusals leave it empty', () => {
    expect(cli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '4KiB'])).toBe(0);
    expect(cli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '4KiB', '--engine', 'packet'])).toBe(0);
    expect(cli(['workload', 'export', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB', '--out', 'et'])).toBe(0);
    expect(cli(['sweep', 'run', 's.json', '--store', 's.duckdb', '--log', 'none'])).toBe(0);
    for (const format of ['csv', 'json', 'parquet']) expect(cli(['sweep', 'export', '--store', 's.duckdb', '--format', format, '--out', '-'])).toBe(0);
    expect(cli(['sweep', 'export', '--store', 'absent.duckdb', '--format', 'csv', '--out', '-'])).toBe(2);
    expect(cli(['run', '--topology', 'torus:0x4', '--algorithm', 'pairwise', '--size', '4KiB'])).toBe(2);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("sweep export --out - sweeps a dead process's file, and leaves a live one's", () => {
    const dead = '.meshwork-export.999999999.tmp';
    const live = `.meshwork-export.${process.pid}.tmp`;
    writeFileSync(join(tmp, dead), 'left by a killed export');
    writeFileSync(join(tmp, live), 'an export still running');
    expect(cli(['sweep', 'run', 's.json', '--store', 's.duckdb', '--log', 'none'])).toBe(0);
    expect(cli(['sweep', 'export', '--store', 's.duckdb', '--format', 'csv', '--out', '-'])).toBe(0);
    expect(readdirSync(tmp)).toEqual([live]);
  });
});
