/**
 * The one entry point of a timed run, called by every front end (the CLI's run and compare,
 * `reproduce`, sweeps, the web UI): Schedule (or a hand-built Program) → Program → engine → the
 * shared RunResult. Either engine runs the same program under the same time model, routing default
 * and stream semantics; only how data moves differs (max-min flows or flit-level routers).
 */
import type { Topology } from '../topology/graph.js';
import type { Schedule } from '../collectives/schedule.js';
import { buildSchedule, type BuildRequest } from '../collectives/registry.js';
import { resolveRouting, type RoutingOptions } from '../routing/registry.js';
import type { RoutingFunction } from '../routing/types.js';
import { InputError } from '../util/errors.js';
import { scheduleDemands, type CollectiveDemand } from './bounds/index.js';
import type { FlowModelOptions } from './program/model.js';
import type { FlowProgram } from './program/program.js';
import { lowerSchedule, workloadOf } from './program/from-schedule.js';
import { disturbProgram, resolveNoise, type NoiseOptions } from './program/disturb.js';
import { BARRIERS_RECORD, bracketWithBarriers } from './program/barriers.js';
import type { RunResult } from './result.js';
import { runFlow } from './flow/run.js';
import type { FlowRunOutput, FlowTraceRecorder } from './flow/engine.js';
import { checkTraceSize } from './flow/trace.js';
import { simulatePacketSchedule, type PacketScheduleOptions } from './packet/schedule-run.js';
import { effectiveTopology, libraryTiming, withLibraryLatency } from './library.js';
import { simulateTraffic, type HorizonPoint, type TrafficSweepResult } from './packet/traffic-run.js';
import type { LoadPoint } from './packet/measure.js';
import type { PacketConfig, PresetName } from './packet/config.js';
import { mscclModel, mscclProgram } from '../interop/msccl/run.js';
import { prepare, refuseOversized, type PreparedCollective, type PreparedRun, type PreparedTraffic, type ResolvedRunRequest, type RunIo } from './prepare.js';
import type { RunRequest } from './request.js';

export type EngineName = 'flow' | 'packet';
export const ENGINES: readonly EngineName[] = ['flow', 'packet'];

export interface SimulateRequest {
  readonly topology: Topology;
  /**
   * What to run: a schedule of the collectives IR, or a program built by hand (at least one). With
   * both, `program` is the schedule already lowered (the schedule then gives workload and demands).
   */
  readonly schedule?: Schedule;
  readonly program?: FlowProgram;
  /** Default 'flow'. */
  readonly engine?: EngineName;
  /** The time model (α, NIC model, protocol, barrier, γ...), the same for both engines. */
  readonly model?: FlowModelOptions;
  /** Routing; default: the topology's default routing (see `routingFor`). */
  readonly routing?: RoutingFunction;
  readonly routingOptions?: RoutingOptions;
  /** Packet engine only: preset, router configuration, flit size, cycle, cycle limit. */
  readonly packet?: Pick<PacketScheduleOptions, 'preset' | 'config' | 'flitBytes' | 'cycleSeconds' | 'maxCycles'>;
  /** Flow engine only: rate samples for a trace. */
  readonly trace?: FlowTraceRecorder;
  /** Both engines: called now and then with the fraction of operations completed (progress bars). */
  readonly progress?: (fraction: number) => void;
  /** For a hand-built program: what ran, and the demands the topology bounds need. */
  readonly workload?: Readonly<Record<string, unknown>> | null;
  readonly demands?: readonly CollectiveDemand[];
  /** Disturbances (start skew, jitter, OS noise) applied to the lowered program; recorded as `model.noise`. */
  readonly noise?: NoiseOptions;
  /**
   * Bracket the collective with SMPI's barrier and time it as MPI benchmarks do (sim/program/barriers.ts):
   * from the earliest rank leaving the first barrier to the last leaving the second. Default false.
   */
  readonly barriers?: boolean;
}

/** A result with the lowered program and, at flow level, the engine's raw output (neither serialised). */
export type SimulateResult = RunResult & { readonly program: FlowProgram; readonly raw?: FlowRunOutput };

/**
 * The routing a run uses unless one is given: the topology's default routing. The flow engine
 * splits equal-cost ties in exact halves (two flows per message); the packet engine splits them per
 * packet by hash, so it asks for none here.
 */
