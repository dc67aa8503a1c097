/**
 * Latency/throughput sweeps over synthetic traffic: one fresh network per load point (same seed,
 * as BookSim runs each rate independently), measured like BookSim or over a fixed horizon.
 */
import { InputError } from '../../util/errors.js';
import { hash32, Rng, type RandomStream } from '../../util/rng.js';
import { BookSimRandom } from '../../util/knuth-rng.js';
import { requireTopology, type Topology } from '../../topology/graph.js';
import type { RoutingFunction } from '../../routing/types.js';
import { resolveRouting } from '../../routing/registry.js';
import { familyOf } from '../../topology/registry.js';
import { packetDeadlockFreeRouting, routingFallbackOf, type RoutingFallback } from '../../routing/up-star-down-star.js';
import type { PatternOptions } from '../traffic/patterns.js';
import { CLOSED_LOOP_PATTERN, makePattern } from '../traffic/registry.js';
import { BernoulliSource, checkPacketSizeMix, meanPacketSize, MeshEmulationSource, type OnOffParams, type PacketSizeMix, type TrafficSource } from '../traffic/sources.js';
import { channelLatencyRanges, checkChannelClasses, presetConfig, validateConfig, type PacketConfig, type PresetName } from './config.js';
import { BOOKSIM_MEASUREMENT, measureBatches, measureLikeBookSim, runFixedHorizon, type HorizonResult, type LoadPoint, type MeasurementOptions } from './measure.js';
import { BatchSource, BOOKSIM_BATCH, checkBatchOptions, type BatchOptions } from './batch.js';
import { PacketNetwork } from './network.js';
import { maxOf, minOf } from '../../util/arrays.js';

export interface TrafficSweepOptions {
  topology: Topology;
  pattern: string;
  /** Offered loads, in `rateUnit` per node per cycle. */
  rates: readonly number[];
  /**
   * Unit of `rates`: `flits` (Meshwork's default) or `packets`, BookSim's default
   * (`injection_rate_uses_flits = 0`), converted to flits by the packet size.
   */
  rateUnit?: RateUnit;
  preset?: PresetName;
  /** Overrides on top of the preset. */
  config?: Partial<PacketConfig>;
  /** Routing; default dimension-order with BookSim's random tie-break for the booksim preset. */
  routing?: RoutingFunction;
  /** A registered routing by name instead of the preset's choice (built with the run's seed). */
  routingName?: string;
  patternOptions?: PatternOptions;
  /**
   * 'booksim' (warm-up, samples, drain), a fixed horizon of `horizon` cycles, or BookSim's batch
   * mode (`batch`: each node sends batch.size packets, batch.count times; one point, at the one rate
   * given, which batch mode does not read).
   */
  measurement?: TrafficMeasurement;
  horizon?: number;
  /** Batch mode's sizes; default BookSim's (1000 packets per node, 1 batch, no outstanding limit). */
  batch?: Partial<BatchOptions>;
  measurementOptions?: Partial<MeasurementOptions>;
  /** On/off injection (BookSim `injection_process = on_off`) instead of Bernoulli. */
  onOff?: OnOffParams;
  /**
   * Packets of several sizes (BookSim `packet_size = {{...}}` with `packet_size_rate`) instead of
   * `config.packetSize` flits each: the largest size is the run's packet size (VCT buffers, limits),
   * and flit rates are divided by the mean size. Bernoulli and on/off sources only.
   */
  packetSizes?: PacketSizeMix;
  /** Also compute BookSim's overall statistics block per point (LoadPoint.summary; BookSim measurement only). */
  summary?: boolean;
  /** VCs per routing class (PacketNetwork): default all of them; 1 for BookSim's dragonflynew `out_vc = ph`. */
  vcsPerClass?: number;
  /**
   * Where the traffic source draws its injections, packet sizes and destinations: `meshwork`
   * (default: Meshwork's Rng from a hash of the seed) or `booksim` (BookSim 2.0's two Knuth
   * generators started from the seed, drawn in BookSim's order: the run injects BookSim's packets).
   */
  randomStream?: RandomStreamName;
  /** Called after each load point (progress). */
  onPoint?: (point: LoadPoint | HorizonPoint) => void;
}

