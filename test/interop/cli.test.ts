/** The CLI over MSCCL-XML: `collective verify|export --schedule`, `run --schedule` (built dist/, as npm test runs it). */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const dir = fileURLToPath(new URL('../../../shared/reference/msccl/', import.meta.url));
const tmp = tempDir('interop');

describe('meshwork over MSCCL-XML', () => {
  test('verify: the ring file passes (exit 0), ndv2 fails (exit 1)', () => {
    const ok = runCli(['collective', 'verify', '--schedule', `${dir}allreduce_ring_8gpu_ll128.xml`, '--topology', 'fullmesh:8', '--size', '64KiB']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^PASS allreduce msccl-xml:allreduce_ring_1channelsperring,proto=LL128 on fullmesh:8: 8 ranks/);
    const bad = runCli(['collective', 'verify', '--schedule', `${dir}allreduce_ndv2_8gpu_simple.xml`, '--topology', 'fullmesh:8', '--size', '1KiB']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL allreduce/);
  });

  test('run: times the all-pairs file with LL\'s overhead as α and its doubled wire bytes', () => {
    const r = runCli(['run', '--schedule', `${dir}allreduce_allpairs_8gpu_ll.xml`, '--topology', 'fullmesh:8', '--size', '64KiB', '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { model: { alpha: number }; stats: { bytes: number } };
    expect(result.model.alpha).toBe(0.47e-6);
    // 896 s steps of one 1 KiB chunk (64 KiB / 64 chunks), 16 wire bytes per 8.
    expect(result.stats.bytes).toBe(896 * 1024 * 2);
  });

  test('a broken file is one line naming the step, exit 2', () => {
    const broken = join(tmp, 'broken.xml');
    writeFileSync(broken, readFileSync(`${dir}allreduce_ring_8gpu_ll128.xml`, 'utf8').replace('type="rrs"', 'type="rrx"'));
    const line = expectOneLineError(runCli(['collective', 'verify', '--schedule', broken, '--topology', 'fullmesh:8', '--size', '64KiB']));
    expect(line).toBe(`meshwork: error: schedule(${broken}).gpu[0].tb[0].step[1].type: got "rrx"; accepted: a step type: s, r, re, rcs, rrs, rrc, rrcs, cpy, nop`);
    expect(expectOneLineError(runCli(['run', '--schedule', `${dir}allreduce_ring_8gpu_ll128.xml`, '--topology', 'fullmesh:8']))).toMatch(/^meshwork: error: size: got \(nothing\)/);
  });

  test('export → verify: the ring allreduce in MSCCL-XML; bruck refused with its reason and no file', () => {
    const out = join(tmp, 'ring.xml');
    const e = runCli(['collective', 'export', '--topology', 'torus:4x4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '64KiB', '--format', 'msccl-xml', '--out', out]);
    expect(e.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^<algo name="ring" proto="Simple" nchannels="\d+" nchunksperloop="16" ngpus="16" coll="allreduce" inplace="0">/);
    const v = runCli(['collective', 'verify', '--schedule', out, '--topology', 'torus:4x4', '--size', '64KiB']);
    expect(v.code).toBe(0);
    const refused = join(tmp, 'bruck.xml');
    const line = expectOneLineError(runCli(['collective', 'export', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'bruck', '--size', '1KiB', '--format', 'msccl-xml', '--out', refused]));
    expect(line).toMatch(/^meshwork: error: format: got "msccl-xml"; accepted: a schedule MSCCL-XML can express; bruck has non-contiguous regions/);
    expect(existsSync(refused)).toBe(false);
    // --proto is an msccl-xml attribute: with json it was ignored in silence.
    expect(expectOneLineError(runCli(['collective', 'export', '--topology', 'torus:4x4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '64KiB', '--format', 'json', '--proto', 'LL']))).toBe(
      'meshwork: error: proto: got "LL"; accepted: nothing with --format json (an msccl-xml attribute)',
    );
  });
});
