/**
 * A traffic run's Result, and running a prepared traffic request: simulate()'s traffic half, apart
 * so that `meshwork traffic` (and anything else that runs only traffic) loads neither the
 * collectives nor the flow engine nor the packet schedule runner (see prepare-traffic.ts).
 */
import type { PacketWrapRecord } from '../routing/up-star-down-star.js';
import type { FlowTraceRecorder } from './flow/engine.js';
import type { PacketConfig, PresetName } from './packet/config.js';
import type { LoadPoint } from './packet/measure.js';
import type { BatchStats } from './packet/batch.js';
import { simulateTraffic, type HorizonPoint, type TrafficMeasurement, type TrafficSweepResult } from './packet/traffic-run.js';
import type { PreparedTraffic, ResolvedRunRequest } from './prepare-traffic.js';

/**
 * What a front end may pass beside a request: views and progress, never part of the request (not
 * serialisable) and never changing a number.
 */
export interface RunHooks {
  /** Both engines: called now and then with the fraction done (a traffic run: after each load point). */
  readonly progress?: (fraction: number, note?: string) => void;
  /** Flow engine: rate samples for a Chrome trace. */
  readonly trace?: FlowTraceRecorder;
  /** Traffic, BookSim measurement: also compute BookSim's overall-statistics block per point (LoadPoint.summary). */
  readonly bookSimSummary?: boolean;
}

/** One load point of a traffic run, one spelling for both measurements (cycles; flits/node/cycle). */
export interface TrafficPoint {
  readonly rate: number;
  /** Mean packet latency, creation to ejection, cycles; null when saturated (or nothing delivered). */
  readonly packet_latency: number | null;
  readonly network_latency: number | null;
  readonly accepted_flit_rate: number | null;
  readonly hops: number | null;
  readonly cycles: number;
  /** Packets measured (BookSim) or delivered within the horizon. */
  readonly packets: number;
  readonly saturated: boolean;
  /** Batch measurement: each batch's duration and their minimum, average and maximum (cycles). */
  readonly batch?: BatchStats;
}

export interface TrafficResult {
  readonly kind: 'meshwork-traffic-result';
  readonly version: 1;
  readonly request: ResolvedRunRequest;
  readonly engine: 'packet';
  readonly topology: { readonly spec: string; readonly nodes: number; readonly channels: number; readonly endpoints: number };
  readonly routing: { readonly name: string; readonly params: Readonly<Record<string, unknown>>; readonly packet_wrap: PacketWrapRecord };
  readonly pattern: { readonly name: string; readonly params: Readonly<Record<string, unknown>> };
  readonly preset: PresetName;
  readonly config: PacketConfig;
  readonly measurement: TrafficMeasurement;
  readonly measurement_options: Readonly<Record<string, unknown>>;
  readonly points: readonly TrafficPoint[];
  readonly saturation_rate: number | null;
  /** Flits moved per channel per cycle in the last load point, by channel id. */
  readonly channel_utilisation: readonly number[];
}

/** A traffic run's result with the engine's own sweep record (`raw`), which the CLI's tables and BookSim log are views of. */
export type TrafficRunView = TrafficResult & { readonly raw: TrafficSweepResult };

/** Adds views that are not part of the serialised result (enumerable: false), as the engines do for `raw`. */
export function withViews<T extends object, V extends object>(result: T, views: V): T & V {
  for (const [name, value] of Object.entries(views)) Object.defineProperty(result, name, { value, enumerable: false });
  return result as T & V;
}

/** Runs a prepared traffic request (runPrepared's traffic half, which `meshwork traffic` calls alone). */
export function runPreparedTraffic(p: PreparedTraffic, hooks: RunHooks = {}): TrafficRunView {
  let done = 0;
  const r = simulateTraffic({
    topology: p.topology,
    pattern: p.pattern,
    rates: p.rates,
    preset: p.preset,
    config: p.config,
    routing: p.routing,
    measurement: p.measurement,
    horizon: p.horizon,
    ...p.details,
    summary: hooks.bookSimSummary,
    onPoint: hooks.progress ? (point) => hooks.progress!(++done / p.rates.length, `rate ${point.rate}`) : undefined,
  });
  const t = p.topology;
  return withViews({
    kind: 'meshwork-traffic-result',
    version: 1,
    request: p.request,
    engine: 'packet',
    topology: { spec: t.spec, nodes: t.numNodes, channels: t.numChannels, endpoints: t.numEndpoints },
    routing: { name: r.routing, params: r.routingParams, packet_wrap: p.packetWrap },
    pattern: { name: r.pattern, params: r.patternParams },
    preset: r.preset,
    config: r.config,
    measurement: r.measurement,
    measurement_options: { ...r.measurementOptions },
    points: r.points.map(trafficPoint),
    saturation_rate: r.saturationRate,
    channel_utilisation: r.channelUtilisation,
  } satisfies TrafficResult, { raw: r });
}

/** The two measurements' points in one spelling (HorizonPoint's camelCase fields become LoadPoint's). */
function trafficPoint(p: LoadPoint | HorizonPoint): TrafficPoint {
  if ('saturated' in p) return p;
  return { rate: p.rate, packet_latency: p.meanLatency, network_latency: p.meanNetworkLatency, accepted_flit_rate: p.acceptedFlitRate, hops: p.hops, cycles: p.cycles, packets: p.delivered, saturated: false };
}

