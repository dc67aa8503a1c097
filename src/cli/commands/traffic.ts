import type { Command } from 'commander';
import { loadTopology, readText } from '../../node/load-topology.js';
import { FAIL_HELP } from './timing-options.js';
import { routingNames } from '../../routing/registry.js';
import { assertRanksConnected } from '../../topology/failures.js';
import { InputError } from '../../util/errors.js';
import {
  DeadlockError,
  PRESET_NAMES,
  CREDIT_RETURNS,
  TERMINAL_MODELS,
  VC_ALLOC_CHECKS,
  allocatorNames,
  arbiterNames,
  bookSimRun,
  parseBookSimConfig,
  simulateTraffic,
  simulateTrafficSeeds,
  type MultiSeedResult,
  type TrafficSweepOptions,
  type HorizonPoint,
  type LoadPoint,
  type PacketConfig,
  type PresetName,
  type TrafficSweepResult,
} from '../../sim/packet/index.js';
import { linePlot, renderPlotSvg } from '../../report/plot.js';
import { patternNames } from '../../sim/traffic/registry.js';
import { GRID_EDGES, type GridEdges } from '../../sim/traffic/patterns.js';
import { checkPacketNodes } from '../../sim/packet/limits.js';
import { estimateSpecSize } from '../../topology/estimate.js';
import { planOutputs, print, writeOutputs, type PlannedOutput } from '../io.js';
import { maxOf } from '../../util/arrays.js';
import { parseRates } from '../../util/rates.js';

export { parseRates };

interface TrafficOptions {
  topology?: string;
  mapping?: string;
  fail?: string;
  routing?: string;
  pattern?: string;
  rates?: string;
  preset?: string;
  booksimConfig?: string;
  seeds?: string;
  creditReturn?: string;
  terminals?: string;
  vcAllocCheck?: string;
  packetSize?: string;
  vcs?: string;
  vcBuf?: string;
  switching?: string;
  arbitration?: string;
  allocator?: string;
  serialization?: string;
  channelLatency?: string;
  seed?: string;
  horizon?: string;
  hot?: string;
  quarterBy?: string;
  edges?: string;
  coordinates?: string;
  json?: boolean;
  csv?: string;
  plot?: string;
  logX?: boolean;
}

function intOption(field: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const v = Number(text);
  if (!/^\d+$/.test(text.trim()) || v < min || v > max) throw new InputError(field, text, `an integer in [${min}, ${max}]`);
  return v;
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
  return seeds;
}

/** "cycles" for every channel, or "class=cycles,..." per channel class (e.g. local=10,global=100,terminal=1). */
export function parseChannelLatency(text: string): PacketConfig['channelLatency'] {
  const accepted = 'cycles, or class=cycles,... (e.g. local=10,global=100,terminal=1; "default" for the other classes)';
  if (!text.includes('=')) return intOption('channel-latency', text, 1, 1_000_000) as number;
  const perClass: Record<string, number> = {};
  for (const part of text.split(',')) {
    const [name, value, extra] = part.split('=');
    if (extra !== undefined || !name?.trim() || !/^\d+$/.test(value?.trim() ?? '')) throw new InputError('channel-latency', text, accepted);
    perClass[name.trim()] = intOption('channel-latency', value.trim(), 1, 1_000_000) as number;
  }
  return perClass;
}

function choice<T extends string>(field: string, text: string | undefined, accepted: readonly T[]): T | undefined {
  if (text === undefined) return undefined;
  if (!accepted.includes(text as T)) throw new InputError(field, text, accepted.join(' | '));
  return text as T;
}

function seedTable(multi: MultiSeedResult, head: string): string {
  const rows = [['rate', 'seeds', 'saturated', 'latency_mean', 'latency_min', 'latency_max', 'latency_sd', 'accepted_mean']];
  for (const p of multi.points) {
    const l = p.packet_latency;
    rows.push([String(p.rate), String(p.seeds), String(p.saturatedSeeds), fmt(l?.mean), fmt(l?.min), fmt(l?.max), fmt(l?.sd), fmt(p.accepted_flit_rate?.mean, 6)]);
  }
  const widths = rows[0].map((_, i) => maxOf(rows.map((r) => r[i].length)));
  return [head, ...rows.map((r) => r.map((c, i) => c.padStart(widths[i])).join('  '))].join('\n');
}

