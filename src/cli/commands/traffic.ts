import type { Command } from 'commander';
import { refuseBesideRequest } from '../request-options.js';
import { loadGraphFormat, loadTopology, readText } from '../../node/load-topology.js';
import { mayNameGraphFile } from '../../node/file-path.js';
import { absoluteRequestPaths, readRequestFile } from '../../node/request-paths.js';
import { FAIL_HELP } from '../help.js';
import { routingNames } from '../../routing/registry.js';
import { InputError } from '../../util/errors.js';
// The packet modules traffic runs, not the sim/packet barrel: that would also load the schedule
// runner and with it the collective program, bounds and result assembly (start-up, issue 15).
import { DeadlockError } from '../../sim/packet/deadlock.js';
import { degradedRoutingWarning, type RoutingFallback } from '../../routing/up-star-down-star.js';
import { PRESET_NAMES, type PacketConfig, type PresetName } from '../../sim/packet/config.js';
import { bookSimRun, parseBookSimConfig, type BookSimRun } from '../../sim/packet/booksim-config.js';
import { RANDOM_STREAMS, summariseSeeds, type MultiSeedResult, type RandomStreamName, type SeedPoint, type HorizonPoint, type TrafficSweepResult } from '../../sim/packet/traffic-run.js';
// prepare() and simulate()'s traffic halves: the whole of either would load every collective and
// the flow engine at start-up (issue 24).
import { prepareTraffic, type RunIo } from '../../sim/prepare-traffic.js';
import { runPreparedTraffic, type RunHooks } from '../../sim/run-traffic.js';
import type { RunRequest } from '../../sim/request.js';
import type { Topology } from '../../topology/graph.js';
import type { LoadPoint } from '../../sim/packet/measure.js';
import { patternNames } from '../../sim/traffic/registry.js';
import { GRID_EDGES, type GridEdges } from '../../sim/traffic/patterns.js';
import { meanPacketSize } from '../../sim/traffic/sources.js';
import { planOutputs, print, printError, writeOutputs, type PlannedOutput } from '../io.js';
import { appendAll, maxOf } from '../../util/arrays.js';
import { progressBar } from '../progress.js';
import { addPacketOptions, intOption as checkedInt, parsePacketOptions, type PacketCliOptions } from '../packet-options.js';
import { parseRates } from '../../util/rates.js';
import { BOOKSIM_UNSTABLE, bookSimBatchLines, bookSimBatchOverallLines, bookSimSummaryLines } from '../../report/booksim-log.js';

export { parseRates };

interface TrafficOptions extends PacketCliOptions {
  request?: string;
  printRequest?: boolean;
  topology?: string;
  mapping?: string;
  fail?: string;
  routing?: string;
  pattern?: string;
  rates?: string;
  preset?: string;
  booksimConfig?: string;
  seeds?: string;
  seed?: string;
  horizon?: string;
  hot?: string;
  exclude?: string;
  xr?: string;
  quarterBy?: string;
  randomStream?: string;
  edges?: string;
  coordinates?: string;
  json?: boolean;
  booksimOutput?: boolean;
  csv?: string;
  plot?: string;
  logX?: boolean;
}

function intOption(field: string, text: string | undefined, min: number, max: number): number | undefined {
  return text === undefined ? undefined : checkedInt(field, text, min, max);
}

/** `--hot`: one rank, or a comma list of ranks each with an optional `:weight` (several hot spots). */
function hotOption(text: string | undefined): { hotRank?: number; hotRanks?: number[]; hotWeights?: number[] } {
  if (text === undefined) return {};
  const spots = text.split(',').map((item) => {
    const [rank, weight, extra] = item.split(':');
    if (extra !== undefined) throw new InputError('hot', text, 'a rank, or a comma list of rank[:weight] (0,9 or 0:3,9:1)');
    if (weight !== undefined && !/^\s*[1-9]\d{0,9}\s*$/.test(weight)) throw new InputError('hot', text, 'rank[:weight] with integer weights of at least 1 (0:3,63)');
    return { rank: checkedInt('hot', rank, 0, 2 ** 32 - 1), weight: weight === undefined ? 1 : checkedInt('hot', weight, 1, 2 ** 31 - 1) };
  });
  // Given on the command line, it replaces a BookSim file's hot spots.
  if (spots.length === 1 && !text.includes(':')) return { hotRank: spots[0].rank, hotRanks: undefined, hotWeights: undefined };
  return { hotRanks: spots.map((x) => x.rank), hotWeights: spots.map((x) => x.weight) };
}

