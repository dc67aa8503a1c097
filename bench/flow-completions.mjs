// Flow completions per CPU-second of the flow engine alone (issue 29's target: >= 1 M/s on
// contention-light steps). Builds and lowers the schedule outside the timed region, then times
// `simulateFlow` (no symmetry quotient) with process.cpuUsage; prints the median of N runs.
// Usage: node bench/flow-completions.mjs [runs=5] [case...]   (cases: ring8, rd32)
const DIST = process.env.MESHWORK_DIST ?? new URL('../dist/index.js', import.meta.url).href;
const { buildTopology, buildSchedule, lowerSchedule, routingFor, simulateFlow } = await import(DIST);

const CASES = {
  ring8: { topology: 'fattree:k=8,levels=3', collective: 'allreduce', algorithm: 'ring' },
  rd32: { topology: 'fattree:k=32,levels=3', collective: 'allreduce', algorithm: 'recursive-doubling' },
};

/** FNV-1a over a Float64Array's bytes: equal digests mean byte-identical per-op times. */
function fnv(a, h) {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  h ^= 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619);
  return h >>> 0;
}

const runs = Number(process.argv[2] ?? 5);
const names = process.argv.length > 3 ? process.argv.slice(3) : Object.keys(CASES);
for (const name of names) {
  const c = CASES[name];
  const topology = buildTopology(c.topology);
  const schedule = buildSchedule({ topology, collective: c.collective, algorithm: c.algorithm, size: 1 << 20 });
  const program = lowerSchedule(schedule, topology);
  const routing = routingFor(topology, 'flow');
  const rates = [];
  let flows = 0;
  let makespan = 0;
  let digest = 0;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const out = simulateFlow(topology, routing, program, {});
    const cpu = process.cpuUsage(c0);
    flows = out.stats.flows;
    digest = fnv(out.opEnd, fnv(out.rankFinish, 0));
    makespan = out.makespan;
    rates.push(flows / ((cpu.user + cpu.system) / 1e6));
  }
  rates.sort((a, b) => a - b);
  const median = rates[rates.length >> 1];
  console.log(JSON.stringify({ case: name, flows, makespan, digest, medianPerCpuS: Math.round(median), all: rates.map(Math.round) }));
}
