// Prints docs/flow.md's SimGrid tables from the reference cases (test/reference/simgrid/cases/,
// smpi-cases/, smpi-model-cases/, cfg-cases/ and fatpipe-cases/), timing Meshwork as test/reference/simgrid.test.ts,
// simgrid-smpi-cases.test.ts, simgrid-smpi-model.test.ts and simgrid-cfg.test.ts do.
// Usage: npm run build && node scripts/simgrid-table.mjs > /tmp/tables.md   (about a minute of CPU)
import { readFileSync, readdirSync } from 'node:fs';
import { buildSchedule, flowPreset, parseAlltoallvSizes, parseCollective, simgridCfgModel, simulate } from '../dist/index.js';
import { loadMapping, loadTopology } from '../dist/node/index.js';

const DIR = 'test/reference/simgrid';
const TOPOLOGY = {
  'torus-4x4x4': 'torus:4x4x4,bw=10GBps,lat=100ns',
  'fattree-4-3': 'fattree:k=4,levels=3,bw=10GBps,lat=100ns',
  'dragonfly-4x4x4': `file:${DIR}/platforms/dragonfly-4x4x4.json`,
  'flat-16': `simgrid:${DIR}/platforms/flat-16.xml`,
  'flat-16-backbone': `simgrid:${DIR}/platforms/flat-16-backbone.xml`,
  'torus-3x3x3': 'torus:3x3x3,bw=10GBps,lat=100ns',
  'torus-5x3x3': 'torus:5x3x3,bw=10GBps,lat=100ns',
  'torus-4x4x3': 'torus:4x4x3,bw=10GBps,lat=100ns',
  'torus-4x4x6': 'torus:4x4x6,bw=10GBps,lat=100ns',
};
const HOSTS = { all: undefined, skip8: `${DIR}/platforms/hosts-skip8.txt`, first2: `${DIR}/platforms/hosts-first2.txt` };
const preset = flowPreset('simgrid');
const topologies = new Map();
const topologyOf = (platform, hosts) => {
  const key = `${platform} ${hosts ?? 'all'}`;
  if (!topologies.has(key)) {
    const base = loadTopology(TOPOLOGY[platform] ?? `simgrid:${DIR}/platforms/${platform}.xml`);
    // A hostfile: a kind of HOSTS, or a path in the reference folder (smpi-model-cases' zones).
    const hostfile = hosts === undefined || hosts in HOSTS ? HOSTS[hosts] : `${DIR}/${hosts}`;
    topologies.set(key, hostfile ? loadMapping(base, hostfile) : base);
  }
  return topologies.get(key);
};

const time = (s) => (s >= 1 ? `${s.toFixed(3)} s` : s >= 1e-3 ? `${(s * 1e3).toFixed(3)} ms` : `${(s * 1e6).toFixed(2)} µs`);
const size = (b) => (b === 0 ? '—' : b >= 1 << 20 ? `${b / (1 << 20)} MiB` : b >= 1024 ? `${b / 1024} KiB` : `${b} B`);
const percent = (e) => `${e >= 0 ? '+' : ''}${e.toFixed(1)} %`;