/** Which patterns read each pattern option: given beside another pattern, it was ignored in silence. */
const PATTERN_OPTIONS: ReadonlyArray<readonly [keyof TrafficOptions, string, readonly string[]]> = [
  ['hot', 'hot', ['hotspot']],
  ['exclude', 'exclude', ['background']],
  ['xr', 'xr', ['tornado', 'neighbor', 'badperm-yarc']],
  ['quarterBy', 'quarter-by', ['quarter']],
  ['edges', 'edges', ['meshemu', 'localized']],
  ['coordinates', 'coordinates', ['localized']],
];

function refuseOtherPatternsOptions(o: TrafficOptions, pattern: string | undefined): void {
  for (const [key, flag, patterns] of PATTERN_OPTIONS) {
    if (o[key] === undefined || pattern === undefined || patterns.includes(pattern)) continue;
    throw new InputError(flag, o[key], `nothing unless --pattern ${patterns.join(' or ')} (the pattern here is ${pattern})`);
  }
}

/** "a:b" (inclusive) or "s1,s2,..."; non-negative integer seeds, at most 1,000. */
export function parseSeeds(text: string): number[] {
  const bad = (): never => {
    throw new InputError('seeds', text, 'first:last or a comma list of non-negative integers (at most 1,000 seeds)');
  };
  const isInt = (x: string): boolean => /^\d+$/.test(x.trim());
  let seeds: number[];
  if (text.includes(':')) {
    const parts = text.split(':');
    if (parts.length !== 2 || !parts.every(isInt)) bad();
    const [a, b] = parts.map(Number);
    if (b < a || b - a >= 1000) bad();
    seeds = Array.from({ length: b - a + 1 }, (_, i) => a + i);
  } else {
    const parts = text.split(',');
    if (!parts.every(isInt) || parts.length > 1000) bad();
    seeds = parts.map(Number);
  }
  if (seeds.some((x) => x > 2 ** 32 - 1)) bad();
  // A seed twice would count one run twice in the means and spreads.
  const repeated = seeds.find((x, i) => seeds.indexOf(x) !== i);
  if (repeated !== undefined) throw new InputError('seeds', text, `distinct seeds (${repeated} is given twice)`);
  return seeds;
}

/** The per-rate means every single-seed column has, after the latency spread (issue 30: --seeds keeps every column). */
function seedMeans(p: SeedPoint): string[] {
  return [fmt(p.accepted_flit_rate?.mean, 6), fmt(p.network_latency?.mean), fmt(p.hops?.mean), fmt(p.cycles?.mean, 1)];
}

/** Batch runs add the mean (over seeds) of each seed's average batch duration. */
function batchColumn(multi: MultiSeedResult): boolean {
  return multi.points.some((p) => p.batch_duration !== undefined);
}

function seedTable(multi: MultiSeedResult, head: string): string {
  const batch = batchColumn(multi);
  const rows = [['rate', 'seeds', 'saturated', 'latency_mean', 'latency_min', 'latency_max', 'latency_sd', 'accepted_mean', 'network_latency_mean', 'hops_mean', 'cycles_mean', ...(batch ? ['batch_duration_mean'] : [])]];
  for (const p of multi.points) {
    const l = p.packet_latency;
    rows.push([String(p.rate), String(p.seeds), String(p.saturatedSeeds), fmt(l?.mean), fmt(l?.min), fmt(l?.max), fmt(l?.sd), ...seedMeans(p), ...(batch ? [fmt(p.batch_duration?.mean)] : [])]);
  }
  const widths = rows[0].map((_, i) => maxOf(rows.map((r) => r[i].length)));
  return [head, ...rows.map((r) => r.map((c, i) => c.padStart(widths[i])).join('  '))].join('\n');
}

function seedCsv(multi: MultiSeedResult): string {
  const batch = batchColumn(multi);
  const rows = [`rate,seeds,saturated_seeds,latency_mean,latency_min,latency_max,latency_sd,accepted_flit_rate_mean,network_latency_mean,hops_mean,cycles_mean${batch ? ',batch_duration_mean' : ''}`];
  for (const p of multi.points) {
    const l = p.packet_latency;
    rows.push([p.rate, p.seeds, p.saturatedSeeds, fmt(l?.mean), fmt(l?.min), fmt(l?.max), fmt(l?.sd), ...seedMeans(p), ...(batch ? [fmt(p.batch_duration?.mean)] : [])].join(','));
  }
  return rows.join('\n') + '\n';
}