export function routingFor(topology: Topology, engine: EngineName, options: RoutingOptions = {}): RoutingFunction {
  return resolveRouting(topology, { ...options, engine });
}

/**
 * The result of a RunRequest, discriminated by `kind`: a collective or schedule run (the shared
 * RunResult) or a traffic sweep. Both record the resolved request (`request`), so any number can
 * be re-run exactly with `simulate(result.request)`.
 */
export type Result = CollectiveResult | TrafficResult;
export type CollectiveResult = RunResult & { readonly request: ResolvedRunRequest };

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
}

export interface TrafficResult {
  readonly kind: 'meshwork-traffic-result';
  readonly version: 1;
  readonly request: ResolvedRunRequest;
  readonly engine: 'packet';
  readonly topology: { readonly spec: string; readonly nodes: number; readonly channels: number; readonly endpoints: number };
  readonly routing: { readonly name: string; readonly params: Readonly<Record<string, unknown>> };
  readonly pattern: { readonly name: string; readonly params: Readonly<Record<string, unknown>> };
  readonly preset: PresetName;
  readonly config: PacketConfig;
  readonly measurement: 'booksim' | 'horizon';
  readonly measurement_options: Readonly<Record<string, unknown>>;
  readonly points: readonly TrafficPoint[];
  readonly saturation_rate: number | null;
  /** Flits moved per channel per cycle in the last load point, by channel id. */
  readonly channel_utilisation: readonly number[];
}

const isRunRequest = (req: SimulateRequest | RunRequest): req is RunRequest => typeof req.topology === 'string';

/**
 * Runs a RunRequest (prepare, then the engine) and returns its Result; or, as before, a
 * SimulateRequest of a built topology and schedule or program, returning the RunResult.
 */
export function simulate(req: RunRequest, io?: RunIo, hooks?: RunHooks): Result;
export function simulate(req: SimulateRequest): SimulateResult;
export function simulate(req: SimulateRequest | RunRequest, io: RunIo = {}, hooks: RunHooks = {}): SimulateResult | Result {
  if (isRunRequest(req)) return runPrepared(prepare(req, io), hooks);
  return simulateBuilt(req);
}

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

/** Runs what prepare() resolved. */
export function runPrepared(p: PreparedRun, hooks: RunHooks = {}): Result {
  return p.kind === 'traffic' ? runTraffic(p, hooks) : runCollective(p, hooks);
}

/** Adds views that are not part of the serialised result (enumerable: false), as the engines do for `raw`. */
function withViews<T extends object>(result: T, views: Readonly<Record<string, unknown>>): T {
  for (const [name, value] of Object.entries(views)) Object.defineProperty(result, name, { value, enumerable: false });
  return result;
}

/** A collective run's result with the views a front end draws from: the built schedule, the lowered program and the flow engine's raw output. */
export type CollectiveRunView = CollectiveResult & { readonly schedule: Schedule; readonly program: FlowProgram; readonly raw?: FlowRunOutput };

/** A traffic run's result with the engine's own sweep record (`raw`), which the CLI's tables and BookSim log are views of. */
export type TrafficRunView = TrafficResult & { readonly raw: TrafficSweepResult };

function runCollective(p: PreparedCollective, hooks: RunHooks): CollectiveResult {
  const req = p.request;
  const schedule = p.loaded?.schedule ?? buildSchedule(p.build!);
  const msccl = p.loaded?.msccl;
  const result = simulateBuilt({
    topology: p.topology,
    schedule,
    program: msccl ? mscclProgram(msccl, p.topology) : undefined,
    engine: p.engine,
    model: msccl ? mscclModel(msccl, p.model) : p.model,
    routing: p.routing,
    noise: req.noise,
    barriers: req.barriers,
    packet: req.packet ? { preset: req.packet.preset as PresetName | undefined, config: req.packet.config as Partial<PacketConfig> | undefined, flitBytes: req.packet.flitBytes, cycleSeconds: req.packet.cycleSeconds, maxCycles: req.packet.maxCycles } : undefined,
    trace: hooks.trace,
    progress: hooks.progress,
  });
  const { program, raw, ...record } = result;
  return withViews({ ...record, request: req }, { schedule, program, raw });
}

