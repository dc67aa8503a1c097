/**
 * What prepare() does for every request (validate, build the topology, refuse what is too large,
 * choose the routing options, resolve the request), and all of it for a traffic workload.
 * prepare.ts adds the collective and schedule workloads. Apart because a traffic run loads only
 * this: `meshwork traffic` would otherwise compile every collective, the schedule readers and the
 * flow engine at start-up (issue 24: ~40 % of a small run's CPU).
 */
import { packetWrapRecord, type PacketWrapRecord } from '../routing/up-star-down-star.js';
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import { buildTopology } from '../topology/registry.js';
import { applyFailures, assertRanksConnected, parseFailures } from '../topology/failures.js';
import { applyMapping, isNamedMapping } from '../topology/mapping.js';
import { refuseSingleEndpoint } from '../topology/endpoint-count.js';
import { defaultRoutingName, resolveRouting, type RoutingOptions } from '../routing/registry.js';
import type { RoutingFunction } from '../routing/types.js';
import type { TorusTieBreak } from '../routing/dimension-order.js';
import type { BuildRequest } from '../collectives/registry.js';
import type { LoadedSchedule, ScheduleFileFormat } from '../interop/schedule-text.js';
import { estimateSpecSize } from '../topology/estimate.js';
import { flowPreset, presetRoutingOptions } from './flow/presets.js';
import { checkPacketNodes, refusePacketSharedHosts } from './packet/limits.js';
import type { PacketConfig, PresetName } from './packet/config.js';
import type { FlowModelOptions } from './program/model.js';
import { trafficRouting, type RandomStreamName, type RateUnit, type TrafficMeasurement, type TrafficSweepOptions } from './packet/traffic-run.js';
import { inSchemaOrder, parseRunRequest, type RunRequest } from './request.js';

/** How the library reaches files: given by the platform (Node: src/node/run-io.ts). */
export interface RunIo {
  /** Builds a topology from a spec or a file, with a rank mapping and failures. Default: specs only (buildTopology). */
  loadTopology?(spec: string, opts: { mapping?: string; fail?: string }): Topology;
  /** The text of a file (schedule files). Default: none, so a schedule workload is refused. */
  readText?(path: string, field: string): string;
  /** A schedule file (its format told from the content unless given), streamed where the platform can. Default: readText, then scheduleFromText. */
  readSchedule?(path: string, opts: { format?: ScheduleFileFormat; size?: string; topology: string }): LoadedSchedule;
}

/** A request with every default filled in: what the result records, and what re-runs it exactly. */
export type ResolvedRunRequest = RunRequest & {
  readonly engine: 'flow' | 'packet';
  /** `name` is absent only for traffic whose packet preset chooses the routing. */
  readonly routing: { name?: string; tie?: TorusTieBreak; seed: number };
};

export interface PreparedBase {
  readonly request: ResolvedRunRequest;
  readonly topology: Topology;
  readonly engine: 'flow' | 'packet';
  /** The routing both the engine and the bounds use: chosen once, wrapped deadlock-free at packet level. */
  readonly routing: RoutingFunction;
  /** Packet level: the deadlock-free wrap decision, as the result records it (`routing.packet_wrap`). */
  readonly packetWrap?: PacketWrapRecord;
}

export interface PreparedTraffic extends PreparedBase {
  readonly kind: 'traffic';
  /** A named routing runs as named; the packet preset's choice gets the deadlock-free wrap. */
  readonly packetWrap: PacketWrapRecord;
  readonly pattern: string;
  readonly rates: readonly number[];
  readonly preset: PresetName;
  readonly config: Partial<PacketConfig>;
  readonly measurement: TrafficMeasurement;
  readonly horizon?: number;
  /** The traffic workload's pattern, measurement and injection details, as the request gives them. */
  readonly details: Pick<TrafficSweepOptions, 'rateUnit' | 'randomStream' | 'patternOptions' | 'measurementOptions' | 'onOff' | 'vcsPerClass' | 'packetSizes' | 'batch'>;
}

/** The request's topology, with its failures and rank mapping, through `io` when it reads files. */
export function topologyOf(req: Pick<RunRequest, 'topology' | 'mapping' | 'fail'>, io: RunIo = {}): Topology {
  // Whatever loads it, a single endpoint is refused by the one rule (topology/endpoint-count.ts).
  if (io.loadTopology) return refuseSingleEndpoint(io.loadTopology(req.topology, { mapping: req.mapping, fail: req.fail }), req.topology);
  let t = buildTopology(req.topology);
  if (req.fail !== undefined) t = applyFailures(t, parseFailures(req.fail));
  if (req.mapping !== undefined) {
    if (!isNamedMapping(req.mapping)) throw new InputError('mapping', req.mapping, 'a named order (identity, reverse, random:seed=N, snake); a mapping file needs a RunIo that reads files');
    t = applyMapping(t, req.mapping);
  }
  return refuseSingleEndpoint(t, req.topology);
}

/** What every workload kind resolves alike, before its own part. */
export interface ResolvedBase {
  readonly request: ResolvedRunRequest;
  readonly topology: Topology;
  readonly engine: 'flow' | 'packet';
  readonly build?: BuildRequest;
  readonly routingOptions: RoutingOptions;
  readonly preset?: ReturnType<typeof flowPreset>;
  readonly seed: number;
}

