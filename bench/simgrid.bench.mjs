// Whole-process wall time of `meshwork run --preset simgrid` against `smpirun` on the same case:
// allreduce rab_rdb (Meshwork rabenseifner:order=near-first) of 1 MiB on a k×k×k torus,
// 10 GBps, 100 ns, at 64, 512 and 4,096 ranks (MESHWORK_BENCH_QUICK=1: 64 and 512). SimGrid's smpicc and
// smpirun must be on the PATH (Debian: libsimgrid-dev); without them only Meshwork's rows are given.
// Each runs MESHWORK_BENCH_REPEAT times (default 3) per size, alternating, on the same machine; the
// rows give the median wall time of each: read the ratio, not the seconds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const CLI = join(here, '../dist/cli/main.js');
const SOURCE = join(here, '../test/reference/simgrid/src/coll.c');
const SIZE = 1 << 20;

/** Runs a command under /usr/bin/time; returns wall seconds (measured here), CPU seconds and stdout. */
function run(cmd, args, cwd) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCHTIME %U %S', cmd, ...args], { encoding: 'utf8', cwd, maxBuffer: 1 << 28 });
  const wall = (performance.now() - t0) / 1000;
  const m = /BENCHTIME ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${cmd} failed: ${r.stderr.slice(-500)}`);
  return { wall, cpu: Number(m[1]) + Number(m[2]), stdout: r.stdout };
}

const REPEAT = Math.max(1, Number(process.env.MESHWORK_BENCH_REPEAT ?? 3));

/** The run with the median wall time of `runs` (an odd count gives a real run, not an average). */
function median(runs) {
  return [...runs].sort((a, b) => a.wall - b.wall)[Math.floor((runs.length - 1) / 2)];
}

function hasSmpi() {
  return spawnSync('smpicc', ['--version'], { encoding: 'utf8' }).status === 0 || spawnSync('which', ['smpirun']).status === 0;
}

export default async function bench() {
  const rows = [];
  const sides = process.env.MESHWORK_BENCH_QUICK ? [4, 8] : [4, 8, 16];
  const smpi = hasSmpi();
  const work = mkdtempSync(join(tmpdir(), 'meshwork-simgrid-'));
  try {
    if (smpi) spawnSync('smpicc', ['-O2', '-o', join(work, 'coll'), SOURCE], { encoding: 'utf8' });
    for (const k of sides) {
      const n = k * k * k;
      const meshworkRun = () => run(process.execPath, [CLI, 'run', '--topology', `torus:${k}x${k}x${k},bw=10GBps,lat=100ns`, '--collective', 'allreduce', '--algorithm', 'rabenseifner:order=near-first', '--size', String(SIZE), '--preset', 'simgrid', '--json']);
      if (!smpi) {
        const mw = median(Array.from({ length: REPEAT }, meshworkRun));
        const makespan = JSON.parse(mw.stdout).makespan_s;
        rows.push({ name: `meshwork run, ${n} ranks`, value: mw.wall.toFixed(2), unit: 's wall', note: `median of ${REPEAT}, CPU ${mw.cpu.toFixed(2)} s, makespan ${(makespan * 1e3).toFixed(4)} ms` });
        continue;
      }
      writeFileSync(
        join(work, 'torus.xml'),
        `<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n  <cluster id="t" prefix="node-" suffix="" radical="0-${n - 1}" speed="1Gf" bw="10GBps" lat="100ns" topology="TORUS" topo_parameters="${k},${k},${k}" sharing_policy="SPLITDUPLEX"/>\n</platform>\n`,
      );
      writeFileSync(join(work, 'hosts'), Array.from({ length: n }, (_, i) => `node-${i}\n`).join(''));
      const smpiRun = () => run('smpirun', ['-np', String(n), '-platform', 'torus.xml', '-hostfile', 'hosts', '--cfg=network/model:CM02', '--cfg=network/crosstraffic:0', '--cfg=smpi/simulate-computation:no', '--cfg=smpi/allreduce:rab_rdb', '--log=root.thres:critical', './coll', 'allreduce', String(SIZE)], work);
      const meshworkRuns = [];
      const smpiRuns = [];
      for (let i = 0; i < REPEAT; i++) {
        meshworkRuns.push(meshworkRun());
        smpiRuns.push(smpiRun());
      }
      const mw = median(meshworkRuns);
      const sg = median(smpiRuns);
      const makespan = JSON.parse(mw.stdout).makespan_s;
      const sgMakespan = Number(/makespan_s=(\S+)/.exec(sg.stdout)[1]);
      rows.push({ name: `meshwork run, ${n} ranks`, value: mw.wall.toFixed(2), unit: 's wall', note: `median of ${REPEAT}, CPU ${mw.cpu.toFixed(2)} s, makespan ${(makespan * 1e3).toFixed(4)} ms` });
      rows.push({ name: `smpirun, ${n} ranks`, value: sg.wall.toFixed(2), unit: 's wall', note: `median of ${REPEAT}, CPU ${sg.cpu.toFixed(2)} s, makespan ${(sgMakespan * 1e3).toFixed(4)} ms` });
      rows.push({ name: `meshwork / smpirun wall, ${n} ranks`, value: (mw.wall / sg.wall).toFixed(2), unit: '×', note: `makespan error ${((makespan / sgMakespan - 1) * 100).toFixed(1)} %` });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