function table(title, rows) {
  console.log(`${title}\n`);
  console.log('| platform | SMPI algorithm = Meshwork | size | SMPI | Meshwork | error |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  let within = 0;
  for (const r of rows) {
    const error = (r.meshwork / r.smpi - 1) * 100;
    if (Math.abs(error) <= 2) within++;
    console.log(`| ${r.platform} | ${r.label} | ${size(r.size)} | ${time(r.smpi)} | ${time(r.meshwork)} | ${percent(error)} |`);
  }
  console.log(`\n${within} of ${rows.length} within 2 %.\n`);
}

const platformOf = (c) => c.platform.replace(/^platforms\/|\.xml$/g, '');
const original = readdirSync(`${DIR}/cases`).sort().map((f) => JSON.parse(readFileSync(`${DIR}/cases/${f}`, 'utf8')));
const rows1 = [];
for (const c of original) {
  const topology = topologyOf(platformOf(c));
  for (const row of c.rows) {
    const schedule = buildSchedule({ collective: c.meshwork.collective, algorithm: c.meshwork.algorithm, topology, size: row.size });
    const meshwork = simulate({ topology, schedule, routingOptions: preset.routing, model: preset.model }).makespan_s;
    rows1.push({ platform: platformOf(c), label: `${c.collective}:${c.smpi_algorithm} = ${c.meshwork.collective} ${c.meshwork.algorithm}`, size: row.size, smpi: row.makespan_s, meshwork });
  }
}
table('Original cases (`cases/`, 64 ranks):', rows1);

const issue23 = readdirSync(`${DIR}/smpi-cases`).sort().map((f) => JSON.parse(readFileSync(`${DIR}/smpi-cases/${f}`, 'utf8')));
/** The selector cases at rank counts other than 64 (generate.sh's h-smpiranks section): summarised apart, below. */
const RANK_PLATFORMS = ['flat-12', 'flat-16', 'torus-3x3x3', 'torus-5x3x3', 'torus-4x4x3', 'torus-4x4x6', 'fattree-2-16-8'];
const atOtherRanks = (c) => RANK_PLATFORMS.includes(platformOf(c)) && ['default', 'ompi', 'mpich'].includes(c.smpi.algorithm);
const rows2 = [];
for (const c of issue23.filter((c) => !atOtherRanks(c))) {
  const topology = topologyOf(platformOf(c), c.hosts);
  for (const row of c.rows) {
    const collective = parseCollective(c.meshwork.collective);
    const sizes = collective === 'alltoallv' ? parseAlltoallvSizes(readFileSync(`${DIR}/platforms/alltoallv-64-random.txt`, 'utf8'), topology.numEndpoints) : undefined;
    const schedule = buildSchedule({ collective, algorithm: c.meshwork.algorithm, topology, size: row.size, sizes });
    const meshwork = simulate({ topology, schedule, routingOptions: preset.routing, model: preset.model, barriers: c.smpi.barriers }).makespan_s;
    // A selector (default, ompi) shows what it chose at this size: "alltoall:ompi → pair = pairwise:order=xor".
    const chosen = schedule.algorithmAlias?.includes(' → ') ? schedule.algorithmAlias.split(' at ')[0] : c.smpi.algorithm === '-' ? 'default' : c.smpi.algorithm;
    const what = `${c.smpi.collective}:${chosen} = ${schedule.algorithmSpec}${c.smpi.barriers ? ', --barriers' : ''}${c.hosts === 'skip8' ? `, ${c.ranks} of 64 hosts` : ''}${sizes ? ', random 0-128 KiB per pair' : ''}`;
    rows2.push({ platform: platformOf(c), label: what, size: row.size, smpi: row.makespan_s, meshwork });
  }
}
table('SimGrid users\' cases (`smpi-cases/`, issue 23: the SMPI name given as the algorithm):', rows2);

// SMPI's default network model (smpi-model-cases/, `--preset simgrid-smpi`).
const smpiModel = flowPreset('simgrid-smpi');
const modelCases = readdirSync(`${DIR}/smpi-model-cases`).sort().map((f) => JSON.parse(readFileSync(`${DIR}/smpi-model-cases/${f}`, 'utf8')));
const rows3 = [];
for (const c of modelCases) {
  const topology = topologyOf(platformOf(c), c.ranks === 64 ? undefined : c.hostfile);
  for (const row of c.rows) {
    const schedule = buildSchedule({ collective: parseCollective(c.meshwork.collective), algorithm: c.meshwork.algorithm, topology, size: row.size });
    const meshwork = simulate({ topology, schedule, routingOptions: smpiModel.routing, model: smpiModel.model }).makespan_s;
    rows3.push({ platform: platformOf(c), label: `${c.collective}:${c.smpi_algorithm} = ${c.meshwork.collective} ${c.meshwork.algorithm}`, size: row.size, smpi: row.makespan_s, meshwork });
  }
}
table("SMPI's default network model (`smpi-model-cases/`, `--preset simgrid-smpi`):", rows3);

// SimGrid's configuration items (cfg-cases/, `--preset simgrid-smpi --simgrid-cfg <the case's network items>`).
const cfgCases = readdirSync(`${DIR}/cfg-cases`).sort().map((f) => JSON.parse(readFileSync(`${DIR}/cfg-cases/${f}`, 'utf8')));
const rowsCfg = [];
for (const c of cfgCases) {
  const topology = topologyOf(platformOf(c), c.ranks === 64 ? undefined : c.hostfile);
  // Every item but the algorithm, as test/reference/simgrid-cfg.test.ts passes them; the label leaves out those of no effect.
  const items = c.config.split(' ').filter((i) => !i.startsWith(`--cfg=smpi/${c.collective}:`));
  const model = { ...smpiModel.model, ...simgridCfgModel(items.join(' '), 'simgrid-smpi').model };
  for (const row of c.rows) {
    const schedule = buildSchedule({ collective: parseCollective(c.meshwork.collective), algorithm: c.meshwork.algorithm, topology, size: row.size });
    const meshwork = simulate({ topology, schedule, routingOptions: smpiModel.routing, model }).makespan_s;
    rowsCfg.push({ platform: platformOf(c), label: `${items.filter((i) => !/simulate-computation|shared-malloc/.test(i)).map((i) => i.replace('--cfg=', '')).join(' ')}: ${c.collective}:${c.smpi_algorithm}`, size: row.size, smpi: row.makespan_s, meshwork });
  }
}
table('SimGrid\'s configuration items (`cfg-cases/`, `--preset simgrid-smpi --simgrid-cfg ...`):', rowsCfg);

// FATPIPE links (fatpipe-cases/): `--preset simgrid` for the CM02 runs, `simgrid-smpi` for the others.
const fatpipeCases = readdirSync(`${DIR}/fatpipe-cases`).sort().map((f) => JSON.parse(readFileSync(`${DIR}/fatpipe-cases/${f}`, 'utf8')));
const rowsFat = [];
for (const c of fatpipeCases) {
  const topology = topologyOf(platformOf(c), c.ranks === 4 ? c.hostfile : undefined);
  const cm02 = c.config.includes('network/model:CM02');
  const p = cm02 ? preset : smpiModel;
  for (const row of c.rows) {
    const schedule = buildSchedule({ collective: parseCollective(c.meshwork.collective), algorithm: c.meshwork.algorithm, topology, size: row.size });
    const meshwork = simulate({ topology, schedule, routingOptions: p.routing, model: p.model }).makespan_s;
    rowsFat.push({ platform: platformOf(c), label: `${cm02 ? 'CM02' : 'SMPI model'}: ${c.collective}:${c.smpi_algorithm} = ${c.meshwork.collective} ${c.meshwork.algorithm}`, size: row.size, smpi: row.makespan_s, meshwork });
  }
}
table('FATPIPE links (`fatpipe-cases/`, `--preset simgrid` under CM02, `simgrid-smpi` under SMPI\'s model):', rowsFat);

// One line per platform, collective and selector: what the selector ran at each size (the SMPI
// algorithm = the Meshwork variant) and the largest error over its rows.
const summary = [];
let rankRows = 0;
let rankWithin = 0;
for (const c of issue23.filter(atOtherRanks)) {
  const topology = topologyOf(platformOf(c), c.hosts);
  const picks = [];
  let worst = 0;
  for (const row of c.rows) {
    const schedule = buildSchedule({ collective: parseCollective(c.meshwork.collective), algorithm: c.meshwork.algorithm, topology, size: row.size });
    const meshwork = simulate({ topology, schedule, routingOptions: preset.routing, model: preset.model }).makespan_s;
    const error = (meshwork / row.makespan_s - 1) * 100;
    rankRows++;
    if (Math.abs(error) <= 2) rankWithin++;
    if (Math.abs(error) > Math.abs(worst)) worst = error;
    const choice = `${schedule.algorithmAlias.split(' at ')[0].split(' → ')[1]} = ${schedule.algorithmSpec}`;
    const last = picks[picks.length - 1];
    if (last && last.choice === choice) last.to = row.size;
    else picks.push({ from: row.size, to: row.size, choice });
  }
  // reduce_scatter runs at multiples of 4 × ranks bytes (coll.c's ints / n per rank): those in bytes.
  const exact = (b) => (Number.isInteger(b / 1024) ? size(b) : `${b.toLocaleString('en-US')} B`);
  const sizes = (p) => (p.from === 0 ? '' : p.from === p.to ? `${exact(p.from)}: ` : `${exact(p.from)}–${exact(p.to)}: `);
  summary.push(`| ${c.ranks} (${platformOf(c)}) | ${c.smpi.collective} | ${c.smpi.algorithm} | ${picks.map((p) => `${sizes(p)}${p.choice}`).join('; ')} | ${c.rows.length} | ${percent(worst)} |`);
}
console.log('SMPI\'s selectors at other rank counts (`smpi-cases/`, 12 to 128 ranks):\n');
console.log('| ranks (platform) | collective | selector | size: SMPI choice = Meshwork | rows | largest error |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const line of summary) console.log(line);
console.log(`\n${rankWithin} of ${rankRows} within 2 %.\n`);