function fmt(v: number | null | undefined, digits = 4): string {
  return v === null || v === undefined ? '' : String(Number(v.toFixed(digits)));
}

function quarterBy(text: string | undefined): 'rings' | 'address' | undefined {
  if (text === undefined || text === 'rings' || text === 'address') return text;
  throw new InputError('quarter-by', text, 'rings | address');
}

function randomStreamOption(text: string | undefined): RandomStreamName | undefined {
  if (text === undefined || (RANDOM_STREAMS as readonly string[]).includes(text)) return text as RandomStreamName | undefined;
  throw new InputError('random-stream', text, RANDOM_STREAMS.join(' | '));
}

function gridEdges(text: string | undefined): GridEdges | undefined {
  if (text === undefined || (GRID_EDGES as readonly string[]).includes(text)) return text as GridEdges | undefined;
  throw new InputError('edges', text, GRID_EDGES.join(' | '));
}

function localizedCoordinates(text: string | undefined): 'own' | 'address' | undefined {
  if (text === undefined || text === 'own' || text === 'address') return text;
  throw new InputError('coordinates', text, 'own | address');
}

/** BookSim column names; a saturated BookSim-style point reads "saturated" as BookSim's CSVs do. */
function toCsv(result: TrafficSweepResult): string {
  if (result.measurement === 'batch') {
    const rows = ['batch_size,batch_count,max_outstanding,batch_duration_min,batch_duration_avg,batch_duration_max,packet_latency,network_latency,accepted_flit_rate,hops,cycles'];
    for (const p of result.points as LoadPoint[]) {
      const b = p.batch!;
      rows.push([b.size, b.count, b.maxOutstanding, b.minDuration, fmt(b.averageDuration), b.maxDuration, fmt(p.packet_latency), fmt(p.network_latency), fmt(p.accepted_flit_rate, 6), fmt(p.hops), p.cycles].join(','));
    }
    return rows.join('\n') + '\n';
  }
  if (result.measurement === 'horizon') {
    const rows = ['rate,delivered,packet_latency,network_latency,accepted_flit_rate,hops,cycles'];
    for (const p of result.points as HorizonPoint[]) {
      rows.push([p.rate, p.delivered, fmt(p.meanLatency), fmt(p.meanNetworkLatency), fmt(p.acceptedFlitRate, 6), fmt(p.hops), p.cycles].join(','));
    }
    return rows.join('\n') + '\n';
  }
  const rows = ['rate,packet_latency,network_latency,accepted_flit_rate,hops,cycles'];
  for (const p of result.points as LoadPoint[]) {
    rows.push([p.rate, p.saturated ? 'saturated' : fmt(p.packet_latency), fmt(p.network_latency), fmt(p.accepted_flit_rate, 6), fmt(p.hops), p.cycles].join(','));
  }
  return rows.join('\n') + '\n';
}

/** The unit of the `rate` column: flits, or packets as BookSim's `injection_rate_uses_flits = 0` means. */
/** The header's rate unit, and where packet latency starts when it is not BookSim's default. */
/** The header's note of a non-default random stream (the CSV and JSON carry it in the result). */
function streamNote(result: TrafficSweepResult): string {
  return result.randomStream ? ` random=${result.randomStream}` : '';
}

function rateUnitNote(result: TrafficSweepResult): string {
  const flits = result.packetSizes ? `${meanPacketSize(result.packetSizes)} flits on average` : `${result.config.packetSize} flits`;
  const unit = result.rateUnit === 'packets' ? `rate=packets/node/cycle (x${flits}; accepted in flits)` : 'rate=flits/node/cycle';
  const fromGeneration = 'includeQueuing' in result.measurementOptions && result.measurementOptions.includeQueuing === false;
  return fromGeneration ? `${unit} latency=from generation (include_queuing = 0)` : unit;
}

