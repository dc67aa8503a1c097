import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';

describe('meshwork CLI basics', () => {
  it('topo prints the shape of a torus', () => {
    const r = runCli(['topo', 'torus:8x8x8', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.nodes).toBe(512);
    expect(out.channels).toBe(512 * 6);
  });
  it('refuses bad input with one line and exit code 2', () => {
    expect(expectOneLineError(runCli(['topo', 'torus:0x8']))).toMatch(/topology.dims/);
    expect(expectOneLineError(runCli(['topo', 'nosuch:3']))).toMatch(/topology family/);
    expect(expectOneLineError(runCli(['nosuchcommand']))).toMatch(/unknown command/);
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--collective', 'barrier', '--algorithm', 'dissemination', '--size', '1KiB']))).toBe(
      'meshwork: error: size: got "1KiB"; accepted: nothing with --collective barrier (it moves no data)',
    );
    expect(expectOneLineError(runCli(['topo', 'torus:4x4', '--method', 'all-pairs', '--samples', '5']))).toBe(
      'meshwork: error: samples: got "5"; accepted: nothing with --method all-pairs (sources of the sampled method, or of auto when it samples)',
    );
    expect(expectOneLineError(runCli(['help', 'nosuchcommand']))).toBe("meshwork: error: unknown command 'nosuchcommand' (meshwork help lists the commands)");
    expect(runCli(['help', 'topo'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: meshwork topo/) });
  });
  it("--version and -V print package.json's version, alone (src/cli/main.ts) or beside other options (commander)", () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const args of [['--version'], ['-V'], ['--version', '--help']]) expect(runCli(args)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
  it('refuses a size beyond the node limit, naming it', () => {
    expect(expectOneLineError(runCli(['topo', 'torus:4096x4096x2']))).toMatch(/at most 16777216 nodes/);
  });
});
