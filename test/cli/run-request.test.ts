/** `meshwork run --request FILE` runs a saved RunRequest; the result records the request, which re-runs it exactly. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { runRequestJsonSchema } from '../../src/sim/request.js';

describe('run --request', () => {
  const dir = mkdtempSync(join(tmpdir(), 'meshwork-request-'));

  it('schemas/run-request.schema.json is the validator (generated from the option schema), exported', () => {
    const file = JSON.parse(readFileSync(new URL('../../schemas/run-request.schema.json', import.meta.url), 'utf8'));
    expect(file).toEqual(runRequestJsonSchema());
    expect(Object.keys(file.properties.model.properties)).toContain('simultaneity');
  });

  it('runs a saved request, and the request its result records gives the same makespan', () => {
    const path = join(dir, 'a.json');
    writeFileSync(path, JSON.stringify({ topology: 'torus:4x4', workload: { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 4096 }, model: { alpha: 2e-6 } }));
    const first = JSON.parse(runCli(['run', '--request', path]).stdout);
    expect(first.model.alpha).toBe(2e-6);
    expect(first.request).toMatchObject({ engine: 'flow', routing: { name: 'dor', seed: 1 } });
    // The same run through the CLI's own options.
    const viaFlags = JSON.parse(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '4KiB', '--alpha', '2us', '--json']).stdout);
    expect(first.makespan_s).toBe(viaFlags.makespan_s);
    const again = join(dir, 'b.json');
    writeFileSync(again, JSON.stringify(first.request));
    expect(JSON.parse(runCli(['run', '--request', again]).stdout).makespan_s).toBe(first.makespan_s);
  });

  it('refuses a bad request in one line naming the field', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ topology: 'torus:4x4', workload: { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 4096 }, model: { alpah: 1 } }));
    expect(expectOneLineError(runCli(['run', '--request', path]))).toMatch(/^meshwork: error: request\.model: got .*Unrecognized key/);
  });
});