function table(result: TrafficSweepResult): string {
  const head = `# ${result.topology} ${result.pattern} preset=${result.preset} P=${result.packetSizes ? `{${result.packetSizes.sizes.join(',')}}:weights{${result.packetSizes.weights.join(',')}}` : result.config.packetSize} VCs=${result.config.vcs} buf=${result.config.vcBuf} ${result.config.switching} routing=${result.routing} ${rateUnitNote(result)}${streamNote(result)}`;
  const csv = toCsv(result).trim().split('\n');
  const cells = csv.map((l) => l.split(','));
  const widths = cells[0].map((_, i) => maxOf(cells.map((r) => r[i].length)));
  const lines = cells.map((r) => r.map((c, i) => c.padStart(widths[i])).join('  '));
  if (result.measurement === 'batch') return [head, ...batchTable(result.points as LoadPoint[])].join('\n');
  const sat = result.measurement === 'booksim' ? [`saturation (latency > ${'latencyThreshold' in result.measurementOptions ? result.measurementOptions.latencyThreshold : ''} cycles): ${result.saturationRate ?? 'not reached'}`] : [];
  return [head, ...lines, ...sat].join('\n');
}

/** Batch mode: one row per batch (BookSim's "Time used" lines), then the means over the run. */
function batchTable(points: readonly LoadPoint[]): string[] {
  const lines: string[] = [];
  for (const p of points) {
    const b = p.batch!;
    const rows = [['batch', 'duration', 'injected', 'received']];
    b.durations.forEach((d, i) => rows.push([String(i + 1), String(d), String(b.injectedCycles[i]), String(d - b.injectedCycles[i])]));
    const widths = rows[0].map((_, i) => maxOf(rows.map((r) => r[i].length)));
    appendAll(lines, [
      `batch mode: ${b.count} × ${b.size} packets per node, max outstanding ${b.maxOutstanding === 0 ? 'unlimited' : b.maxOutstanding} (injection rate not read)`,
      ...rows.map((r) => r.map((c, i) => c.padStart(widths[i])).join('  ')),
      `batch duration: min ${b.minDuration}, average ${fmt(b.averageDuration)}, max ${b.maxDuration} cycles`,
      `packet latency ${fmt(p.packet_latency)}, network latency ${fmt(p.network_latency)}, accepted ${fmt(p.accepted_flit_rate, 6)} flits/node/cycle, hops ${fmt(p.hops)}, ${p.packets} packets, ${p.cycles} cycles`,
    ]);
  }
  return lines;
}

/** BookSim's end-of-run log for each rate, each block after a comment naming its rate. */
function bookSimLog(result: TrafficSweepResult): string {
  const lines: string[] = [];
  for (const p of result.points as LoadPoint[]) {
    if (p.batch) {
      // BookSim's batch mode prints its batches before the end-of-run block, and their durations after it.
      lines.push(`// meshwork: sim_type = batch, ${result.topology} ${result.pattern}`);
      appendAll(lines, [...bookSimBatchLines(p.batch), ...bookSimSummaryLines(p.summary!), ...bookSimBatchOverallLines(p.batch)]);
      continue;
    }
    lines.push(`// meshwork: injection_rate = ${p.rate} (${result.rateUnit}/node/cycle), ${result.topology} ${result.pattern}`);
    appendAll(lines, p.summary ? bookSimSummaryLines(p.summary) : [BOOKSIM_UNSTABLE]);
  }
  return lines.join('\n');
}

/** One line on stderr (stdout stays the table, CSV or JSON); the result records it as routingFallback. */
function warnDegradedRouting(fallback: RoutingFallback | null): void {
  const warning = degradedRoutingWarning(fallback);
  if (warning) process.stderr.write(`meshwork: ${warning}\n`);
}

/**
 * `meshwork traffic`'s options → a traffic RunRequest. A BookSim file's values come first and options
 * typed on the command line win over them; the request then holds everything (no file is read again).
 */