/** How a load point is measured: BookSim's latency/throughput mode, a fixed horizon, or BookSim's batch mode. */
export type TrafficMeasurement = 'booksim' | 'horizon' | 'batch';

/** The random numbers a traffic source draws: Meshwork's own, or BookSim's (TrafficSweepOptions.randomStream). */
export type RandomStreamName = 'meshwork' | 'booksim';
export const RANDOM_STREAMS: readonly RandomStreamName[] = ['meshwork', 'booksim'];

/** A traffic source's random numbers for one load point: each starts from the seed, as each BookSim run does. */
function sourceStream(name: RandomStreamName, seed: number): RandomStream {
  return name === 'booksim' ? new BookSimRandom(seed) : new Rng(hash32(seed, 0x7a11));
}

/** What an injection rate counts per node per cycle. */
export type RateUnit = 'flits' | 'packets';
export const RATE_UNITS: readonly RateUnit[] = ['flits', 'packets'];

export interface HorizonPoint extends HorizonResult {
  rate: number;
}

export interface TrafficSweepResult {
  model: 'packet';
  topology: string;
  pattern: string;
  /** Unit of every point's `rate` (per node per cycle); accepted rates are always flits. */
  rateUnit: RateUnit;
  /** The injection process: Bernoulli, or on/off with its parameters as given (one negative: derived). */
  injection: { process: 'bernoulli' } | ({ process: 'on_off' } & OnOffParams);
  /** The packet-size mix, when packets are not all `config.packetSize` flits. */
  packetSizes?: PacketSizeMix;
  /** Set when the source drew BookSim's random numbers (absent: Meshwork's). */
  randomStream?: 'booksim';
  patternParams: Readonly<Record<string, unknown>>;
  routing: string;
  routingParams: Readonly<Record<string, unknown>>;
  /**
   * Set when the packet engine routed on something other than the topology's routing: a degraded
   * network (or a ring, a `file:` graph) whose shortest paths are not deadlock free with one VC
   * class is routed wholesale on up*\/down* (issue 28 item 13: two failed links of 128 on torus:8x8
   * drop saturation from 0.30 to 0.09; the output says so). Null when the routing was used as is.
   */
  routingFallback: RoutingFallback | null;
  /** Per channel class, [min, max] cycles, where the network gave each channel its own latency (config.channelLatency does not apply). */
  channelLatencyRange?: Readonly<Record<string, readonly [number, number]>>;
  preset: PresetName;
  config: PacketConfig;
  measurement: TrafficMeasurement;
  measurementOptions: MeasurementOptions | { horizon: number; includeQueuing?: boolean } | (BatchOptions & { includeQueuing?: boolean });
  points: Array<LoadPoint | HorizonPoint>;
  /** First rate BookSim-style measurement declared saturated, or null. */
  saturationRate: number | null;
  /** Flits moved per channel per cycle in the last run, by channel id. */
  channelUtilisation: number[];
}

/**
 * Routing for synthetic traffic: the family's default (dimension order on mesh and torus: the booksim preset uses
 * BookSim's seeded random direction per packet at a k/2 tie, the default preset the per-pair split),
 * under the booksim preset BookSim's `nca` on fat trees and `min` on dragonflies,
 * otherwise the family's default routing with the VC classes it declares, or up*\/down* where that
 * default is plain shortest path (rings, `file:` graphs; see packetDeadlockFreeRouting).
 */
