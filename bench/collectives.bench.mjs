// Collective schedule benchmarks (issue 3): build and verify 4,096-rank alltoalls on torus:16x16x16
// in chunk-identity mode. Each case runs in its own Node process so its peak RSS is its own.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LIB = new URL('../dist/index.js', import.meta.url).href;

function runCase(algorithm, size) {
  const script = `
    import { buildSchedule, buildTopology, executeSchedule } from ${JSON.stringify(LIB)};
    const topology = buildTopology('torus:16x16x16');
    let t0 = performance.now();
    const s = buildSchedule({ collective: 'alltoall', algorithm: ${JSON.stringify(algorithm)}, topology, size: ${size} });
    const build = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const r = executeSchedule(s, { mode: 'chunks' });
    const verify = (performance.now() - t0) / 1000;
    console.log(JSON.stringify({ ops: s.numOps, build, verify, pass: r.pass, messages: r.messages, problems: r.problems.slice(0, 2),
      rssGiB: process.resourceUsage().maxRSS / 1024 / 1024 }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: fileURLToPath(new URL('.', import.meta.url)) });
  if (r.status !== 0) throw new Error(`${algorithm}: ${r.stderr.slice(0, 500)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

export default async function () {
  const rows = [];
  for (const [algorithm, size, targetS, targetGiB] of [
    // hop-grouped splits each block in three areas (Example 2), so 3 KiB blocks keep 1 KiB chunks.
    ['pairwise', 1024, 60, 8],
    ['hop-grouped', 3072, 20, 4],
  ]) {
    const c = runCase(algorithm, size);
    if (!c.pass) throw new Error(`${algorithm} 4096 ranks failed: ${JSON.stringify(c.problems)}`);
    const name = `${algorithm} alltoall 4096 ranks (16.7 M blocks of ${size / 1024} KiB)`;
    rows.push({ name: `${name}: build+verify`, value: (c.build + c.verify).toFixed(2), unit: 's', target: `< ${targetS} s`, note: `build ${c.build.toFixed(2)} s, verify ${c.verify.toFixed(2)} s (chunks), ${(c.ops / 1e6).toFixed(1)} M ops, ${(c.messages / 1e6).toFixed(1)} M messages` });
    rows.push({ name: `${name}: peak RSS`, value: c.rssGiB.toFixed(2), unit: 'GiB', target: `< ${targetGiB} GiB`, note: 'max RSS of the case process' });
  }
  return rows;
}
