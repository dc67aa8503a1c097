// Collective schedule benchmarks (issue 3): build and verify a 4,096-rank alltoall in chunk-identity mode.
import { buildSchedule, buildTopology, executeSchedule } from '../dist/index.js';

function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, seconds: (performance.now() - t0) / 1000 };
}

export default async function () {
  const topology = buildTopology('torus:16x16x16');
  const rows = [];
  const build = timed(() => buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology, size: 1024 }));
  const schedule = build.value;
  const verify = timed(() => executeSchedule(schedule, { mode: 'chunks' }));
  const r = verify.value;
  if (!r.pass) throw new Error(`pairwise 4096 failed: ${JSON.stringify(r.problems).slice(0, 300)}`);
  const maxRssGiB = process.resourceUsage().maxRSS / 1024 / 1024;
  rows.push({ name: 'pairwise alltoall 4096 ranks: ops', value: schedule.numOps, unit: 'ops', target: '33.5 M', note: '16.7 M blocks of 1 KiB' });
  rows.push({ name: 'pairwise alltoall 4096 ranks: build', value: build.seconds.toFixed(2), unit: 's', target: '', note: '' });
  rows.push({ name: 'pairwise alltoall 4096 ranks: verify (chunks)', value: verify.seconds.toFixed(2), unit: 's', target: '', note: `${r.messages} messages, ${r.checkedSlots} slots checked` });
  rows.push({ name: 'pairwise alltoall 4096 ranks: build+verify', value: (build.seconds + verify.seconds).toFixed(2), unit: 's', target: '< 60 s', note: '' });
  rows.push({ name: 'pairwise alltoall 4096 ranks: peak RSS', value: maxRssGiB.toFixed(2), unit: 'GiB', target: '< 8 GiB', note: 'process max RSS so far' });
  return rows;
}