export function trafficRouting(topology: Topology, preset: PresetName, seed: number): RoutingFunction {
  // The tie matters only to dimension order; other routings ignore it. Under the booksim preset a
  // family may name BookSim's own routing (fat tree: nca; dragonfly: min, i.e. group-direct).
  const tie = preset === 'booksim' ? 'random' : 'split';
  const routing = preset === 'booksim' ? familyOf(topology)?.booksimRouting : undefined;
  // BookSim's torus VC classes follow its own dateline test (dor_next_torus), not the documented one.
  const dateline = preset === 'booksim' ? 'booksim' : undefined;
  return packetDeadlockFreeRouting(topology, resolveRouting(topology, { routing, tie, seed, dateline, engine: 'packet' }));
}

export function simulateTraffic(opts: TrafficSweepOptions): TrafficSweepResult {
  if (typeof opts !== 'object' || opts === null) throw new InputError('options', opts, '{ topology, pattern, rates, ... } (a spec string goes in a RunRequest: runRequest)');
  const topology = requireTopology(opts.topology, 'topology', 'a Topology built by buildTopology (a spec string goes in a RunRequest: runRequest)');
  if (!Array.isArray(opts.rates)) throw new InputError('rates', opts.rates, 'an array of injection rates, such as [0.1, 0.2]');
  const preset = opts.preset ?? 'booksim';
  const mix = opts.packetSizes;
  if (mix) checkPacketSizeMix(mix);
  const cfg: PacketConfig = { ...presetConfig(preset, topology), ...opts.config, ...(mix ? { packetSize: maxOf(mix.sizes) } : {}) };
  // BookSim's network of this instance gives each channel its own latency (flatfly's on-chip wires),
  // unless the run sets channel latencies itself; the result records each class's range.
  const ownLatency = preset === 'booksim' && opts.config?.channelLatency === undefined ? familyOf(topology)?.booksimChannelCycles?.(topology) : undefined;
  const routing = opts.routing ?? (opts.routingName ? resolveRouting(topology, { routing: opts.routingName, seed: cfg.seed, engine: 'packet' }) : trafficRouting(topology, preset, cfg.seed));
  checkChannelClasses(opts.config?.channelLatency, topology);
  validateConfig(cfg, routing.vcClasses, opts.vcsPerClass);
  if (opts.rates.length === 0) throw new InputError('rates', '', 'at least one rate');
  const rateUnit = opts.rateUnit ?? 'flits';
  if (!RATE_UNITS.includes(rateUnit)) throw new InputError('rate-unit', rateUnit, RATE_UNITS.join(' | '));
  const randomStream = opts.randomStream ?? 'meshwork';
  if (!RANDOM_STREAMS.includes(randomStream)) throw new InputError('random-stream', randomStream, RANDOM_STREAMS.join(' | '));
  const meanSize = mix ? meanPacketSize(mix) : cfg.packetSize;
  const flitsPerRate = rateUnit === 'packets' ? meanSize : 1;
  const measurement = opts.measurement ?? 'booksim';
  const batch: BatchOptions | null = measurement === 'batch' ? { ...BOOKSIM_BATCH, ...opts.batch } : null;
  if (batch) {
    checkBatchOptions(batch, topology.numEndpoints);
    // BookSim's batch _IssuePacket never asks the injection process: the rate and its process are not read.
    if (opts.rates.length !== 1) throw new InputError('rates', opts.rates.join(','), "one rate with measurement batch (batch mode does not read it: every node sends as fast as its source queue drains, as BookSim's BatchTrafficManager)");
    if (opts.onOff) throw new InputError('injection', 'on_off', "bernoulli with measurement batch (batch mode injects without an injection process)");
    if (mix) throw new InputError('packet-sizes', 'a mix', 'one packet size with measurement batch');
  }
  for (const r of batch ? [] : opts.rates) {
    if (!(r > 0 && r * flitsPerRate <= 1)) {
      throw new InputError('rates', r, rateUnit === 'packets' ? `injection rates in (0, 1/${meanSize}] packets/node/cycle (${meanSize}-flit packets${mix ? ' on average' : ''}, at most 1 flit/node/cycle)` : 'injection rates in (0, 1] flits/node/cycle');
    }
  }
  const closedLoop = opts.pattern === CLOSED_LOOP_PATTERN;
  if (closedLoop && mix) throw new InputError('packet-sizes', 'a mix', `one packet size with ${CLOSED_LOOP_PATTERN} (its rounds send packets of config.packetSize)`);
  const pattern = closedLoop ? null : makePattern(opts.pattern, topology, opts.patternOptions);
  const m: MeasurementOptions = { ...BOOKSIM_MEASUREMENT, ...opts.measurementOptions };
  const includeQueuing = m.includeQueuing !== false;
  // Recorded with every measurement that reads it, but only when it departs from BookSim's default.
  const queuingRecord = includeQueuing ? {} : { includeQueuing };
  const horizon = opts.horizon ?? 10_000;
  if (measurement === 'horizon' && (!Number.isInteger(horizon) || horizon < 1 || horizon > 1e8)) {
    throw new InputError('horizon', horizon, 'an integer number of cycles in [1, 1e8]');
  }
  if (closedLoop && batch) throw new InputError('pattern', 'meshemu', 'a destination pattern with measurement batch (meshemu is closed loop)');
  if (closedLoop && measurement !== 'horizon') throw new InputError('pattern', 'meshemu', 'meshemu with the fixed-horizon measurement (--horizon N)');
  const points: Array<LoadPoint | HorizonPoint> = [];
  let saturationRate: number | null = null;
  let utilisation: number[] = [];
  for (const rate of opts.rates) {
    const net = new PacketNetwork(topology, routing, cfg, [], opts.vcsPerClass, ownLatency);
    const nodes = topology.numEndpoints;
    const stream = sourceStream(randomStream, cfg.seed);
    // BookSim draws its routing's and allocators' numbers from the same generators as its traffic.
    if (randomStream === 'booksim') net.drawFrom(stream);
    const batchSource = batch && pattern ? new BatchSource(pattern, cfg.packetSize, nodes, stream, batch, includeQueuing) : null;
    const source: TrafficSource = batchSource
      ? batchSource
      : pattern
      ? new BernoulliSource(pattern, rate * flitsPerRate, mix ?? cfg.packetSize, nodes, stream, opts.onOff, includeQueuing)
      : new MeshEmulationSource(nodes, cfg.packetSize, rate * flitsPerRate, opts.patternOptions?.edges);
    let point: LoadPoint | HorizonPoint;
    if (batchSource) {
      point = measureBatches(net, batchSource, rate, opts.summary === true);
    } else if (measurement === 'booksim') {
      point = measureLikeBookSim(net, source, rate, m, opts.summary === true);
      if (point.saturated && saturationRate === null) saturationRate = rate;
    } else {
      point = { rate, ...runFixedHorizon(net, source, horizon) };
    }
    utilisation = Array.from(net.chFlits, (f) => f / Math.max(1, net.now));
    points.push(point);
    opts.onPoint?.(point);
  }
  return {
    model: 'packet',
    topology: topology.spec,
    pattern: opts.pattern,
    rateUnit,
    injection: opts.onOff ? { process: 'on_off', ...opts.onOff } : { process: 'bernoulli' },
    ...(mix ? { packetSizes: mix } : {}),
    ...(randomStream === 'booksim' ? { randomStream } : {}),
    patternParams: pattern
      ? pattern.params
      : { mapping: `address on a square grid, ${opts.patternOptions?.edges === 'open' ? 'open edges (edge PEs have 3 neighbours, corners 2)' : 'wrap-around'}`, sweep: 'round period = ceil(4·P/rate)' },
    routing: routing.name,
    routingParams: opts.vcsPerClass === undefined ? routing.params : { ...routing.params, vcsPerClass: opts.vcsPerClass },
    routingFallback: routingFallbackOf(topology, routing),
    preset,
    config: cfg,
    ...(ownLatency ? { channelLatencyRange: channelLatencyRanges(topology, ownLatency) } : {}),
    measurement,
    measurementOptions: batch ? { ...batch, ...queuingRecord } : measurement === 'booksim' ? m : { horizon, ...queuingRecord },
    points,
    saturationRate,
    channelUtilisation: utilisation,
  };
}

