// Seed algorithm benchmarks (issue 3): build and verify seed 000's hop-grouped alltoall on a
// 16×16×16 torus (4,096 ranks, 16.7 M blocks) in the executor's chunk-identity mode.
// Targets: under 20 s and under 4 GiB. Memory is the peak resident set sampled during the run.
import { buildSchedule, buildTopology, executeSchedule } from '../dist/index.js';

function sampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return { stop: () => (clearInterval(timer), Math.max(peak, process.memoryUsage().rss)) };
}

async function case16(algorithm, size) {
  const topology = buildTopology('torus:16x16x16');
  const mem = sampler();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const schedule = buildSchedule({ collective: 'alltoall', algorithm, topology, size });
  const t1 = performance.now();
  // Yield once so the sampler sees the built schedule before the executor runs.
  await new Promise((r) => setTimeout(r, 30));
  const report = executeSchedule(schedule, { mode: 'chunks' });
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const rss = mem.stop();
  return { schedule, report, build: (t1 - t0) / 1000, verify: (t2 - t1) / 1000, cpu: (cpu.user + cpu.system) / 1e6, rss };
}

export default async function () {
  const rows = [];
  for (const [algorithm, size] of [['hop-grouped', 3], ['hop-grouped:areas=1', 1]]) {
    const { schedule, report, build, verify, cpu, rss } = await case16(algorithm, size);
    const note = `${schedule.numOps} ops, ${report.messages} messages, pass=${report.pass}, granularity ${report.granularity} B`;
    rows.push(
      { name: `${algorithm} 16x16x16 build+verify`, value: (build + verify).toFixed(2), unit: 's', target: '< 20', note: `wall: build ${build.toFixed(2)} s, verify ${verify.toFixed(2)} s; CPU ${cpu.toFixed(2)} s; ${note}` },
      { name: `${algorithm} 16x16x16 peak RSS`, value: (rss / 2 ** 30).toFixed(2), unit: 'GiB', target: '< 4', note: 'process RSS sampled every 20 ms' },
    );
  }
  return rows;
}
