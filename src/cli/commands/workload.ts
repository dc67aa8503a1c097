/**
 * `meshwork workload`: Chakra execution traces as workloads. `run` times a trace on a topology at
 * flow or packet level (library: workload/run.ts); the report is a view of its WorkloadReport.
 */
import type { Command } from 'commander';
import { refuseBesideRequest } from '../request-options.js';
import { InputError } from '../../util/errors.js';
import { formatBandwidth, formatSize, formatTime } from '../../util/units.js';
import { isDecimal } from '../../util/spec.js';
import { renderTextTable } from '../../report/table.js';
import { ENGINES } from '../../sim/simulate.js';
import { print } from '../io.js';
import { progressBar } from '../progress.js';
import { addModelOptions } from './timing-options.js';
import { addPacketOptions, creditLimitNote, firstPacketOption, parsePacketOptions, type PacketCliOptions } from '../packet-options.js';
import { nodeWorkloadIo } from '../../node/chakra.js';
import { absoluteRequestPaths, readRequestFile } from '../../node/request-paths.js';
import { DEPENDENCY_KINDS } from '../../workload/chakra/names.js';
import { parseAlgorithms, parseGenerate } from '../workload-spec.js';
import { DEVICE_PRESETS } from '../../workload/device.js';
import { prepareRequest, runPreparedRequest, type WorkloadRunView } from '../../workload/request.js';
import type { RunRequest } from '../../sim/request.js';
import { flagProperty, MODEL_OPTIONS, modelOptionsFromText } from '../../sim/options-schema.js';
import { routingNames } from '../../routing/registry.js';
import type { WorkloadReport } from '../../workload/analyze.js';
import { generateTransformer, TRANSFORMER_DEFAULTS, withTransformerDefaults } from '../../workload/generate.js';
import { programToChakra } from '../../workload/chakra/export.js';
import { refuseOversized } from '../../sim/prepare.js';
import { lowerSchedule } from '../../sim/program/from-schedule.js';
import { parseCollective } from '../../collectives/types.js';
import { buildSchedule } from '../../collectives/registry.js';
import { loadTopology, readStructured } from '../../node/load-topology.js';
import { parseSize } from '../../util/units.js';
import { parseIntValue } from '../../util/spec.js';
import { planOutputDir, writeRankFiles } from './workload-files.js';
import { FLOW_PRESET_NAMES, flowPreset } from '../../sim/flow/presets.js';
import { simgridCfgModel } from '../../sim/flow/simgrid-cfg.js';
import { astraSystemSettings, type AstraSystemSettings } from '../../workload/astra-system.js';
import { rankDimensions } from '../../collectives/algorithms/astra-native.js';

interface WorkloadRunOptions extends PacketCliOptions {
  trace?: string[];
  generate?: string;
  topology?: string;
  mapping?: string;
  fail?: string;
  routing?: string;
  seed?: string;
  engine?: string;
  algorithm?: string;
  device?: string;
  compute?: string;
  comm?: string;
  commGroups?: string;
  deps?: string;
  replicate?: string;
  links: string;
  json?: boolean;
  request?: string;
  printRequest?: boolean;
  preset?: string;
  /** --simgrid-cfg: SimGrid's --cfg items, space-separated (repeats joined). */
  simgridCfg?: string;
  astraSystem?: string;
}

export { parseAlgorithms } from '../workload-spec.js';

/** ASTRA-sim's system file read for the topology's dimensions (an astra: network's, or a torus's). */
function astraSystemOf(path: string, topologySpec: string, mapping: string | undefined): AstraSystemSettings {
  const dims = rankDimensions(loadTopology(topologySpec, { mapping }));
  if (typeof dims === 'string') throw new InputError('astra-system', path, `a topology with dimensions for it: ${dims}`);
  const settings = astraSystemSettings(readStructured(path, 'astra-system'), dims.length);
  for (const note of [...settings.notes, ...settings.ignored]) process.stderr.write(`meshwork: note: astra-system ${note}\n`);
  return settings;
}