/** Mean and spread of one quantity over the seeds that gave a value. */
export interface Spread {
  mean: number;
  min: number;
  max: number;
  /** Sample standard deviation (0 for one value). */
  sd: number;
}

/** One load point over several seeds: the knee must be compared as a mean, not one run. */
export interface SeedPoint {
  rate: number;
  seeds: number;
  /** Seeds whose run was declared saturated (BookSim mode) at this rate. */
  saturatedSeeds: number;
  /** Over the unsaturated seeds; null when every seed saturated. */
  packet_latency: Spread | null;
  accepted_flit_rate: Spread | null;
  /** Over the unsaturated seeds, as the two above. */
  network_latency: Spread | null;
  hops: Spread | null;
  /** Cycles simulated, over every seed (saturated runs included: they stopped at the abort). */
  cycles: Spread | null;
  /** Batch measurement: each seed's average batch duration, cycles. */
  batch_duration?: Spread | null;
}

export interface MultiSeedResult {
  seeds: number[];
  runs: TrafficSweepResult[];
  points: SeedPoint[];
  /** First rate at which any seed saturated, or null. */
  saturationRate: number | null;
}

export function spread(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = values.length > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1)) : 0;
  return { mean, min: minOf(values), max: maxOf(values), sd };
}

/** Runs the sweep once per seed (traffic and routing draws both follow the seed) and summarises each rate. */
export function simulateTrafficSeeds(opts: TrafficSweepOptions, seeds: readonly number[]): MultiSeedResult {
  if (seeds.length === 0) throw new InputError('seeds', '', 'at least one seed');
  return summariseSeeds(seeds.map((seed) => simulateTraffic({ ...opts, config: { ...opts.config, seed } })), seeds);
}

