// MSCCL-XML import: the 2,240-step all-pairs reference file imported and verified (target < 1 s),
// and a generated 1,024-GPU hierarchical alltoall (2.23 M steps, bench/msccl-alltoall.mjs) imported,
// verified (chunk mode) and timed at flow level (target < 60 s and 2 GiB). Each runs in its own
// process under /usr/bin/time (whole-process CPU seconds and peak resident memory); the phase
// seconds are CPU seconds inside that process. MESHWORK_BENCH_QUICK=1: 256 GPUs instead of 1,024.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHierarchicalAlltoall } from './msccl-alltoall.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const ALLPAIRS = join(here, '../../shared/reference/msccl/allreduce_allpairs_8gpu_ll.xml');

function run(args) {
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCHTIME %U %S %M', process.execPath, join(here, 'msccl-run.mjs'), ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const m = /BENCHTIME ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`msccl-run failed: ${r.stderr.slice(-500)}`);
  return { cpu: Number(m[1]) + Number(m[2]), rssMiB: Number(m[3]) / 1024, ...JSON.parse(r.stdout) };
}

export default async function bench() {
  const rows = [];
  const ap = run([ALLPAIRS, 'fullmesh:8', String(64 * 1024), 'bytes']);
  rows.push({ name: 'all-pairs 2,240 steps: read+build+verify', value: (ap.read_s + ap.build_s + ap.verify_s).toFixed(3), unit: 's CPU', target: '< 1 s', note: `pass=${ap.pass}; whole process (start-up included) ${ap.cpu.toFixed(2)} s CPU` });
  const work = mkdtempSync(join(tmpdir(), 'meshwork-msccl-'));
  try {
    const nodes = process.env.MESHWORK_BENCH_QUICK ? 32 : 128;
    const file = join(work, 'alltoall.xml');
    writeHierarchicalAlltoall(file, nodes, 8);
    const a = run([file, `twolevel:leaves=${nodes},hosts=8`, '1024', 'chunks']);
    const note = `${a.steps} steps, ${a.messages} messages, pass=${a.pass}; read ${a.read_s.toFixed(1)} s, build ${a.build_s.toFixed(1)} s, verify ${a.verify_s.toFixed(1)} s, flow ${a.time_s.toFixed(1)} s (CPU)`;
    rows.push({ name: `alltoall ${nodes * 8} GPUs: import+verify+flow, CPU`, value: a.cpu.toFixed(1), unit: 's', target: '< 60 s', note });
    rows.push({ name: `alltoall ${nodes * 8} GPUs: peak resident memory`, value: a.rssMiB.toFixed(0), unit: 'MiB', target: '< 2048 MiB', note: 'whole process' });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
