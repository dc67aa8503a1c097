// Flow-level scale table (issue 29): ranks × algorithm × topology, each point `meshwork run` in its
// own process (CPU = user + sys and peak RSS from GNU time, flow events per CPU second from the
// result's stats), and per series the fitted exponent of CPU against ranks (least squares on
// log CPU = e · log ranks + c, over the points of at least 1 CPU s, where start-up no longer
// dominates). Issue 29's targets are rows of their own, medians of MESHWORK_SCALE_RUNS runs
// (default 3; 2 for a case over a minute of CPU), each with a verdict (met / not met). MESHWORK_BENCH_QUICK=1 keeps the small points only;
// MESHWORK_SCALE_TARGETS=1 runs the target rows only (the series take over an hour under load);
// MESHWORK_SCALE_CPU_LIMIT=s stops a run after s CPU seconds (ulimit -t, default 3,600; reported "stopped", not met):
// a CPU limit rather than a wall-clock one, so a loaded machine does not stop a run early.
// MESHWORK_SCALE_DOC=1 rewrites the table in docs/performance.md (between its scale-table markers) with the load it ran under.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const DOC = fileURLToPath(new URL('../docs/performance.md', import.meta.url));

/** One run: CPU s, peak RSS GiB, flow events, makespan; or the refusal / failure text. */
function runOnce(topology, collective, algorithm, size) {
  const args = [CLI, 'run', '--topology', topology, '--collective', collective, '--algorithm', algorithm, '--size', size, '--json'];
  const limit = Math.round(Number(process.env.MESHWORK_SCALE_CPU_LIMIT ?? 3600));
  // sh execs node, so GNU time measures node itself and the kernel stops it at the CPU limit (SIGXCPU).
  const command = `ulimit -t ${limit} && exec "$0" "$@"`;
  const r = spawnSync('/usr/bin/time', ['-f', 'MWTIME %U %S %M', 'sh', '-c', command, process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const m = /MWTIME ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  if (m && /signal (24|9)\b/.test(r.stderr ?? '')) return { error: `stopped unfinished at the ${limit} CPU s limit`, stopped: true };
  if (r.status !== 0 || !m) return { error: (r.stderr ?? '').split('\n').find((l) => l.startsWith('meshwork:')) ?? `exit ${r.status ?? r.signal}` };
  const result = JSON.parse(r.stdout);
  return { cpu: Number(m[1]) + Number(m[2]), rssGiB: Number(m[3]) / 1024 / 1024, events: result.stats.events, flows: result.stats.flows, makespan: result.makespan_s };
}

function median(runs) {
  const ok = runs.filter((r) => !r.error);
  if (ok.length === 0) return runs[0];
  ok.sort((a, b) => a.cpu - b.cpu);
  return { ...ok[(ok.length - 1) >> 1], all: ok.map((r) => r.cpu) };
}

/** Least-squares slope of log cpu against log ranks over the points of at least 1 CPU s. */
function exponent(points) {
  const use = points.filter((p) => !p.error && p.cpu >= 1);
  if (use.length < 2) return undefined;
  const xs = use.map((p) => Math.log(p.ranks));
  const ys = use.map((p) => Math.log(p.cpu));
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  const my = ys.reduce((a, b) => a + b) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

// [label, collective, algorithm, [[ranks, topology], ...]]
const SERIES = [
  ['recursive doubling allreduce, torus', 'allreduce', 'recursive-doubling', [[512, 'torus:8x8x8'], [4096, 'torus:16x16x16'], [32768, 'torus:32x32x32']]],
  ['recursive doubling allreduce, fat tree', 'allreduce', 'recursive-doubling', [[512, 'fattree:k=8,levels=3'], [4096, 'fattree:k=16,levels=3'], [32768, 'fattree:k=32,levels=3']]],
  ['recursive doubling allreduce, dragonfly', 'allreduce', 'recursive-doubling', [[1056, 'dragonfly:h=4'], [16512, 'dragonfly:h=8']]],
  ['Rabenseifner allreduce, torus', 'allreduce', 'rabenseifner', [[512, 'torus:8x8x8'], [4096, 'torus:16x16x16'], [32768, 'torus:32x32x32'], [65536, 'torus:64x32x32']]],
  ['ring allreduce, fat tree', 'allreduce', 'ring', [[512, 'fattree:k=8,levels=3'], [1728, 'fattree:k=12,levels=3']]],
  ['pairwise alltoall, torus', 'alltoall', 'pairwise', [[512, 'torus:8x8x8'], [1728, 'torus:12x12x12']]],
  ['pairwise alltoall, fat tree', 'alltoall', 'pairwise', [[512, 'fattree:k=8,levels=3'], [1728, 'fattree:k=12,levels=3'], [4096, 'fattree:k=16,levels=3']]],
  ['hop-grouped alltoall, torus', 'alltoall', 'hop-grouped', [[512, 'torus:8x8x8'], [4096, 'torus:16x16x16'], [32768, 'torus:32x32x32']]],
];

// Issue 29's targets: [name, topology, collective, algorithm, size, CPU s target, most runs]. The
// 4,096-rank pairwise alltoall on a torus runs once: it takes minutes (one component per step, below;
// about 145 CPU s with the incremental exact update, docs/performance.md).
const TARGETS = [
  ['32,768-host fat tree recursive doubling', 'fattree:k=32,levels=3', 'allreduce', 'recursive-doubling', '1MiB', 5],
  ['16,512-host dragonfly recursive doubling', 'dragonfly:h=8', 'allreduce', 'recursive-doubling', '1MiB', 5],
  ['4,096-rank pairwise alltoall, 4,096-host fat tree', 'fattree:k=16,levels=3', 'alltoall', 'pairwise', '1MiB', 20],
  ['32³ hop-grouped alltoall', 'torus:32x32x32', 'alltoall', 'hop-grouped', '1MiB', 20],
  ['65,536-rank Rabenseifner allreduce', 'torus:64x32x32', 'allreduce', 'rabenseifner', '1MiB', 30],
  ['4,096-rank pairwise alltoall, 16³ torus', 'torus:16x16x16', 'alltoall', 'pairwise', '1MiB', 20, 1],
  // The same exchange in coordinate order (each step one translation): one representative.
  ['4,096-rank pairwise alltoall in coordinate order, 16³ torus', 'torus:16x16x16', 'alltoall', 'pairwise:order=coords', '1MiB', 20],
  ['16,384-rank ring allreduce 1 GiB', 'fattree:k=128,levels=2', 'allreduce', 'ring', '1GiB', 10, 1],
  // The alternative: the HGX-style cluster of that size (2,048 HGX H100 nodes on rails), 8 representatives.
  ['16,384-rank ring allreduce 1 GiB, 2,048 HGX H100 nodes', 'hgx-h100:nodes=2048', 'allreduce', 'ring', '1GiB', 10, 1],
];

/** Whether a target row is met: a measured median under its CPU limit (a refusal is not met). */
const verdict = (m, target) => (m.stopped ? 'not met (stopped)' : m.error ? 'not met (refused)' : m.cpu < target ? 'met' : 'not met');
/** A failed run's cell: a refusal names its limit; a run stopped at the CPU limit says so. */
const failure = (m) => (m.stopped ? m.error : `refused: ${m.error.replace(/\|/g, '/')}`);

export default async function () {
  if (!existsSync('/usr/bin/time')) return [{ name: 'scale table', value: 'skipped', unit: '', target: '', note: 'needs GNU time (/usr/bin/time)' }];
  const quick = process.env.MESHWORK_BENCH_QUICK === '1';
  const runs = Number(process.env.MESHWORK_SCALE_RUNS ?? 3);
  const loadBefore = loadavg()[0];
  const rows = [];
  const table = [];
  const targetsOnly = process.env.MESHWORK_SCALE_TARGETS === '1';
  for (const [label, collective, algorithm, points] of targetsOnly ? [] : SERIES) {
    const measured = [];
    for (const [ranks, topology] of points) {
      if (quick && ranks > 4096) continue;
      const r = runOnce(topology, collective, algorithm, '1MiB');
      measured.push({ ranks, topology, ...r });
    }
    const e = exponent(measured);
    for (const p of measured) {
      table.push({ label, algorithm, ...p, exponent: e });
      rows.push({
        name: `${label} ${p.ranks} ranks (${p.topology}, 1MiB)`,
        value: p.error ? 'refused' : p.cpu.toFixed(2),
        unit: p.error ? '' : 'CPU s',
        target: 'reported',
        note: p.error ?? `${p.rssGiB.toFixed(2)} GiB, ${(p.events / p.cpu / 1e3).toFixed(0)}k flow events/CPU-s, exponent ${e === undefined ? '—' : e.toFixed(2)}`,
      });
    }
  }
  const targetRows = [];
  // The doc is rewritten after every measurement, so that an interrupted run keeps what it measured.
  const doc = () => process.env.MESHWORK_SCALE_DOC === '1' && writeDoc(table, targetRows, runs, loadBefore, loadavg()[0]);
  doc();
  for (const [name, topology, collective, algorithm, size, target, most = runs] of TARGETS) {
    if (quick) break;
    // The table's run of the same case counts as the first; a case over a minute runs once more only.
    const first = table.find((p) => p.topology === topology && p.algorithm === algorithm);
    const done = first && !first.error ? [first] : [];
    const want = Math.min(most, done.length > 0 && done[0].cpu > 60 ? 2 : runs);
    while (done.length < want) done.push(runOnce(topology, collective, algorithm, size));
    const m = median(done);
    targetRows.push({ name, command: `meshwork run --topology ${topology} --collective ${collective} --algorithm ${algorithm} --size ${size}`, target, ...m });
    rows.push({
      name: `target: ${name}`,
      value: m.stopped ? 'stopped' : m.error ? 'refused' : m.cpu.toFixed(2),
      unit: m.error ? '' : `CPU s (median of ${m.all.length})`,
      target: `< ${target} s: ${verdict(m, target)}`,
      note: m.error ?? `${m.rssGiB.toFixed(2)} GiB, runs ${m.all.map((c) => c.toFixed(2)).join('/')}`,
    });
    doc();
  }
  return rows;
}

function writeDoc(table, targets, runs, loadBefore, loadAfter) {
  const series = [
    '| series | ranks | topology | CPU s | peak RSS GiB | flow events / CPU s | fitted exponent |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: |',
    ...table.map((p) =>
      p.error
        ? `| ${p.label} | ${p.ranks} | ${p.topology} | ${failure(p)} | | | |`
        : `| ${p.label} | ${p.ranks} | ${p.topology} | ${p.cpu.toFixed(2)} | ${p.rssGiB.toFixed(2)} | ${Math.round(p.events / p.cpu).toLocaleString('en-US')} | ${p.exponent === undefined ? '—' : p.exponent.toFixed(2)} |`,
    ),
    '',
  ];
  const lines = [
    '<!-- scale-table: written by MESHWORK_SCALE_DOC=1 node bench/run.mjs scale -->',
    `Measured ${new Date().toISOString().slice(0, 10)}, 1-minute load ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after (2 cores, shared), whole CLI process.`,
    '',
    ...(table.length > 0 ? series : ['(Series not run: MESHWORK_SCALE_TARGETS=1.)', '']),
    `Issue 29's targets, CPU seconds, median of the runs listed (${runs}${runs > 2 ? "; 2 where a run takes over a minute" : ""}):`,
    '',
    '| target | command | CPU s (runs) | peak RSS GiB | limit | met |',
    '| --- | --- | ---: | ---: | ---: | --- |',
    ...targets.map((t) =>
      t.error
        ? `| ${t.name} | \`${t.command}\` | ${failure(t)} | | < ${t.target} s | ${verdict(t, t.target)} |`
        : `| ${t.name} | \`${t.command}\` | ${t.cpu.toFixed(2)} (${t.all.map((c) => c.toFixed(2)).join(', ')}) | ${t.rssGiB.toFixed(2)} | < ${t.target} s | ${verdict(t, t.target)} |`,
    ),
    '<!-- /scale-table -->',
  ];
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf('<!-- scale-table');
  const end = doc.indexOf('<!-- /scale-table -->');
  if (start < 0 || end < 0) throw new Error('docs/performance.md has no scale-table markers');
  writeFileSync(DOC, doc.slice(0, start) + lines.join('\n') + doc.slice(end + '<!-- /scale-table -->'.length));
}