/** `workload run`'s options → a RunRequest of kind workload (the library prepares and runs it as any request). */
export function workloadRequestFromOptions(opts: WorkloadRunOptions): RunRequest {
  if (opts.topology === undefined) throw new InputError('topology', undefined, 'a topology spec or file such as ring:8 (required)');
  if ((opts.trace === undefined) === (opts.generate === undefined)) throw new InputError('trace', opts.trace?.join(' '), 'a directory of name.<rank>.et files, or the files; or --generate instead (one of the two)');
  const engine = opts.engine ?? 'flow';
  if (!(ENGINES as readonly string[]).includes(engine)) throw new InputError('engine', engine, ENGINES.join(' or '));
  for (const [field, value, accepted] of [['compute', opts.compute, ['trace', 'roofline']], ['comm', opts.comm, ['concurrent', 'serial']], ['deps', opts.deps, DEPENDENCY_KINDS]] as const) {
    if (value !== undefined && !(accepted as readonly string[]).includes(value)) throw new InputError(field, value, accepted.join(', '));
  }
  if (opts.routing !== undefined && !routingNames().includes(opts.routing)) throw new InputError('routing', opts.routing, routingNames().join(', '));
  const packetOnly = engine === 'packet' ? undefined : firstPacketOption(opts);
  if (packetOnly) throw new InputError(packetOnly.flag, packetOnly.value, 'a packet-router option with --engine packet (the flow engine has no routers)');
  const config = parsePacketOptions(opts);
  const texts: Record<string, string | undefined> = {};
  for (const row of MODEL_OPTIONS) {
    const v = (opts as unknown as Record<string, unknown>)[flagProperty(row.flag)];
    if (typeof v === 'string') texts[row.flag] = v;
  }
  if (opts.preset !== undefined) flowPreset(opts.preset);
  const system = opts.astraSystem === undefined ? undefined : astraSystemOf(opts.astraSystem, opts.topology, opts.mapping);
  const cfg = opts.simgridCfg === undefined ? undefined : simgridCfgModel(opts.simgridCfg, opts.preset);
  for (const item of cfg?.noEffect ?? []) process.stderr.write(`meshwork: note: --simgrid-cfg ${item}\n`);
  // Layers, each over the one before: the preset (applied by the library), SimGrid's items, ASTRA-sim's system file, the options given.
  const model = { ...cfg?.model, ...(system ? { alpha: system.alpha, ...(system.gammaReduce !== undefined ? { gammaReduce: system.gammaReduce } : {}) } : {}), ...modelOptionsFromText(texts) };
  const algorithms = { ...system?.algorithms, ...parseAlgorithms(opts.algorithm) };
  const device = opts.device ?? system?.device;
  const compute = opts.compute ?? system?.compute;
  const comm = opts.comm ?? system?.comm;
  const replicate = opts.replicate === undefined ? undefined : parseIntValue(opts.replicate, 'replicate', { min: 1, max: 65536 });
  return {
    topology: opts.topology,
    ...(opts.mapping !== undefined ? { mapping: opts.mapping } : {}),
    ...(opts.fail !== undefined ? { fail: opts.fail } : {}),
    workload: {
      kind: 'workload',
      ...(opts.trace !== undefined ? { trace: opts.trace } : { generate: withTransformerDefaults(parseGenerate(opts.generate!)) }),
      ...(opts.commGroups !== undefined ? { commGroups: opts.commGroups } : {}),
      ...(opts.deps !== undefined ? { deps: opts.deps } : {}),
      ...(replicate !== undefined ? { replicate } : {}),
      ...(Object.keys(algorithms).length > 0 ? { algorithms } : {}),
      ...(device !== undefined ? { device } : {}),
      ...(compute !== undefined ? { compute: compute as 'trace' | 'roofline' } : {}),
      ...(comm !== undefined ? { comm: comm as 'concurrent' | 'serial' } : {}),
    },
    engine: engine as 'flow' | 'packet',
    ...(Object.keys(model).length > 0 ? { model: model as RunRequest['model'] } : {}),
    ...(opts.preset !== undefined ? { preset: opts.preset as RunRequest['preset'] } : {}),
    routing: { ...(opts.routing !== undefined ? { name: opts.routing } : {}), seed: parseIntValue(opts.seed ?? '1', 'seed', { min: 0, max: 2 ** 32 - 1 }) },
    ...(Object.keys(config).length > 0 ? { packet: { config } } : {}),
  };
}

/**
 * Prepares and runs a workload request, from `workload run`'s options or a saved file (also
 * `run --request` with a workload request): the resolved request with --print-request, the result
 * as JSON, or the text report.
 */
