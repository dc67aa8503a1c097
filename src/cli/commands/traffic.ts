import type { Command } from 'commander';
import { loadTopology } from '../../node/load-topology.js';
import { InputError } from '../../util/errors.js';
import {
  DeadlockError,
  PRESET_NAMES,
  simulateTraffic,
  type HorizonPoint,
  type LoadPoint,
  type PacketConfig,
  type PresetName,
  type TrafficSweepResult,
} from '../../sim/packet/index.js';
import { linePlot, renderPlotSvg } from '../../report/plot.js';
import { patternNames } from '../../sim/traffic/registry.js';
import { print, writeFileAtomic } from '../io.js';

interface TrafficOptions {
  topology: string;
  mapping?: string;
  pattern: string;
  rates: string;
  preset: string;
  packetSize?: string;
  vcs?: string;
  vcBuf?: string;
  switching?: string;
  arbitration?: string;
  serialization?: string;
  channelLatency?: string;
  seed?: string;
  horizon?: string;
  hot?: string;
  quarterBy?: string;
  json?: boolean;
  csv?: string;
  plot?: string;
  logX?: boolean;
}

/** "a:b:step" (inclusive) or "r1,r2,..."; every rate in (0, 1]. */
export function parseRates(text: string): number[] {
  const bad = (): never => {
    throw new InputError('rates', text, 'start:stop:step or a comma list of rates in (0, 1] flits/node/cycle');
  };
  let rates: number[];
  if (text.includes(':')) {
    const parts = text.split(':').map(Number);
    if (parts.length !== 3 || parts.some((x) => !Number.isFinite(x))) bad();
    const [a, b, s] = parts;
    if (!(s > 0) || b < a) bad();
    const n = Math.floor((b - a) / s + 1e-9) + 1;
    if (n > 1000) throw new InputError('rates', text, 'at most 1,000 load points');
    rates = Array.from({ length: n }, (_, i) => Math.round((a + i * s) * 1e9) / 1e9);
  } else {
    rates = text.split(',').map((x) => (x.trim() === '' ? NaN : Number(x)));
  }
  for (const r of rates) if (!(r > 0 && r <= 1)) throw new InputError('rates', r, 'injection rates in (0, 1] flits/node/cycle');
  return rates;
}

function intOption(field: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const v = Number(text);
  if (!/^\d+$/.test(text.trim()) || v < min || v > max) throw new InputError(field, text, `an integer in [${min}, ${max}]`);
  return v;
}

function fmt(v: number | null | undefined, digits = 4): string {
  return v === null || v === undefined ? '' : String(Number(v.toFixed(digits)));
}

function quarterBy(text: string | undefined): 'rings' | 'address' | undefined {
  if (text === undefined || text === 'rings' || text === 'address') return text;
  throw new InputError('quarter-by', text, 'rings | address');
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
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => r[i].length)));
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
    .requiredOption('--topology <spec>', 'topology spec, e.g. torus:8x8 or mesh:8x8, or a file:graph.json / spec file')
    .option('--mapping <order>', 'rank order: identity | reverse | snake | random:seed=N | a permutation file')
    .requiredOption('--pattern <name>', patternNames().join(' | '))
    .requiredOption('--rates <list>', 'start:stop:step or a comma list, flits/node/cycle in (0, 1]')
    .option('--preset <name>', `router preset: ${PRESET_NAMES.join(' | ')}`, 'booksim')
    .option('--packet-size <flits>', 'flits per packet')
    .option('--vcs <n>', 'virtual channels per port')
    .option('--vc-buf <flits>', 'buffer depth per VC')
    .option('--switching <mode>', 'wormhole | vct')
    .option('--arbitration <mode>', 'round-robin | age')
    .option('--serialization <cycles>', 'cycles per flit on every network channel')
    .option('--channel-latency <cycles>', 'latency of every network channel')
    .option('--seed <n>', 'random seed')
    .option('--horizon <cycles>', 'fixed-horizon mode: run exactly this many cycles per rate (seed 004: 10000)')
    .option('--hot <rank>', 'hot-spot rank for --pattern hotspot (default 0)')
    .option('--quarter-by <how>', 'quarters for --pattern quarter: rings (DCE/MDCE default: ring-index bits, spec §2.4) | address')
    .option('--json', 'print the full result as JSON')
    .option('--csv <file>', 'write the curve as CSV (BookSim column names)')
    .option('--plot <file>', 'write an SVG plot of latency against throughput')
    .option('--log-x', 'log-scale x axis in the plot')
    .action(async (o: TrafficOptions) => {
      const topology = loadTopology(o.topology, { mapping: o.mapping });
      const rates = parseRates(o.rates);
      if (!PRESET_NAMES.includes(o.preset as PresetName)) throw new InputError('preset', o.preset, PRESET_NAMES.join(' | '));
      const config: Partial<PacketConfig> = {};
      const set = <K extends keyof PacketConfig>(k: K, v: PacketConfig[K] | undefined): void => {
        if (v !== undefined) config[k] = v;
      };
      set('packetSize', intOption('packet-size', o.packetSize, 1, 65536));
      set('vcs', intOption('vcs', o.vcs, 1, 64));
      set('vcBuf', intOption('vc-buf', o.vcBuf, 1, 65536));
      set('seed', intOption('seed', o.seed, 0, 2 ** 32 - 1));
      set('serialization', intOption('serialization', o.serialization, 1, 1_000_000));
      set('channelLatency', intOption('channel-latency', o.channelLatency, 1, 1_000_000));
      if (o.switching !== undefined) {
        if (o.switching !== 'wormhole' && o.switching !== 'vct') throw new InputError('switching', o.switching, 'wormhole | vct');
        config.switching = o.switching;
      }
      if (o.arbitration !== undefined) {
        if (o.arbitration !== 'round-robin' && o.arbitration !== 'age') throw new InputError('arbitration', o.arbitration, 'round-robin | age');
        config.arbitration = o.arbitration;
      }
      const horizon = intOption('horizon', o.horizon, 1, 100_000_000);
      const nodes = topology.numNodes;
      if (nodes > 1 << 20) throw new InputError('topology', o.topology, 'at most 1,048,576 nodes for packet-level simulation');
      let result: TrafficSweepResult;
      try {
        result = simulateTraffic({
          topology,
          pattern: o.pattern,
          rates,
          preset: o.preset as PresetName,
          config,
          measurement: horizon !== undefined ? 'horizon' : 'booksim',
          horizon,
          patternOptions: { hotRank: intOption('hot', o.hot, 0, topology.numEndpoints - 1), quarterBy: quarterBy(o.quarterBy) },
        });
      } catch (err) {
        if (err instanceof DeadlockError) {
          process.stderr.write(`meshwork: ${err.message.split('\n')[0]}\n`);
          process.exitCode = 3;
          return;
        }
        throw err;
      }
      const svg = o.plot ? await plotSvg(result, o.logX ?? false) : undefined;
      if (o.csv) writeFileAtomic(o.csv, toCsv(result), 'csv');
      if (o.plot && svg) writeFileAtomic(o.plot, svg, 'plot');
      print(o.json ? JSON.stringify({ ...result, channelUtilisation: undefined, maxChannelUtilisation: Math.max(0, ...result.channelUtilisation) }, null, 2) : table(result));
    });
}
