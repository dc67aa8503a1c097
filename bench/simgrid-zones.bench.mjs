// SimGrid platforms of zones (src/interop/simgrid-platform.ts): SimGrid's g5k.xml (1,528 hosts in zones
// of FLAT clusters under a Floyd zone; 23.9 M link ids of routes) loaded alone, and a run on 64 of its
// hosts (alltoall pair, 64 KiB, --preset simgrid) against `smpirun` of the same case when SimGrid is on
// the PATH. Each in its own process under /usr/bin/time, MESHWORK_BENCH_REPEAT times (default 3),
// alternating; rows give the median: read the ratio, not the seconds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const CLI = join(here, '../dist/cli/main.js');
const REF = join(here, '../test/reference/simgrid');
const G5K = join(REF, 'examples/g5k.xml');
const HOSTS = join(REF, 'platforms/zones/hosts-g5k-64.txt');
const REPEAT = Math.max(1, Number(process.env.MESHWORK_BENCH_REPEAT ?? 3));

function run(cmd, args, cwd) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCHTIME %U %S %M', cmd, ...args], { encoding: 'utf8', cwd, maxBuffer: 1 << 26 });
  const wall = (performance.now() - t0) / 1000;
  const m = /BENCHTIME ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${cmd} failed: ${r.stderr.slice(-500)}`);
  return { wall, cpu: Number(m[1]) + Number(m[2]), rssMiB: Number(m[3]) / 1024, stdout: r.stdout };
}

const median = (runs) => [...runs].sort((a, b) => a.wall - b.wall)[Math.floor((runs.length - 1) / 2)];

export default async function bench() {
  const rows = [];
  const load = `import { readFileSync } from 'node:fs'; import { simgridTopology } from ${JSON.stringify(join(here, '../dist/index.js'))};
const t = simgridTopology(readFileSync(${JSON.stringify(G5K)}, 'utf8'), 'g5k.xml'); console.log(t.explicitRoutes.channels.length);`;
  const loads = Array.from({ length: REPEAT }, () => run(process.execPath, ['--input-type=module', '-e', load]));
  const l = median(loads);
  rows.push({ name: 'g5k.xml (1,528 hosts) loaded: CPU', value: l.cpu.toFixed(2), unit: 's', note: `median of ${REPEAT}; ${l.stdout.trim()} link ids of routes; peak ${l.rssMiB.toFixed(0)} MiB (whole process)` });
  const meshwork = () => run(process.execPath, [CLI, 'run', '--topology', `simgrid:${G5K}`, '--mapping', HOSTS, '--collective', 'alltoall', '--algorithm', 'pair', '--size', '64KiB', '--preset', 'simgrid', '--json']);
  const smpi = spawnSync('which', ['smpirun']).status === 0;
  if (!smpi) {
    const mw = median(Array.from({ length: REPEAT }, meshwork));
    rows.push({ name: 'meshwork run g5k, 64 hosts, alltoall pair 64 KiB', value: mw.wall.toFixed(2), unit: 's wall', note: `median of ${REPEAT}; no smpirun on the PATH` });
    return rows;
  }
  const work = mkdtempSync(join(tmpdir(), 'meshwork-zones-'));
  try {
    spawnSync('smpicc', ['-O2', '-o', join(work, 'coll'), join(REF, 'src/coll.c')], { encoding: 'utf8' });
    const smpirun = () => run('smpirun', ['-np', '64', '-platform', G5K, '-hostfile', HOSTS, '--cfg=network/model:CM02', '--cfg=network/crosstraffic:0', '--cfg=smpi/simulate-computation:no', '--cfg=smpi/alltoall:pair', '--log=root.thres:critical', './coll', 'alltoall', '65536'], work);
    const mws = [];
    const sgs = [];
    for (let i = 0; i < REPEAT; i++) {
      mws.push(meshwork());
      sgs.push(smpirun());
    }
    const [mw, sg] = [median(mws), median(sgs)];
    rows.push({ name: 'g5k, 64 hosts, alltoall pair 64 KiB: meshwork / smpirun wall', value: (mw.wall / sg.wall).toFixed(2), unit: '×', note: `medians of ${REPEAT}, alternating: meshwork ${mw.wall.toFixed(2)} s (CPU ${mw.cpu.toFixed(2)} s), smpirun ${sg.wall.toFixed(2)} s (CPU ${sg.cpu.toFixed(2)} s)` });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