export function runWorkloadRequest(request: RunRequest, o: { printRequest?: boolean; json?: boolean; links?: number }): void {
  if (request.workload.kind !== 'workload') throw new InputError('request.workload.kind', request.workload.kind, 'workload for meshwork workload run (meshwork run --request takes every kind)');
  const prepared = prepareRequest(request, nodeWorkloadIo);
  if (o.printRequest) {
    print(JSON.stringify(prepared.request, null, 2));
    return;
  }
  const bar = progressBar(`simulating workload (${prepared.engine} level)`, { json: o.json });
  let run;
  try {
    run = runPreparedRequest(prepared, { progress: (f) => bar.update(f) }) as WorkloadRunView;
  } finally {
    bar.stop();
  }
  if (o.json) {
    print(JSON.stringify(run, null, 2));
    return;
  }
  print(workloadText(run.report, run.result.engine, prepared.topology.spec, o.links ?? 10));
  if (run.result.engine === 'packet') {
    const note = creditLimitNote(run.result.model);
    if (note) process.stderr.write(`meshwork: warning: ${note}\n`);
  }
}

export function register(program: Command): void {
  const workload = program.command('workload').description('Chakra execution traces as workloads: compute, dependencies and communication on a fabric');
  const run = addModelOptions(
    workload
      .command('run')
      .description('time a Chakra trace (one name.<rank>.et per rank) on a topology: step time, per-rank exposed communication, critical path, collectives, links')
      // Required, but checked in workloadRequestFromOptions: --request FILE takes neither.
      .option('--trace <paths...>', 'a directory of name.<rank>.et files, or the files (required unless --generate)')
      .option('--generate <params>', 'a generated transformer step instead of --trace: workload generate\'s parameters as name=value items, e.g. tp=2,dp=2,layers=1 (tp, pp, dp, ep, layers, hidden, sequence, microbatch, microbatches, bytesPerElement; tp, dp, layers default to 8, 1, 4)')
      .option('--topology <spec>', 'topology spec or file (at least as many endpoints as trace ranks; required)')
      .option('--mapping <order>', 'rank order: identity, reverse, random:seed=N, snake, or a permutation file')
      .option('--fail <spec>', 'failed links or routers (see meshwork run --help)')
      .option('--engine <engine>', 'flow (default) or packet')
      .option('--algorithm <list>', `algorithm per collective type, e.g. allreduce=ring,alltoall=bruck (default: allreduce, allgather, reduce-scatter: library, the NCCL/RCCL tuning model's pick for each communicator; alltoall pairwise; broadcast binomial)`)
      .option('--device <name>', `compute model for nodes without a duration: ${Object.keys(DEVICE_PRESETS).join(', ')}, or custom:peak=FLOPS,bw=BYTES_PER_S (default h100)`)
      .option('--compute <policy>', 'trace (default: duration_micros when present, else the roofline) or roofline (whenever num_ops is known)')
      .option('--comm <policy>', 'concurrent (default: a rank\'s collectives run at once, one stream per communicator) or serial (one in flight per rank, as ASTRA-sim)')
      .option('--comm-groups <file>', 'ASTRA-sim communicator-group JSON ({"1": [0, 1], ...}) naming the pg_name groups')
      .option('--deps <kinds>', 'which dependencies order nodes: both (default, ASTRA-sim), data (Chakra\'s original feeder; PyTorch-converted traces, whose control edges form cycles) or ctrl')
      .option('--replicate <n>', 'one trace file given: the same trace on n ranks (SPMD), so its collectives span them')
      .option('--routing <name>', "routing (default: the family's)")
      .option('--seed <n>', 'seed for random and hashed routing choices (default 1)')
      .option('--preset <name>', `model and routing defaults of another simulator: ${FLOW_PRESET_NAMES.join(', ')} (astra: ASTRA-sim's congestion-unaware analytical backend; see docs/flow.md); explicit options still win`)
      .option('--simgrid-cfg <items>', "SimGrid's own configuration items (smpirun --cfg=KEY:VALUE; repeat or separate by spaces) over --preset simgrid or simgrid-smpi, as meshwork run takes them (docs/flow.md)", (item: string, previous?: string) => (previous === undefined ? item : `${previous} ${item}`))
      .option('--astra-system <file>', "ASTRA-sim's system configuration (JSON): its collectives (ring per dimension, preferred-dataset-splits, active-chunks-per-dimension, collective-optimization) as the astra algorithm, endpoint-delay as --alpha, local-mem-bw / 3 as --reduce-bw, its roofline, one collective at a time per rank; explicit options still win (docs/workloads.md)")
      .option('--links <n>', 'busiest links to list in the table', '10')
      .option('--json', 'print the result (the RunResult of the step, the workload report and the resolved request) as JSON')
      .option('--request <file>', 'run a saved RunRequest of kind workload (JSON; --print-request writes one) and print its result as JSON; no other option is needed')
      .option('--print-request', 'print the resolved RunRequest as JSON and stop (nothing is simulated); rerun it with --request'),
  );
  // The packet routers of a schedule run (`run --engine packet`), with its defaults.
  addPacketOptions(run, 'run').action((opts: WorkloadRunOptions, command: Command) => {
    if (opts.request !== undefined) refuseBesideRequest(command, ['--json', '--links', '--print-request']);
    const links = Number(opts.links);
    if (!(isDecimal(opts.links) && Number.isInteger(links) && links >= 0)) throw new InputError('links', opts.links, 'a whole number of links');
    const request = opts.request !== undefined ? readRequestFile(opts.request) : absoluteRequestPaths(workloadRequestFromOptions(opts));
    runWorkloadRequest(request, { printRequest: opts.printRequest, json: opts.json || opts.request !== undefined, links });
  });
  registerExport(workload);
  registerGenerate(workload);
}

