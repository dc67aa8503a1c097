/**
 * Latency/throughput sweeps over synthetic traffic: one fresh network per load point (same seed,
 * as BookSim runs each rate independently), measured like BookSim or over a fixed horizon.
 */
import { InputError } from '../../util/errors.js';
import { hash32 } from '../../util/rng.js';
import type { Topology } from '../../topology/graph.js';
import type { RoutingFunction } from '../../routing/types.js';
import { resolveRouting } from '../../routing/registry.js';
import { packetDeadlockFreeRouting } from '../../routing/up-star-down-star.js';
import type { PatternOptions } from '../traffic/patterns.js';
import { CLOSED_LOOP_PATTERN, makePattern } from '../traffic/registry.js';
import { BernoulliSource, MeshEmulationSource, type TrafficSource } from '../traffic/sources.js';
import { presetConfig, validateConfig, type PacketConfig, type PresetName } from './config.js';
import { BOOKSIM_MEASUREMENT, measureLikeBookSim, runFixedHorizon, type HorizonResult, type LoadPoint, type MeasurementOptions } from './measure.js';
import { PacketNetwork } from './network.js';

export interface TrafficSweepOptions {
  topology: Topology;
  pattern: string;
  rates: readonly number[];
  preset?: PresetName;
  /** Overrides on top of the preset. */
  config?: Partial<PacketConfig>;
  /** Routing; default dimension-order with BookSim's random tie-break for the booksim preset. */
  routing?: RoutingFunction;
  patternOptions?: PatternOptions;
  /** 'booksim' (warm-up, samples, drain) or a fixed horizon of `horizon` cycles. */
  measurement?: 'booksim' | 'horizon';
  horizon?: number;
  measurementOptions?: Partial<MeasurementOptions>;
  /** Called after each load point (progress). */
  onPoint?: (point: LoadPoint | HorizonPoint) => void;
}

export interface HorizonPoint extends HorizonResult {
  rate: number;
}

export interface TrafficSweepResult {
  model: 'packet';
  topology: string;
  pattern: string;
  patternParams: Readonly<Record<string, unknown>>;
  routing: string;
  routingParams: Readonly<Record<string, unknown>>;
  preset: PresetName;
  config: PacketConfig;
  measurement: 'booksim' | 'horizon';
  measurementOptions: MeasurementOptions | { horizon: number };
  points: Array<LoadPoint | HorizonPoint>;
  /** First rate BookSim-style measurement declared saturated, or null. */
  saturationRate: number | null;
  /** Flits moved per channel per cycle in the last run, by channel id. */
  channelUtilisation: number[];
}

/**
 * Routing for synthetic traffic: the family's default (dimension order on mesh and torus: the booksim preset uses
 * BookSim's seeded random direction per packet at a k/2 tie, the default preset the per-pair split),
 * otherwise the family's default routing with the VC classes it declares, or up*\/down* where that
 * default is plain shortest path (rings, `file:` graphs; see packetDeadlockFreeRouting).
 */
export function trafficRouting(topology: Topology, preset: PresetName, seed: number): RoutingFunction {
  // The tie matters only to dimension order; other routings ignore it.
  const tie = preset === 'booksim' ? 'random' : 'split';
  return packetDeadlockFreeRouting(topology, resolveRouting(topology, { tie, seed, engine: 'packet' }));
}

export function simulateTraffic(opts: TrafficSweepOptions): TrafficSweepResult {
  const topology = opts.topology;
  const preset = opts.preset ?? 'booksim';
  const cfg: PacketConfig = { ...presetConfig(preset, topology), ...opts.config };
  const routing = opts.routing ?? trafficRouting(topology, preset, cfg.seed);
  validateConfig(cfg, routing.vcClasses);
  if (opts.rates.length === 0) throw new InputError('rates', '', 'at least one rate');
  for (const r of opts.rates) if (!(r > 0 && r <= 1)) throw new InputError('rates', r, 'injection rates in (0, 1] flits/node/cycle');
  const closedLoop = opts.pattern === CLOSED_LOOP_PATTERN;
  const pattern = closedLoop ? null : makePattern(opts.pattern, topology, opts.patternOptions);
  const measurement = opts.measurement ?? 'booksim';
  const m: MeasurementOptions = { ...BOOKSIM_MEASUREMENT, ...opts.measurementOptions };
  const horizon = opts.horizon ?? 10_000;
  if (measurement === 'horizon' && (!Number.isInteger(horizon) || horizon < 1 || horizon > 1e8)) {
    throw new InputError('horizon', horizon, 'an integer number of cycles in [1, 1e8]');
  }
  if (closedLoop && measurement !== 'horizon') throw new InputError('pattern', 'meshemu', 'meshemu with the fixed-horizon measurement (--horizon N)');
  const points: Array<LoadPoint | HorizonPoint> = [];
  let saturationRate: number | null = null;
  let utilisation: number[] = [];
  for (const rate of opts.rates) {
    const net = new PacketNetwork(topology, routing, cfg);
    const nodes = topology.numEndpoints;
    const source: TrafficSource = pattern
      ? new BernoulliSource(pattern, rate, cfg.packetSize, nodes, hash32(cfg.seed, 0x7a11))
      : new MeshEmulationSource(nodes, cfg.packetSize, rate);
    let point: LoadPoint | HorizonPoint;
    if (measurement === 'booksim') {
      point = measureLikeBookSim(net, source, rate, m);
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
    patternParams: pattern ? pattern.params : { mapping: 'address on a square grid, wrap-around', sweep: 'round period = ceil(4·P/rate)' },
    routing: routing.name,
    routingParams: routing.params,
    preset,
    config: cfg,
    measurement,
    measurementOptions: measurement === 'booksim' ? m : { horizon },
    points,
    saturationRate,
    channelUtilisation: utilisation,
  };
}