function trafficRequestFromOptions(o: TrafficOptions, fromFile: BookSimRun | undefined, presetTyped: boolean): RunRequest {
  if (fromFile) {
    // --preset has a default (so sweeps see it); only a preset typed on the command line conflicts.
    const typedPreset = presetTyped ? o.preset : undefined;
    for (const [flag, given] of [['topology', o.topology], ['pattern', o.pattern], ['preset', typedPreset], ['mapping', o.mapping]] as const) {
      if (given !== undefined) throw new InputError(flag, given, `nothing with --booksim-config (the file sets it)`);
    }
    // Batch mode reads neither the rate nor a horizon (BatchTrafficManager sends batches, then stops).
    if (fromFile.batch) {
      for (const [flag, given] of [['rates', o.rates], ['horizon', o.horizon]] as const) {
        if (given !== undefined) throw new InputError(flag, given, 'nothing with a sim_type = batch file (batch mode does not read the injection rate and ends when its batches arrive)');
      }
    }
  } else {
    for (const [flag, given] of [['topology', o.topology], ['pattern', o.pattern], ['rates', o.rates]] as const) {
      if (given === undefined) throw new InputError(flag, undefined, `a value (required unless --booksim-config is given)`);
    }
  }
  const topology = fromFile ? fromFile.topologySpec : (o.topology as string);
  if (o.routing !== undefined && !routingNames().includes(o.routing)) throw new InputError('routing', o.routing, routingNames().join(', '));
  // Beside a BookSim file, --rates means what the file's injection_rate means (packets/node/cycle
  // unless it sets injection_rate_uses_flits = 1), as BookSim's `injection_rate=R` override does.
  const rates = o.rates !== undefined ? parseRates(o.rates) : (fromFile?.fileRates ?? []);
  if (rates.length === 0) throw new InputError('rates', '', 'at least one rate');
  const preset = o.preset ?? 'booksim';
  if (!PRESET_NAMES.includes(preset as PresetName)) throw new InputError('preset', o.preset, PRESET_NAMES.join(' | '));
  const { seed: fileSeed, ...fileConfig } = fromFile?.config ?? {};
  const seed = intOption('seed', o.seed, 0, 2 ** 32 - 1) ?? fileSeed;
  const config: Partial<PacketConfig> = { ...fileConfig, ...parsePacketOptions(o) };
  const horizon = intOption('horizon', o.horizon, 1, 100_000_000);
  refuseOtherPatternsOptions(o, fromFile ? fromFile.pattern : (o.pattern as string));
  const patternOptions = defined({
    ...fromFile?.patternOptions,
    ...hotOption(o.hot),
    ...(o.exclude === undefined ? {} : { exclude: o.exclude.split(',').map((r) => checkedInt('exclude', r, 0, 2 ** 32 - 1)) }),
    digits: o.xr !== undefined ? { ...fromFile?.patternOptions?.digits, xr: intOption('xr', o.xr, 1, 1 << 12) } : fromFile?.patternOptions?.digits,
    quarterBy: quarterBy(o.quarterBy),
    edges: gridEdges(o.edges),
    coordinates: localizedCoordinates(o.coordinates),
  });
  const routing = o.routing ?? fromFile?.routingName;
  const workload = defined({
    kind: 'traffic' as const,
    pattern: fromFile ? fromFile.pattern : (o.pattern as string),
    rates,
    rateUnit: fromFile?.rateUnit,
    randomStream: randomStreamOption(o.randomStream),
    measurement: fromFile?.batch ? ('batch' as const) : horizon !== undefined ? ('horizon' as const) : undefined,
    horizon,
    batch: fromFile?.batch,
    seed,
    patternOptions: Object.keys(patternOptions).length > 0 ? patternOptions : undefined,
    measurementOptions: fromFile && Object.keys(fromFile.measurementOptions).length > 0 ? fromFile.measurementOptions : undefined,
    onOff: fromFile?.onOff,
    vcsPerClass: fromFile?.vcsPerClass,
    packetSizes: fromFile?.packetSizes,
  });
  return defined({
    topology,
    mapping: o.mapping,
    fail: o.fail,
    workload,
    engine: 'packet' as const,
    routing: routing !== undefined ? { name: routing } : undefined,
    packet: { preset: preset as PresetName, ...(Object.keys(config).length > 0 ? { config } : {}) },
  }) as RunRequest;
}