function runTraffic(p: PreparedTraffic, hooks: RunHooks): TrafficResult {
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
    routing: { name: r.routing, params: r.routingParams },
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

function simulateBuilt(req: SimulateRequest): SimulateResult {
  const engine = req.engine ?? 'flow';
  if (!ENGINES.includes(engine)) throw new InputError('engine', engine, ENGINES.join(', '));
  if (req.schedule === undefined && req.program === undefined) throw new InputError('simulate', 'neither a schedule nor a program', 'a schedule or a program');
  // A collective library's schedule runs under its protocol: scaled link rates, its latency up front (sim/library.ts).
  const library = req.schedule ? libraryTiming(req.schedule, req.topology) : undefined;
  const t = library ? effectiveTopology(req.topology, library) : req.topology;
  const loweredPlain = req.program ?? lowerSchedule(req.schedule!, t);
  const plain = library ? withLibraryLatency(loweredPlain, library) : loweredPlain;
  const bracketed = req.barriers ? bracketWithBarriers(plain) : undefined;
  const lowered = bracketed?.program ?? plain;
  const timeOrigin = bracketed?.timeOrigin;
  const program = req.noise ? disturbProgram(lowered, resolveNoise(req.noise)) : lowered;
  // A trace is refused before the run when it would be too large to write (names the limit).
  if (req.trace) checkTraceSize(program);
  const model = library ? { ...req.model, alpha: req.model?.alpha ?? 0 } : req.model;
  const baseWorkload = req.schedule ? workloadOf(req.schedule) : (req.workload ?? null);
  const workload = bracketed ? { ...baseWorkload, barriers: BARRIERS_RECORD } : baseWorkload;
  const demands = req.schedule ? scheduleDemands(req.schedule) : req.demands;
  const routing = req.routing ?? routingFor(t, engine, req.routingOptions);
  let result: RunResult;
  if (engine === 'flow') {
    result = runFlow({ topology: t, program, routing, model: { ...model, trace: req.trace, progress: req.progress }, workload, demands, timeOrigin });
  } else {
    if (req.trace) throw new InputError('trace', 'a rate recorder', 'a trace with engine flow (the packet engine writes none)');
    result = simulatePacketSchedule({ topology: t, program, routing, model, workload, demands, progress: req.progress, timeOrigin, ...req.packet });
  }
  if (library) result = withModelField(result, 'library', library);
  Object.defineProperty(result, 'program', { value: program, enumerable: false });
  return result as SimulateResult;
}

/** Builds a named collective's schedule (refusing one too large first, as prepare does) and simulates it. */
export function simulateCollective(build: BuildRequest, req: Omit<SimulateRequest, 'topology' | 'schedule' | 'program'> = {}): SimulateResult {
  refuseOversized({ topology: build.topology, engine: req.engine === 'packet' ? 'packet' : 'flow', build, flitBytes: req.packet?.flitBytes });
  return simulate({ ...req, topology: build.topology, schedule: buildSchedule(build) });
}

/** A named collective at flow level (the request `meshwork run` takes): `simulateCollective` with engine flow. */
export interface CollectiveRunRequest extends Omit<SimulateRequest, 'topology' | 'schedule' | 'program' | 'engine' | 'model'> {
  readonly topology: Topology;
  readonly collective: BuildRequest['collective'];
  /** Algorithm spec, e.g. "hop-grouped:dir=shortest". */
  readonly algorithm: string;
  readonly size: number;
  readonly root?: number;
  /** alltoallv: bytes from rank i to rank j at [i·ranks + j]. */
  readonly sizes?: ArrayLike<number>;
  /** The time model, and at flow level a trace recorder and progress reports. */
  readonly model?: FlowModelOptions & { trace?: FlowTraceRecorder; progress?: (fraction: number) => void };
}

export function runCollectiveFlow(req: CollectiveRunRequest): SimulateResult {
  const { topology, collective, algorithm, size, root, model, sizes, ...rest } = req;
  return simulateCollective({ topology, collective, algorithm, size, root, sizes }, { ...rest, model, trace: model?.trace, progress: model?.progress, engine: 'flow' });
}

/**
 * The result with one more model field, keeping the non-enumerable views the engines attach (the
 * flow engine's `raw`, the per-op times): a spread would drop them.
 */
function withModelField(result: RunResult, key: string, value: unknown): RunResult {
  const next: RunResult = { ...result, model: { ...result.model, [key]: value } };
  for (const name of Object.getOwnPropertyNames(result)) {
    const d = Object.getOwnPropertyDescriptor(result, name)!;
    if (!d.enumerable) Object.defineProperty(next, name, d);
  }
  return next;
}
