// Flow-level engine benchmarks (issue 4). Targets: hop-grouped alltoall on a 32×32×32 torus at
// 1 MiB per pair under 60 s and 8 GiB; pairwise alltoall on a 32×32 torus (over 1 M flows) under
// 30 s. Also reports seed 000's efficiencies on an 8×8 torus at 1 MiB (reported, not asserted).
import { buildTopology, runCollectiveFlow } from '../dist/index.js';

function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, seconds: (performance.now() - t0) / 1000 };
}

function gib() {
  return (process.memoryUsage().rss / 2 ** 30).toFixed(2);
}

export default async function () {
  const rows = [];
  const quick = process.env.MESHWORK_BENCH_QUICK === '1';

  // Seed 000 on 8×8 at 1 MiB: efficiency against the topology bound (flow level cannot see the
  // router effects the seed is about; the packet engine judges its claim).
  const t8 = buildTopology('torus:8x8');
  for (const alg of ['hop-grouped', 'per-step-barrier', 'linear', 'hop-grouped:areas=2n']) {
    const { value: r, seconds } = timed(() => runCollectiveFlow({ topology: t8, collective: 'alltoall', algorithm: alg, size: 1 << 20 }));
    rows.push({ name: `seed 000 efficiency ${alg} torus:8x8 1MiB`, value: r.efficiency.toFixed(3), unit: 'bound/makespan', target: 'reported', note: `makespan ${(r.makespan_s * 1e3).toFixed(2)} ms, schedule bound ${(r.schedule_bound_s * 1e3).toFixed(2)} ms, ${seconds.toFixed(2)} s` });
  }

  const pairwiseShape = quick ? 'torus:16x16' : 'torus:32x32';
  for (const mode of ['local']) {
    const t = buildTopology(pairwiseShape);
    const { value: r, seconds } = timed(() => runCollectiveFlow({ topology: t, collective: 'alltoall', algorithm: 'pairwise', size: 1 << 20, model: { rateUpdate: mode } }));
    rows.push({ name: `pairwise alltoall ${pairwiseShape} 1MiB (rateUpdate=${mode})`, value: seconds.toFixed(1), unit: 's', target: '< 30 s', note: `${r.stats.flows} flows, ${(r.stats.events / seconds).toFixed(0)} events/s, ${r.stats.rate_updates} rate updates, RSS ${gib()} GiB` });
  }

  const hopShape = quick ? 'torus:16x16x16' : 'torus:32x32x32';
  // Its own process, through the CLI the issue names, so that the peak RSS is this run's alone.
  rows.push(await hopGroupedRow(hopShape));
  return rows;
}

/**
 * `meshwork run ... --algorithm hop-grouped --size 1MiB` in a child process: wall, CPU and peak
 * RSS from GNU time when present, else from the child's own process.resourceUsage (a wrapper).
 */
async function hopGroupedRow(shape) {
  const { spawnSync } = await import('node:child_process');
  const { existsSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
  const args = [CLI, 'run', '--topology', shape, '--collective', 'alltoall', '--algorithm', 'hop-grouped', '--size', '1MiB', '--json'];
  const name = `hop-grouped alltoall ${shape} 1MiB (CLI, own process)`;
  const target = '< 60 s, < 8 GiB';
  const t0 = performance.now();
  const gnu = existsSync('/usr/bin/time');
  const r = gnu
    ? spawnSync('/usr/bin/time', ['-f', 'MWTIME %U %S %M', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync(process.execPath, ['--input-type=module', '-e', `process.argv.splice(1, 0, ${JSON.stringify(CLI)}); process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('MWTIME ' + u.userCPUTime / 1e6 + ' ' + u.systemCPUTime / 1e6 + ' ' + u.maxRSS + '\\n'); }); await import(${JSON.stringify(new URL('../dist/cli/main.js', import.meta.url).href)});`, ...args.slice(1)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (performance.now() - t0) / 1000;
  const m = /MWTIME ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  if (r.status !== 0 || !m) return { name, value: 'failed', unit: '', target, note: (r.stderr ?? '').trim().split('\n')[0].slice(0, 200) };
  const cpu = Number(m[1]) + Number(m[2]);
  const rss = Number(m[3]) / 2 ** 20;
  const res = JSON.parse(r.stdout);
  const ev = res.stats.events;
  return { name, value: wall.toFixed(1), unit: 's', target, note: `CPU ${cpu.toFixed(1)} s, peak RSS ${rss.toFixed(2)} GiB, ${res.stats.flows} flows, ${ev} events (${(ev / cpu).toFixed(0)}/CPU-s), ${res.stats.rate_updates} rate updates, efficiency ${res.efficiency.toFixed(3)}` };
}