/** The object without its undefined fields: a request holds what was given, nothing more. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function register(program: Command): void {
  const traffic = program
    .command('traffic')
    .description('packet-level latency/throughput curve under synthetic traffic (BookSim-style measurement)')
    .option('--topology <spec>', 'topology spec, e.g. torus:8x8 or mesh:8x8, or a file:graph.json / spec file')
    .option('--booksim-config <file>', "run a BookSim 2.0 configuration file (topology, routing, router, traffic and measurement from the file; --rates and --seeds may sweep it)")
    .option('--seeds <list>', 'run every rate once per seed (first:last or a comma list) and report mean and spread per rate')
    .option('--mapping <order>', 'rank order: identity | reverse | snake | random:seed=N | a permutation file (default: identity)')
    .option('--fail <spec>', FAIL_HELP)
    .option('--routing <name>', `routing: ${routingNames().join(' | ')} (default: the family's, or BookSim's under --preset booksim)`)
    .option('--pattern <name>', patternNames().join(' | '))
    .option('--rates <list>', "start:stop:step or a comma list, flits/node/cycle in (0, 1]; with --booksim-config in the file's unit (packets/node/cycle unless it sets injection_rate_uses_flits = 1)")
    .option('--preset <name>', `router preset: ${PRESET_NAMES.join(' | ')}`, 'booksim');
  // The router options sit after --preset, as they did before they were shared with run.
  addPacketOptions(traffic, 'traffic')
    .option('--seed <n>', 'random seed (default 1)')
    .option('--random-stream <name>', `the traffic source's random numbers: ${RANDOM_STREAMS.join(' | ')} (booksim: BookSim 2.0's Knuth generators from the seed, drawn in its order, so a run whose routing and allocators draw nothing reproduces BookSim's run with that seed cycle for cycle) (default: meshwork)`)
    .option('--horizon <cycles>', 'fixed-horizon mode: run exactly this many cycles per rate (seed 004: 10000) (default: BookSim\'s measurement: warm-up, sample periods, drain)')
    .option('--hot <ranks>', 'hot-spot rank for --pattern hotspot (default 0), or several as rank[:weight],... (0,9 or 0:3,9:1: a hot packet picks one by weight)')
    .option('--exclude <ranks>', 'for --pattern background: the ranks no packet is sent to (comma list)')
    .option('--xr <n>', "for --pattern tornado, neighbor and badperm-yarc: BookSim's xr, digits of radix xr·k (default 1; 2 on a flatfly with numbering=tiles and 2×2 tiles moves every terminal)")
    .option('--quarter-by <how>', 'quarters for --pattern quarter: rings (DCE/MDCE default: ring-index bits, spec §2.4) | address')
    .option('--edges <how>', 'edges of the address grid for --pattern meshemu and localized: wrap (default) | open (no wrap-around)')
    .option('--coordinates <which>', 'coordinates for --pattern localized: own (default: the topology\'s where it has them) | address (square address grid for every network)')
    .option('--json', 'print the full result as JSON')
    .option('--booksim-output', "print BookSim's own end-of-run log per rate (Time taken, Overall Traffic Statistics: packet, network and flit latency with min/max, injected and accepted rates, hops; a sim_type = batch file: its batch lines and durations too), for scripts that read BookSim's log")
    .option('--csv <file>', 'write the curve as CSV (BookSim column names)')
    .option('--plot <file>', 'write an SVG plot of latency against throughput')
    .option('--log-x', 'log-scale x axis in the plot')
    .option('--request <file>', 'run a saved traffic RunRequest (JSON, schemas/run-request.schema.json) and show it as this command does; only the output options are read beside it')
    .option('--print-request', 'print the resolved RunRequest as JSON and stop (nothing is simulated); save it and rerun it with --request')
    .action(async (o: TrafficOptions, command: Command) => {
      if (o.request !== undefined) refuseBesideRequest(command, ['--json', '--booksim-output', '--csv', '--plot', '--log-x', '--print-request']);
      if (o.logX && o.plot === undefined) throw new InputError('log-x', true, 'only with --plot FILE (it sets the plot\'s x axis; nothing else is plotted)');
      // Every output path is checked before the (possibly long) simulation; all are written or none.
      const planned = planOutputs({ csv: o.csv, plot: o.plot });
      const csvOut = planned.find((p) => p.field === 'csv');
      const plotOut = planned.find((p) => p.field === 'plot');
      const fromFile = o.booksimConfig !== undefined ? bookSimRun(parseBookSimConfig(readText(o.booksimConfig, 'booksim-config'))) : undefined;
      // An anynet file's network (network_file) needs the file readers, which argv alone did not show.
      if (fromFile && mayNameGraphFile(fromFile.topologySpec)) await loadGraphFormat();
      // argv (with a BookSim file's values folded in) or a saved file: one RunRequest, prepared and run by the library.
      const request = o.request !== undefined ? readRequestFile(o.request) : absoluteRequestPaths(trafficRequestFromOptions(o, fromFile, command.getOptionValueSource('preset') === 'cli'));
      const w = request.workload;
      if (w.kind !== 'traffic') throw new InputError('request.workload.kind', w.kind, 'traffic (meshwork run --request runs the other kinds)');
      for (const warning of fromFile?.warnings ?? []) process.stderr.write(`meshwork: warning: ${warning}\n`);
      const seeds = o.seeds !== undefined ? parseSeeds(o.seeds) : undefined;
      if (seeds && o.plot !== undefined) throw new InputError('plot', o.plot, 'nothing with --seeds (the multi-seed mode writes a table and --csv)');
      if (seeds && o.printRequest) throw new InputError('print-request', true, 'one run: without --seeds (print one request per seed with --seed N)');
      if (o.booksimOutput) {
        for (const [flag, given] of [['seeds', o.seeds], ['horizon', o.horizon], ['json', o.json]] as const) {
          if (given !== undefined) throw new InputError(flag, given, "nothing with --booksim-output (BookSim's log is one run per rate with its own measurement)");
        }
      }
      // The topology is built once, for every seed.
      let built: Topology | undefined;
      const io: RunIo = { loadTopology: (spec, opts) => (built ??= loadTopology(spec, opts)) };
      const runs = (seeds ?? [undefined]).map((seed) => prepareTraffic(seed === undefined ? request : { ...request, workload: { ...w, seed } }, io));
      if (o.printRequest) {
        print(JSON.stringify(runs[0].request, null, 2));
        return;
      }
      const bar = progressBar('traffic', { json: o.json });
      const totalPoints = w.rates.length * runs.length;
      let pointsDone = 0;
      const hooks: RunHooks = { bookSimSummary: o.booksimOutput === true, progress: (_, note) => bar.update(++pointsDone / totalPoints, `${pointsDone}/${totalPoints} load points, ${note} done`) };
      const extras = { bookSimConfig: fromFile?.keys, warnings: fromFile?.warnings };
      let result: TrafficSweepResult;
      let resolved;
      let packetWrap;
      try {
        const ran = runs.map((p) => runPreparedTraffic(p, hooks));
        if (seeds) {
          const multi = summariseSeeds(ran.map((r) => r.raw), seeds);
          const head = `# ${ran[0].topology.spec} ${multi.runs[0].pattern} preset=${multi.runs[0].preset} seeds=${seeds.join(',')} routing=${multi.runs[0].routing} ${rateUnitNote(multi.runs[0])}${streamNote(multi.runs[0])}`;
          bar.stop();
          warnDegradedRouting(multi.runs[0].routingFallback);
          writeOutputs(csvOut ? [[csvOut, seedCsv(multi)]] : []);
          print(o.json ? JSON.stringify({ ...multi, runs: multi.runs.map((r) => ({ ...r, channelUtilisation: undefined })), ...extras, requests: ran.map((r) => r.request) }, null, 2) : seedTable(multi, head));
          return;
        }
        result = ran[0].raw;
        resolved = ran[0].request;
        packetWrap = ran[0].routing.packet_wrap;
      } catch (err) {
        if (err instanceof DeadlockError) {
          printError(`meshwork: ${err.message.split('\n')[0]}\n`);
          process.exitCode = 3;
          return;
        }
        throw err;
      } finally {
        bar.stop();
      }
      const outputs: Array<[PlannedOutput, string]> = [];
      if (csvOut) outputs.push([csvOut, toCsv(result)]);
      if (plotOut) {
        const [{ renderPlotSvg }, { trafficPlot }] = await Promise.all([import('../../report/plot.js'), import('../../report/traffic-plot.js')]);
        outputs.push([plotOut, await renderPlotSvg(trafficPlot(result, o.logX ?? false))]);
      }
      writeOutputs(outputs);
      warnDegradedRouting(result.routingFallback);
      if (o.booksimOutput) {
        print(bookSimLog(result));
        return;
      }
      print(o.json ? JSON.stringify({ ...result, channelUtilisation: undefined, maxChannelUtilisation: Math.max(0, maxOf(result.channelUtilisation)), ...extras, packetWrap, request: resolved }, null, 2) : table(result));
    });
}