function seedCsv(multi: MultiSeedResult): string {
  const rows = ['rate,seeds,saturated_seeds,latency_mean,latency_min,latency_max,latency_sd,accepted_flit_rate_mean'];
  for (const p of multi.points) {
    const l = p.packet_latency;
    rows.push([p.rate, p.seeds, p.saturatedSeeds, fmt(l?.mean), fmt(l?.min), fmt(l?.max), fmt(l?.sd), fmt(p.accepted_flit_rate?.mean, 6)].join(','));
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

function gridEdges(text: string | undefined): GridEdges | undefined {
  if (text === undefined || (GRID_EDGES as readonly string[]).includes(text)) return text as GridEdges | undefined;
  throw new InputError('edges', text, GRID_EDGES.join(' | '));
}

function localizedCoordinates(text: string | undefined): 'own' | 'address' | undefined {
  if (text === undefined || text === 'own' || text === 'address') return text;
  throw new InputError('coordinates', text, 'own | address');
}

function isHorizon(p: LoadPoint | HorizonPoint): p is HorizonPoint {
  return 'delivered' in p;
}

/** BookSim column names; a saturated BookSim-style point reads "saturated" as BookSim's CSVs do. */
function toCsv(result: TrafficSweepResult): string {
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

function table(result: TrafficSweepResult): string {
  const head = `# ${result.topology} ${result.pattern} preset=${result.preset} P=${result.config.packetSize} VCs=${result.config.vcs} buf=${result.config.vcBuf} ${result.config.switching} routing=${result.routing}`;
  const csv = toCsv(result).trim().split('\n');
  const cells = csv.map((l) => l.split(','));
  const widths = cells[0].map((_, i) => maxOf(cells.map((r) => r[i].length)));
  const lines = cells.map((r) => r.map((c, i) => c.padStart(widths[i])).join('  '));
  const sat = result.measurement === 'booksim' ? [`saturation (latency > ${'latencyThreshold' in result.measurementOptions ? result.measurementOptions.latencyThreshold : ''} cycles): ${result.saturationRate ?? 'not reached'}`] : [];
  return [head, ...lines, ...sat].join('\n');
}

async function plotSvg(result: TrafficSweepResult, logX: boolean): Promise<string> {
  const horizon = result.measurement === 'horizon';
  const points = result.points.flatMap((p) => {
    if (isHorizon(p)) return p.meanLatency === null ? [] : [{ series: result.pattern, x: p.delivered, y: p.meanLatency }];
    return p.packet_latency === null || p.accepted_flit_rate === null ? [] : [{ series: result.pattern, x: p.accepted_flit_rate, y: p.packet_latency }];
  });
  const plot = linePlot({
    id: `traffic-${result.pattern}`,
    title: `${result.topology}, ${result.pattern} traffic`,
    figure: horizon ? '004 Figs. 7–11 (packets delivered in the horizon against latency)' : 'BookSim latency/throughput curve',
    x: { title: horizon ? `packets delivered in ${result.points[0]?.cycles ?? ''} cycles` : 'accepted throughput (flits/node/cycle)', log: logX },
    y: { title: 'mean packet latency (cycles)' },
    legend: 'pattern',
    points,
  });
  return renderPlotSvg(plot);
}

export function register(program: Command): void {
  program
    .command('traffic')
    .description('packet-level latency/throughput curve under synthetic traffic (BookSim-style measurement)')
    .option('--topology <spec>', 'topology spec, e.g. torus:8x8 or mesh:8x8, or a file:graph.json / spec file')
    .option('--booksim-config <file>', "run a BookSim 2.0 configuration file (topology, routing, router, traffic and measurement from the file; --rates and --seeds may sweep it)")
    .option('--seeds <list>', 'run every rate once per seed (first:last or a comma list) and report mean and spread per rate')
    .option('--mapping <order>', 'rank order: identity | reverse | snake | random:seed=N | a permutation file')
    .option('--fail <spec>', FAIL_HELP)
    .option('--routing <name>', `routing: ${routingNames().join(' | ')} (default: the family's, or BookSim's under --preset booksim)`)
    .option('--pattern <name>', patternNames().join(' | '))
    .option('--rates <list>', 'start:stop:step or a comma list, flits/node/cycle in (0, 1]')
    .option('--preset <name>', `router preset: ${PRESET_NAMES.join(' | ')}`, 'booksim')
    .option('--packet-size <flits>', 'flits per packet')
    .option('--vcs <n>', 'virtual channels per port')
    .option('--vc-buf <flits>', 'buffer depth per VC')
    .option('--switching <mode>', 'wormhole | vct')
    .option('--arbitration <mode>', `registered arbiter: ${arbiterNames().join(' | ')}`)
    .option('--allocator <name>', `registered allocator: ${allocatorNames().join(' | ')}`)
    .option('--serialization <cycles>', 'cycles per flit on every network channel')
    .option('--channel-latency <cycles>', 'latency of every network channel, or per class: local=10,global=100,terminal=1')
    .option('--credit-return <when>', `credit leaves upstream: ${CREDIT_RETURNS.join(' | ')}`)
    .option('--terminals <model>', `indirect-network terminals: ${TERMINAL_MODELS.join(' | ')}`)
    .option('--vc-alloc-check <rule>', `VC allocation requires: ${VC_ALLOC_CHECKS.join(' | ')}`)
    .option('--seed <n>', 'random seed')
    .option('--horizon <cycles>', 'fixed-horizon mode: run exactly this many cycles per rate (seed 004: 10000)')
    .option('--hot <rank>', 'hot-spot rank for --pattern hotspot (default 0)')
    .option('--quarter-by <how>', 'quarters for --pattern quarter: rings (DCE/MDCE default: ring-index bits, spec §2.4) | address')
    .option('--edges <how>', 'edges of the address grid for --pattern meshemu and localized: wrap (default) | open (no wrap-around)')
    .option('--coordinates <which>', 'coordinates for --pattern localized: own (default: the topology\'s where it has them) | address (square address grid for every network)')
    .option('--json', 'print the full result as JSON')
    .option('--csv <file>', 'write the curve as CSV (BookSim column names)')
    .option('--plot <file>', 'write an SVG plot of latency against throughput')
    .option('--log-x', 'log-scale x axis in the plot')
    .action(async (o: TrafficOptions, command: Command) => {
      // Every output path is checked before the (possibly long) simulation; all are written or none.
      const planned = planOutputs({ csv: o.csv, plot: o.plot });
      const csvOut = planned.find((p) => p.field === 'csv');
      const plotOut = planned.find((p) => p.field === 'plot');
      const fromFile = o.booksimConfig !== undefined ? bookSimRun(parseBookSimConfig(readText(o.booksimConfig, 'booksim-config'))) : undefined;
      if (fromFile) {
        // --preset has a default (so sweeps see it); only a preset typed on the command line conflicts.
        const typedPreset = command.getOptionValueSource('preset') === 'cli' ? o.preset : undefined;
        for (const [flag, given] of [['topology', o.topology], ['pattern', o.pattern], ['preset', typedPreset], ['mapping', o.mapping]] as const) {
          if (given !== undefined) throw new InputError(flag, given, `nothing with --booksim-config (the file sets it)`);
        }
      } else {
        for (const [flag, given] of [['topology', o.topology], ['pattern', o.pattern], ['rates', o.rates]] as const) {
          if (given === undefined) throw new InputError(flag, '(nothing)', `a value (required unless --booksim-config is given)`);
        }
      }
      const topologyText = fromFile ? fromFile.topologySpec : (o.topology as string);
      const estimate = estimateSpecSize(topologyText);
      if (estimate) checkPacketNodes(estimate.nodes, topologyText);
      if (o.routing !== undefined && !routingNames().includes(o.routing)) throw new InputError('routing', o.routing, routingNames().join(', '));
      const topology = loadTopology(topologyText, { mapping: o.mapping, fail: o.fail });
      if (o.fail !== undefined) assertRanksConnected(topology);
      const rates = o.rates !== undefined ? parseRates(o.rates) : (fromFile?.rates ?? []);
      const preset = (o.preset ?? 'booksim') as PresetName;
      if (!PRESET_NAMES.includes(preset)) throw new InputError('preset', o.preset, PRESET_NAMES.join(' | '));
      const config: Partial<PacketConfig> = { ...fromFile?.config };
      const set = <K extends keyof PacketConfig>(k: K, v: PacketConfig[K] | undefined): void => {
        if (v !== undefined) config[k] = v;
      };
      set('packetSize', intOption('packet-size', o.packetSize, 1, 65536));
      set('vcs', intOption('vcs', o.vcs, 1, 64));
      set('vcBuf', intOption('vc-buf', o.vcBuf, 1, 65536));
      set('seed', intOption('seed', o.seed, 0, 2 ** 32 - 1));
      set('serialization', intOption('serialization', o.serialization, 1, 1_000_000));
      set('channelLatency', o.channelLatency === undefined ? undefined : parseChannelLatency(o.channelLatency));
      set('creditReturn', choice('credit-return', o.creditReturn, CREDIT_RETURNS));
      set('terminals', choice('terminals', o.terminals, TERMINAL_MODELS));
      set('vcAllocCheck', choice('vc-alloc-check', o.vcAllocCheck, VC_ALLOC_CHECKS));
      const seeds = o.seeds !== undefined ? parseSeeds(o.seeds) : undefined;
      if (seeds && o.plot !== undefined) throw new InputError('plot', o.plot, 'nothing with --seeds (the multi-seed mode writes a table and --csv)');
      if (o.switching !== undefined) {
        if (o.switching !== 'wormhole' && o.switching !== 'vct') throw new InputError('switching', o.switching, 'wormhole | vct');
        config.switching = o.switching;
      }
      set('arbitration', choice('arbitration', o.arbitration, arbiterNames()));
      set('allocator', choice('allocator', o.allocator, allocatorNames()));
      const horizon = intOption('horizon', o.horizon, 1, 100_000_000);
      checkPacketNodes(topology.numNodes, topologyText);
      const sweep: TrafficSweepOptions = {
        topology,
        pattern: fromFile ? fromFile.pattern : (o.pattern as string),
        rates,
        preset,
        config,
        measurement: horizon !== undefined ? 'horizon' : 'booksim',
        measurementOptions: fromFile?.measurementOptions,
        routingName: o.routing ?? fromFile?.routingName,
        horizon,
        patternOptions: {
          hotRank: intOption('hot', o.hot, 0, topology.numEndpoints - 1),
          quarterBy: quarterBy(o.quarterBy),
          edges: gridEdges(o.edges),
          coordinates: localizedCoordinates(o.coordinates),
        },
      };
      let result: TrafficSweepResult;
      try {
        if (seeds) {
          const multi = simulateTrafficSeeds(sweep, seeds);
          const head = `# ${topology.spec} ${sweep.pattern} preset=${preset} seeds=${seeds.join(',')} routing=${multi.runs[0].routing}`;
          writeOutputs(csvOut ? [[csvOut, seedCsv(multi)]] : []);
          print(o.json ? JSON.stringify({ ...multi, runs: multi.runs.map((r) => ({ ...r, channelUtilisation: undefined })), bookSimConfig: fromFile?.keys }, null, 2) : seedTable(multi, head));
          return;
        }
        result = simulateTraffic(sweep);
      } catch (err) {
        if (err instanceof DeadlockError) {
          process.stderr.write(`meshwork: ${err.message.split('\n')[0]}\n`);
          process.exitCode = 3;
          return;
        }
        throw err;
      }
      const outputs: Array<[PlannedOutput, string]> = [];
      if (csvOut) outputs.push([csvOut, toCsv(result)]);
      if (plotOut) outputs.push([plotOut, await plotSvg(result, o.logX ?? false)]);
      writeOutputs(outputs);
      print(o.json ? JSON.stringify({ ...result, channelUtilisation: undefined, maxChannelUtilisation: Math.max(0, maxOf(result.channelUtilisation)), bookSimConfig: fromFile?.keys }, null, 2) : table(result));
    });
}
