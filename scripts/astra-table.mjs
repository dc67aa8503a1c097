// Prints docs/workloads.md's table of ASTRA-sim's network and system files against ASTRA-sim's own
// figures (test/reference/astra-sim/astra-sim-figures.csv), timing Meshwork as
// test/reference/astra-sim-native.test.ts does: with --preset astra (no sharing, and on astra networks its
// routing astra-first-dimension) and with max-min (the default routing).
// Usage: npm run build && node scripts/astra-table.mjs > /tmp/astra.md   (a few seconds)
//        node scripts/astra-table.mjs test/reference/astra-sim/astra-sim-implementations.csv
//        (ASTRA-sim's halvingDoubling, direct and doubleBinaryTree rows: an implementation column more)
//        node scripts/astra-table.mjs test/reference/astra-sim/astra-sim-one.csv
//        (its oneRing, oneDirect, oneHalvingDoubling and per-dimension direct all-to-all rows)
//        node scripts/astra-table.mjs test/reference/astra-sim/astra-sim-congestion-aware.csv
//        (its congestion-aware backend's figures: --preset astra-congestion-aware and max-min against
//        them, --preset astra against the congestion-unaware figure beside)
//        node scripts/astra-table.mjs test/reference/astra-sim/astra-sim-congestion-aware-alltoall.csv
//        (the same on all_to_all: ring relay, direct and directW)
import { readFileSync } from 'node:fs';
import { astraSystemSettings, flowPreset, presetRoutingOptions, runWorkload } from '../dist/index.js';
import { loadChakraTrace, loadTopology, readStructured } from '../dist/node/index.js';

const DIR = 'test/reference/astra-sim';
const SHARED = '../shared/reference/chakra/astra-sim';
const pathOf = (name, dir, ext) => (name.startsWith('shared:') ? `${SHARED}/configs/${name.slice(7)}` : `${DIR}/${dir}/${name}.${ext}`);
const traceOf = (name, npus) =>
  npus === 32
    ? loadChakraTrace([`${SHARED}/et_microbenchmarks/${name}/16npus_1MB/${name}.0.et`], undefined, 'both', 32)
    : loadChakraTrace([`${SHARED}/et_microbenchmarks/${name}/${npus}npus_1MB`]);

const csv = process.argv[2] ?? `${DIR}/astra-sim-figures.csv`;
const [header, ...lines] = readFileSync(csv, 'utf8').trim().split('\n');
const rows = lines.map((l) => l.split(','));
// The congestion-aware file holds that backend's figure, then the congestion-unaware one.
const congestionAware = header.split(',')[4] === 'astra_congestion_aware_ns';
// The implementations file names them per dimension in a sixth column.
const withImplementation = !congestionAware && rows.some((r) => r.length > 5);
const percent = (e) => `${e >= 0 ? '+' : ''}${(e * 100).toFixed(2)} %`;
if (congestionAware) {
  console.log('| network | system | trace | NPUs | ASTRA-sim congestion-aware (ns) | --preset astra-congestion-aware | error | max-min | error | ASTRA-sim congestion-unaware (ns) | --preset astra | error |');
  console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
} else {
  console.log(`| network | system | trace | NPUs |${withImplementation ? ' implementation |' : ''} ASTRA-sim (ns) | --preset astra | error | max-min | error |`);
  console.log(`| --- | --- | --- | ---: |${withImplementation ? ' --- |' : ''} ---: | ---: | ---: | ---: | ---: |`);
}
const worst = { none: 0, maxminOneChunk: 0, aware: 0, maxminAware: 0 };
/** The error of larger magnitude, its sign kept (−0.65 % is printed as −0.65 %, not +0.65 %). */
const signedWorse = (worstSoFar, error) => (Math.abs(error) > Math.abs(worstSoFar) ? error : worstSoFar);
for (const [network, system, trace, npusText, astraText, implementation] of rows) {
  const npus = Number(npusText);
  const astra = Number(astraText);
  const topology = loadTopology(pathOf(network, 'networks', 'yml'));
  const doc = readStructured(pathOf(system, 'systems', 'json'), 'system');
  const settings = astraSystemSettings(doc, topology.params.dims.length);
  const step = (preset) => {
    const model = { ...(preset ? flowPreset(preset).model : {}), alpha: settings.alpha, gammaReduce: settings.gammaReduce };
    // The preset's routing too, as `--preset astra` runs: on astra networks ASTRA-sim's first-dimension charge.
    const routingOptions = preset ? presetRoutingOptions(flowPreset(preset), topology, 'flow', model) : undefined;
    return runWorkload({ topology, trace: traceOf(trace, npus), algorithms: settings.algorithms, comm: settings.comm, model, routingOptions }).report.step_time_s * 1e9;
  };
  const [none, maxmin] = [step('astra'), step(undefined)];
  if (congestionAware) {
    const unaware = Number(implementation);
    const aware = step('astra-congestion-aware');
    worst.aware = signedWorse(worst.aware, aware / astra - 1);
    worst.maxminAware = signedWorse(worst.maxminAware, maxmin / astra - 1);
    worst.none = signedWorse(worst.none, none / unaware - 1);
    console.log(`| ${network} | ${system} | ${trace} | ${npus} | ${astra} | ${aware.toFixed(0)} | ${percent(aware / astra - 1)} | ${maxmin.toFixed(0)} | ${percent(maxmin / astra - 1)} | ${unaware} | ${none.toFixed(0)} | ${percent(none / unaware - 1)} |`);
    continue;
  }
  worst.none = signedWorse(worst.none, none / astra - 1);
  if ((doc['active-chunks-per-dimension'] ?? 1) === 1) worst.maxminOneChunk = signedWorse(worst.maxminOneChunk, maxmin / astra - 1);
  console.log(`| ${network.replace('shared:', '')} | ${system.replace('shared:', '')} | ${trace} | ${npus} |${withImplementation ? ` ${implementation.replaceAll('.', ' × ')} |` : ''} ${astra} | ${none.toFixed(0)} | ${percent(none / astra - 1)} | ${maxmin.toFixed(0)} | ${percent(maxmin / astra - 1)} |`);
}
if (congestionAware) {
  console.log(`\nWorst error (largest |error|, signed) over ${rows.length} rows: --preset astra-congestion-aware ${percent(worst.aware)} and max-min ${percent(worst.maxminAware)} against the congestion-aware backend; --preset astra ${percent(worst.none)} against the congestion-unaware one.`);
} else {
  console.log(`\nWorst error (largest |error|, signed): --preset astra ${percent(worst.none)} over ${rows.length} rows; max-min with one active chunk per dimension ${percent(worst.maxminOneChunk)}.`);
}
