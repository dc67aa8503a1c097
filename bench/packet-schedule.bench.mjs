// Packet-engine schedule runs (the schedule runner, issue 24): collectives lowered to programs and
// run flit by flit. CPU seconds, median of 5 runs in this process; names the load.
import { loadavg } from 'node:os';
import { buildSchedule, buildTopology, simulate } from '../dist/index.js';

const CASES = [
  { name: 'torus:8x8 allreduce ring 512KiB, packet', topology: 'torus:8x8', collective: 'allreduce', algorithm: 'ring', size: 512 * 1024 },
  { name: 'torus:4x4x4 alltoall pairwise 8KiB, packet', topology: 'torus:4x4x4', collective: 'alltoall', algorithm: 'pairwise', size: 8 * 1024 },
  { name: 'fattree k=4 allgather ring 32KiB, packet', topology: 'fattree:k=4,levels=3', collective: 'allgather', algorithm: 'ring', size: 32 * 1024 },
];

function cpuOf(run) {
  const c0 = process.cpuUsage();
  const r = run();
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1e6, r };
}

export default async function () {
  const rows = [];
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  for (const c of CASES) {
    const topology = buildTopology(c.topology);
    const schedule = buildSchedule({ topology, collective: c.collective, algorithm: c.algorithm, size: c.size });
    const times = [];
    let makespan = 0;
    for (let i = 0; i < runs; i++) {
      const { cpu, r } = cpuOf(() => simulate({ topology, schedule, engine: 'packet' }));
      times.push(cpu);
      makespan = r.makespan_s;
    }
    times.sort((a, b) => a - b);
    rows.push({ name: c.name, value: times[times.length >> 1].toFixed(3), unit: 's CPU', target: '', note: `median of ${runs}; makespan ${makespan}; load ${loadavg()[0].toFixed(1)}` });
  }
  return rows;
}