interface ExportOptions {
  topology: string;
  collective: string;
  algorithm: string;
  size: string;
  root?: string;
  out: string;
  name: string;
}

interface GenerateOptions {
  tp: string;
  pp: string;
  dp: string;
  ep: string;
  layers: string;
  hidden: string;
  sequence: string;
  microbatch: string;
  microbatches: string;
  out: string;
  name: string;
}

function registerExport(workload: Command): void {
  workload
    .command('export')
    .description("write a collective algorithm's schedule as Chakra ET (COMM_SEND/COMM_RECV per message, chained per stream), one name.<rank>.et per rank, for ASTRA-sim")
    .requiredOption('--topology <spec>', 'topology spec or file (ranks = its endpoints)')
    .requiredOption('--algorithm <spec>', 'algorithm and parameters (meshwork collective list)')
    .requiredOption('--size <bytes>', 'size as meshwork run takes it')
    .requiredOption('--out <dir>', 'directory for the .et files (created; must not hold .et files)')
    .option('--collective <name>', 'the collective', 'allreduce')
    .option('--root <rank>', 'root of a rooted collective')
    .option('--name <name>', 'file name prefix', 'meshwork')
    .action((opts: ExportOptions) => {
      const dir = planOutputDir(opts.out, opts.name);
      const topology = loadTopology(opts.topology);
      const collective = parseCollective(opts.collective);
      const size = parseSize(opts.size, 'size');
      const root = opts.root === undefined ? undefined : parseIntValue(opts.root, 'root', { min: 0, max: topology.numEndpoints - 1 });
      const build = { collective, algorithm: opts.algorithm, topology, size, root };
      refuseOversized({ topology, engine: 'flow', build });
      const schedule = buildSchedule(build);
      writeRankFiles(dir, opts.name, programToChakra(lowerSchedule(schedule, topology)));
      print(`wrote ${topology.numEndpoints} files ${dir}/${opts.name}.<rank>.et: ${collective} ${schedule.algorithmSpec}, ${formatSize(size)}`);
    });
}

function registerGenerate(workload: Command): void {
  workload
    .command('generate')
    .description('write a transformer training step (TP × PP × DP, optional expert all-to-all) as Chakra ET, one name.<rank>.et per rank')
    .requiredOption('--out <dir>', 'directory for the .et files (created; must not hold .et files)')
    .option('--tp <n>', 'tensor-parallel group size', String(TRANSFORMER_DEFAULTS.tp))
    .option('--pp <n>', 'pipeline stages', String(TRANSFORMER_DEFAULTS.pp))
    .option('--dp <n>', 'data-parallel replicas', String(TRANSFORMER_DEFAULTS.dp))
    .option('--ep <n>', 'expert-parallel group size within DP (1: dense MLP)', String(TRANSFORMER_DEFAULTS.ep))
    .option('--layers <n>', 'transformer layers', String(TRANSFORMER_DEFAULTS.layers))
    .option('--hidden <n>', 'hidden size', String(TRANSFORMER_DEFAULTS.hidden))
    .option('--sequence <n>', 'sequence length', String(TRANSFORMER_DEFAULTS.sequence))
    .option('--microbatch <n>', 'sequences per microbatch', String(TRANSFORMER_DEFAULTS.microbatch))
    .option('--microbatches <n>', 'microbatches per step (GPipe)', String(TRANSFORMER_DEFAULTS.microbatches))
    .option('--name <name>', 'file name prefix', 'transformer')
    .action((opts: GenerateOptions) => {
      const int = (field: keyof GenerateOptions): number => parseIntValue(opts[field], field, { min: field === 'ep' ? 0 : 1, max: 2 ** 31 - 1 });
      const dir = planOutputDir(opts.out, opts.name);
      const gen = generateTransformer({ tp: int('tp'), pp: int('pp'), dp: int('dp'), ep: int('ep'), layers: int('layers'), hidden: int('hidden'), sequence: int('sequence'), microbatch: int('microbatch'), microbatches: int('microbatches') });
      writeRankFiles(dir, opts.name, gen.ranks);
      print(`wrote ${gen.ranks.length} files ${dir}/${opts.name}.<rank>.et: ${Object.entries(gen.params).map(([k, v]) => `${k}=${v}`).join(', ')}`);
    });
}