/** One run per seed (the same rates), summarised rate by rate. */
export function summariseSeeds(runs: TrafficSweepResult[], seeds: readonly number[]): MultiSeedResult {
  const points = runs[0].points.map(({ rate }, i): SeedPoint => {
    const at = runs.map((r) => r.points[i]);
    const ok = at.filter((p): p is LoadPoint => 'saturated' in p && !p.saturated && p.packet_latency !== null);
    const horizon = at.filter((p): p is HorizonPoint => 'delivered' in p);
    const latencies = [...ok.map((p) => p.packet_latency as number), ...horizon.flatMap((p) => (p.meanLatency === null ? [] : [p.meanLatency]))];
    const accepted = [...ok.map((p) => p.accepted_flit_rate as number), ...horizon.map((p) => p.acceptedFlitRate)];
    const known = (xs: ReadonlyArray<number | null>): number[] => xs.filter((x): x is number => x !== null);
    const networkLatency = known([...ok.map((p) => p.network_latency), ...horizon.map((p) => p.meanNetworkLatency)]);
    const hops = known([...ok.map((p) => p.hops), ...horizon.map((p) => p.hops)]);
    return {
      rate,
      seeds: seeds.length,
      saturatedSeeds: at.length - ok.length - horizon.length,
      packet_latency: spread(latencies),
      accepted_flit_rate: spread(accepted),
      network_latency: spread(networkLatency),
      hops: spread(hops),
      cycles: spread(at.map((p) => p.cycles)),
      ...(ok.some((p) => p.batch) ? { batch_duration: spread(ok.flatMap((p) => (p.batch ? [p.batch.averageDuration] : []))) } : {}),
    };
  });
  const sat = points.find((p) => p.saturatedSeeds > 0);
  return { seeds: [...seeds], runs, points, saturationRate: sat ? sat.rate : null };
}
