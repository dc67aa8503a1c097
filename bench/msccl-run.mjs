// One process: read an MSCCL-XML file (streamed), build its schedule, verify it and time it at flow
// level; prints one JSON line of phase seconds (bench/interop.bench.mjs runs it under /usr/bin/time
// for whole-process CPU time and peak memory). Usage: node bench/msccl-run.mjs FILE TOPOLOGY SIZE [MODE]
import { readMscclFile } from '../dist/node/index.js';
import { buildTopology, mscclToSchedule, simulateMscclSchedule, verifyMscclSchedule } from '../dist/index.js';
import { timed } from './timing.mjs';

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