const MAX_ROWS = 16;

function workloadText(report: WorkloadReport, engine: string, topology: string, links: number): string {
  const out: string[] = [];
  out.push(`workload: ${report.ranks.length} ranks on ${topology}, ${engine} level`);
  out.push(`step time: ${formatTime(report.step_time_s)}`);
  const mean = (f: (r: WorkloadReport['ranks'][number]) => number): number => report.ranks.reduce((s, r) => s + f(r), 0) / Math.max(1, report.ranks.length);
  out.push(`mean per rank: compute ${formatTime(mean((r) => r.compute_s))}, communication ${formatTime(mean((r) => r.communication_s))}, exposed communication ${formatTime(mean((r) => r.exposed_communication_s))}`);
  out.push('');
  const shownRanks = report.ranks.length <= MAX_ROWS ? report.ranks : [...report.ranks].sort((a, b) => b.exposed_communication_s - a.exposed_communication_s || a.rank - b.rank).slice(0, MAX_ROWS);
  out.push(
    renderTextTable({
      id: 'ranks',
      title: report.ranks.length <= MAX_ROWS ? 'per rank' : `per rank (the ${MAX_ROWS} with the most exposed communication; --json for all)`,
      columns: ['rank', 'finish', 'compute', 'cpu', 'communication', 'exposed comm.'],
      rows: shownRanks.map((r) => [r.rank, formatTime(r.finish_s), formatTime(r.compute_s), formatTime(r.cpu_s), formatTime(r.communication_s), formatTime(r.exposed_communication_s)]),
      align: ['right', 'right', 'right', 'right', 'right', 'right'],
    }),
  );
  if (report.collectives.length > 0) {
    out.push('');
    const shown = report.collectives.slice(0, MAX_ROWS * 2);
    out.push(
      renderTextTable({
        id: 'collectives',
        title: report.collectives.length > shown.length ? `collectives (first ${shown.length} of ${report.collectives.length}; --json for all)` : 'collectives',
        columns: ['#', 'collective', 'algorithm', 'group', 'ranks', 'size', 'start', 'time', 'algbw', 'busbw'],
        rows: shown.map((c) => [c.index, c.collective, c.algorithm.length > 64 ? `${c.algorithm.slice(0, 63)}…` : c.algorithm, c.group, c.ranks, formatSize(c.bytes), formatTime(c.start_s), formatTime(c.time_s), formatBandwidth(c.algbw_bytes_per_s), formatBandwidth(c.busbw_bytes_per_s)]),
        align: ['right', 'left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
      }),
    );
  }
  out.push('');
  const path = report.critical_path;
  const tail = path.slice(-MAX_ROWS);
  out.push(
    renderTextTable({
      id: 'critical',
      title: path.length > tail.length ? `critical path (last ${tail.length} of ${path.length} entries)` : 'critical path',
      columns: ['rank', 'node', 'name', 'kind', 'start', 'end'],
      rows: tail.map((n) => [n.collective >= 0 ? `coll #${n.collective}` : n.rank, n.node, n.name.length > 48 ? `${n.name.slice(0, 47)}…` : n.name, n.category, formatTime(n.start_s), formatTime(n.end_s)]),
      align: ['right', 'right', 'left', 'left', 'right', 'right'],
    }, { maxCell: [12, 8, 48, 10, 12, 12] }),
  );
  if (links > 0) {
    out.push('');
    out.push(
      renderTextTable({
        id: 'links',
        title: `busiest links (${Math.min(links, report.links.length)} of ${report.links.length} that carried bytes)`,
        columns: ['channel', 'from', 'to', 'class', 'bytes', 'utilisation'],
        rows: report.links.slice(0, links).map((l) => [l.channel, l.src, l.dst, l.class, formatSize(l.bytes), `${(100 * l.utilisation).toFixed(1)} %`]),
        align: ['right', 'right', 'right', 'left', 'right', 'right'],
      }),
    );
  }
  if (report.rounded_sizes.length > 0) out.push(`\nnote: ${report.rounded_sizes.length} collective sizes rounded up to whole elements (--json: report.rounded_sizes)`);
  return out.join('\n');
}
