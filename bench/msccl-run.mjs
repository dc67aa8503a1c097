// One process: read an MSCCL-XML file (streamed), build its schedule, verify it and time it at flow
// level; prints one JSON line of phase CPU seconds (the machine is shared: wall times mislead) (bench/interop.bench.mjs runs it under /usr/bin/time
// for whole-process CPU time and peak memory). Usage: node bench/msccl-run.mjs FILE TOPOLOGY SIZE [MODE]
import { readMscclFile } from '../dist/node/index.js';
import { buildTopology, mscclToSchedule, simulateMscclSchedule, verifyMscclSchedule } from '../dist/index.js';

/** Runs fn; returns its value and the process CPU seconds it took. */
function timed(fn) {
  const c0 = process.cpuUsage();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { value, seconds: (c.user + c.system) / 1e6 };
}

const [file, spec, size, mode = 'bytes'] = process.argv.slice(2);
const read = timed(() => readMscclFile(file));
const build = timed(() => mscclToSchedule(read.value, { size: Number(size) }));
const verify = timed(() => verifyMscclSchedule(build.value, { mode }));
const topology = buildTopology(spec);
const time = timed(() => simulateMscclSchedule(build.value, { topology, model: { rateUpdate: 'local' } }));
console.log(JSON.stringify({
  steps: read.value.numSteps,
  ops: build.value.schedule.numOps,
  pass: verify.value.pass,
  messages: verify.value.messages,
  makespan_s: time.value.makespan_s,
  read_s: read.seconds,
  build_s: build.seconds,
  verify_s: verify.seconds,
  time_s: time.seconds,
}));