/**
 * The shared part of prepare() for a parsed request. `refuse` runs the workload's size refusals on
 * the built topology (and, for a named collective, returns its build request) before anything
 * large is allocated.
 */
export function resolveBase(req: RunRequest, io: RunIo, refuse: (topology: Topology, engine: 'flow' | 'packet') => BuildRequest | undefined): ResolvedBase {
  const w = req.workload;
  const engine = req.engine ?? (w.kind === 'traffic' ? 'packet' : 'flow');
  if (w.kind === 'traffic' && engine !== 'packet') throw new InputError('request.engine', engine, 'packet for a traffic workload (synthetic traffic runs on the packet engine)');
  // A spec whose size is known from its text is refused before its graph is built.
  const estimate = engine === 'packet' ? estimateSpecSize(req.topology) : undefined;
  if (estimate) checkPacketNodes(estimate.nodes, req.topology);
  const topology = topologyOf(req, io);
  assertRanksConnected(topology);
  if (engine === 'packet') refusePacketSharedHosts(topology);
  const build = refuse(topology, engine);
  const preset = req.preset === undefined ? undefined : flowPreset(req.preset);
  const seed = req.routing?.seed ?? (w.kind === 'traffic' ? (w.seed ?? 1) : 1);
  // The preset's routing options; its family routing (astra-first-dimension under astra) unless another routing is named.
  const fromPreset = preset === undefined ? {} : presetRoutingOptions(preset, topology, engine, req.model as FlowModelOptions | undefined);
  const { routing: presetChoice, chosenBy, ...presetDefaults } = fromPreset;
  const keepChoice = req.routing?.name === undefined || req.routing.name === presetChoice;
  const routingOptions: RoutingOptions = { ...presetDefaults, ...(keepChoice && presetChoice !== undefined ? { chosenBy } : {}), ...(req.routing?.tie ? { tie: req.routing.tie as TorusTieBreak } : {}), routing: req.routing?.name ?? presetChoice, seed, engine };
  // Traffic without a named routing takes its packet preset's (BookSim's own under booksim, with its
  // tie-break): the request leaves the choice to the preset, so a re-run makes it again; the result names it.
  const presetChooses = w.kind === 'traffic' && !req.routing?.name;
  const resolvedRouting = { ...(presetChooses ? {} : { name: routingOptions.routing ?? defaultRoutingName(topology) }), ...(routingOptions.tie ? { tie: routingOptions.tie } : {}), seed };
  // In the schema's order whatever order the fields were given in: a saved request prints byte for
  // byte as the first. `resolvedRouting` is built in the routing schema's order (name, tie, seed).
  const request = inSchemaOrder({ ...req, engine, routing: resolvedRouting }) as ResolvedRunRequest;
  return { request, topology, engine, build, routingOptions, preset, seed };
}

/** prepare() for a traffic request alone (refused otherwise): what `meshwork traffic` calls. */
export function prepareTraffic(raw: RunRequest | unknown, io: RunIo = {}): PreparedTraffic {
  return prepareParsedTraffic(parseRunRequest(raw), io);
}

/** prepareTraffic for a request already parsed (prepare() hands traffic requests here). */
export function prepareParsedTraffic(req: RunRequest, io: RunIo): PreparedTraffic {
  const w = req.workload;
  if (w.kind !== 'traffic') throw new InputError('request.workload.kind', w.kind, 'traffic (prepare() takes every kind)');
  const { request, topology, engine, routingOptions, seed } = resolveBase(req, io, (t, e) => {
    if (e === 'packet') checkPacketNodes(t.numNodes, t.spec);
    return undefined;
  });
  const packetPreset = (req.packet?.preset ?? 'booksim') as PresetName;
  const config: Partial<PacketConfig> = { ...(req.packet?.config as Partial<PacketConfig> | undefined), seed };
  // Synthetic traffic: the preset's routing (BookSim's own under booksim) unless one is named. A
  // named routing runs as named, as `meshwork traffic --routing` always has (a cyclic one may
  // deadlock, reported as such); only the preset's choice gets the deadlock-free wrap.
  const routing = req.routing?.name ? resolveRouting(topology, routingOptions) : trafficRouting(topology, packetPreset, seed);
  const hot = w.patternOptions?.hotRank;
  if (hot !== undefined && hot > topology.numEndpoints - 1) throw new InputError('hot', String(hot), `an integer in [0, ${topology.numEndpoints - 1}]`);
  const details = { rateUnit: w.rateUnit as RateUnit | undefined, randomStream: w.randomStream as RandomStreamName | undefined, patternOptions: w.patternOptions as TrafficSweepOptions['patternOptions'], measurementOptions: w.measurementOptions, onOff: w.onOff, vcsPerClass: w.vcsPerClass, packetSizes: w.packetSizes, batch: w.batch };
  const packetWrap = packetWrapRecord(routing, req.routing?.name ? 'as named' : 'deadlock-free wrap');
  return { kind: 'traffic', request, topology, engine, routing, packetWrap, pattern: w.pattern, rates: w.rates, preset: packetPreset, config, measurement: w.measurement ?? 'booksim', horizon: w.horizon, details };
}
