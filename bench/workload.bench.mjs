// Workload benchmark (issue 26): a generated transformer step of 1,024 ranks (TP 8 × DP 128,
// 4 layers, hidden 8192, sequence 2048, H100 roofline) timed at flow level on a two-level fat tree
// of 128 leaves × 8 hosts (8 spines, 8 uplinks per leaf). Target: under 60 s of CPU, the whole
// path (generate, encode, decode, check, lower, simulate, analyse) in one fresh process, with the
// default (exact) rate update, which re-solves only the components a batch touched (issue 29):
// 8.9 CPU s with the library-picked algorithms (docs/workloads.md has the table).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LIB = new URL('../dist/index.js', import.meta.url).href;

function runCase(tp, dp, layers, topology, rateUpdate) {
  const script = `
    import { buildTopology, generateTransformer, generatedTrace, runWorkload } from ${JSON.stringify(LIB)};
    const c0 = process.cpuUsage();
    const trace = generatedTrace(generateTransformer({ tp: ${tp}, dp: ${dp}, layers: ${layers} }));
    const c1 = process.cpuUsage(c0);
    const topology = buildTopology(${JSON.stringify(topology)});
    const { report, result } = runWorkload({ topology, trace, model: { rateUpdate: ${JSON.stringify(rateUpdate)} } });
    const cpu = process.cpuUsage(c0);
    const mean = (f) => report.ranks.reduce((s, r) => s + f(r), 0) / report.ranks.length;
    console.log(JSON.stringify({ cpu: (cpu.user + cpu.system) / 1e6, traceCpu: (c1.user + c1.system) / 1e6, step: report.step_time_s,
      exposed: mean((r) => r.exposed_communication_s), messages: result.stats.messages, events: result.stats.events,
      rssGiB: process.resourceUsage().maxRSS / 1024 / 1024 }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: fileURLToPath(new URL('.', import.meta.url)) });
  if (r.status !== 0) throw new Error(`workload TP ${tp} × DP ${dp}: ${r.stderr.slice(0, 800)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

export default async function () {
  const quick = process.env.MESHWORK_BENCH_QUICK === '1';
  const [tp, dp] = quick ? [8, 16] : [8, 128];
  const r = runCase(tp, dp, 4, `twolevel:leaves=${dp},hosts=${tp},spines=8,uplinks=8,bw=400Gbps,lat=1us`, 'exact');
  return [
    { name: `transformer TP ${tp} × DP ${dp}, 4 layers, rate update exact: CPU`, value: r.cpu.toFixed(1), unit: 's', target: quick ? '' : '< 60', note: `trace ${r.traceCpu.toFixed(1)} s, ${r.messages} messages, ${r.events} events, ${r.rssGiB.toFixed(2)} GiB peak` },
    { name: `transformer TP ${tp} × DP ${dp}, 4 layers: step time`, value: (r.step * 1e3).toFixed(3), unit: 'ms', note: `mean exposed communication ${(r.exposed * 1e3).toFixed(3)} ms` },
  ];
}
