/**
 * Platforms Meshwork exports (`meshwork export --format simgrid`) load and run in real SimGrid 3.32:
 * SMPI times an MPI collective on each (test/reference/simgrid/src/coll.c, built with smpicc), and
 * Meshwork's `simgrid` preset on the same topology gives the same makespan within 2 % (the target of
 * docs/flow.md, "Comparing with SimGrid SMPI"). CI installs SimGrid (.ci/apt-packages: libsimgrid-dev,
 * gcc), so this test always runs; it takes about 2 s of CPU.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTopology } from '../../src/topology/registry.js';
import '../../src/topology/index.js';
import { topologyToSimgrid } from '../../src/interop/simgrid.js';
import { flowPreset, runCollectiveFlow, type CollectiveKind } from '../../src/index.js';

const SMPI_CONFIG = ['--cfg=network/model:CM02', '--cfg=network/crosstraffic:0', '--cfg=smpi/simulate-computation:no', '--log=root.thres:critical'];
let work = '';

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'meshwork-smpirun-'));
  execFileSync('smpicc', ['-O2', '-o', join(work, 'coll'), 'test/reference/simgrid/src/coll.c'], { stdio: 'pipe' });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** smpirun's makespan of one collective on the platform Meshwork exported for `spec`. */
function smpiMakespan(spec: string, collective: string, smpiAlgorithm: string, bytes: number): { seconds: number; xml: string } {
  const t = buildTopology(spec);
  const xml = topologyToSimgrid(t);
  writeFileSync(join(work, 'platform.xml'), xml);
  writeFileSync(join(work, 'hosts'), Array.from({ length: t.numEndpoints }, (_, i) => `host${i}\n`).join(''));
  const out = execFileSync(
    'smpirun',
    ['-np', String(t.numEndpoints), '-platform', 'platform.xml', '-hostfile', 'hosts', ...SMPI_CONFIG, `--cfg=smpi/${collective}:${smpiAlgorithm}`, './coll', collective, String(bytes)],
    { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const m = /makespan_s=(\S+)/.exec(out);
  if (!m) throw new Error(`smpirun printed no makespan: ${out}`);
  return { seconds: Number(m[1]), xml };
}

describe('exported SimGrid platforms run in SimGrid SMPI and agree with the simgrid preset', () => {
  const preset = flowPreset('simgrid');
  test.each([
    // [Meshwork topology, platform form, SMPI collective:algorithm, Meshwork collective, algorithm, bytes]
    ['dragonfly:a=4,p=2,h=1,g=4,wiring=simgrid,bw=10GBps,lat=100ns', 'topology="DRAGONFLY"', 'alltoall:pair', 'alltoall', 'pairwise:order=xor', 65536],
    ['torus:4x4x2,bw=10GBps,lat=100ns', 'topology="TORUS"', 'allreduce:rab_rdb', 'allreduce', 'rabenseifner:order=near-first', 1 << 20],
    ['dragonfly:a=4,p=2,h=1,g=5,bw=10GBps,lat=100ns', 'routing="Full"', 'allgather:NTSLR', 'allgather', 'ring', 65536],
  ] as const)('%s (%s) %s', (spec, form, smpi, collective, algorithm, bytes) => {
    const [smpiCollective, smpiAlgorithm] = smpi.split(':');
    const { seconds, xml } = smpiMakespan(spec, smpiCollective, smpiAlgorithm, bytes);
    expect(xml).toContain(form);
    const meshwork = runCollectiveFlow({
      topology: buildTopology(spec),
      collective: collective as CollectiveKind,
      algorithm,
      size: bytes,
      routingOptions: preset.routing,
      model: preset.model,
    });
    expect(Math.abs(meshwork.makespan_s / seconds - 1) * 100, `Meshwork ${meshwork.makespan_s} s, SMPI ${seconds} s`).toBeLessThanOrEqual(2);
  });
});
