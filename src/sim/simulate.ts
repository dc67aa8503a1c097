/**
 * The one entry point of a timed run, called by every front end (the CLI's run and compare,
 * `reproduce`, sweeps, the web UI): Schedule (or a hand-built Program) → Program → engine → the
 * shared RunResult. Either engine runs the same program under the same time model, routing default
 * and stream semantics; only how data moves differs (max-min flows or flit-level routers).
 */
import { requireTopology, type Topology } from '../topology/graph.js';
import type { Schedule } from '../collectives/schedule.js';
import { buildSchedule, type BuildRequest } from '../collectives/registry.js';
import { resolveRouting, type RoutingOptions } from '../routing/registry.js';
import type { RoutingFunction } from '../routing/types.js';
import { InputError } from '../util/errors.js';
import { refuseSingleEndpoint } from '../topology/endpoint-count.js';
import { scheduleDemands, type CollectiveDemand } from './bounds/index.js';
import type { FlowModelOptions, InjectionOrder } from './program/model.js';
import { librarySendQueues } from './program/send-lanes.js';
import { MODEL_OPTIONS } from './options-schema.js';
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
import type { PacketConfig, PresetName } from './packet/config.js';
import { mscclModel, mscclProgram } from '../interop/msccl/run.js';
import { prepare, refuseOversized, type PreparedCollective, type PreparedRun, type ResolvedRunRequest, type RunIo } from './prepare.js';
import type { RunRequest } from './request.js';
import { runRepresentatives } from './representatives.js';
import { runPreparedTraffic, withViews, type RunHooks, type TrafficResult } from './run-traffic.js';

export { runPreparedTraffic, type RunHooks, type TrafficPoint, type TrafficResult, type TrafficRunView } from './run-traffic.js';

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

const isRunRequest = (req: SimulateRequest | RunRequest): req is RunRequest => typeof req.topology === 'string';

/**
 * A built request's topology, refused in one line unless it is a Topology of at least two endpoints:
 * the one rule every command and prepare() apply (topology/endpoint-count.ts). A JavaScript caller
 * may pass anything; without this, a one-endpoint topology ran (0 s against a bound of 0 s).
 */
function builtTopology(topology: unknown): Topology {
  const t = requireTopology(topology, 'topology', 'a Topology built by buildTopology, or a spec string such as torus:8x8 in a RunRequest');
  return refuseSingleEndpoint(t, t.spec);
}

/**
 * Runs a RunRequest (prepare, then the engine) and returns its Result; or, as before, a
 * SimulateRequest of a built topology and schedule or program, returning the RunResult.
 */
export function simulate(req: RunRequest, io?: RunIo, hooks?: RunHooks): Result;
export function simulate(req: SimulateRequest): SimulateResult;
export function simulate(req: SimulateRequest | RunRequest, io: RunIo = {}, hooks: RunHooks = {}): SimulateResult | Result {
  if (typeof req !== 'object' || req === null) {
    throw new InputError('request', req, 'a RunRequest ({topology: "torus:8x8", workload: {...}}) or a built request ({topology, schedule or program})');
  }
  if (isRunRequest(req)) return runPrepared(prepare(req, io), hooks);
  refuseUnknownModelKeys(req.model);
  return simulateBuilt(req);
}

/**
 * The keys a built request's model may have: the option schema's, what a preset and the routing set,
 * and the flow engine's own (FlowEngineOptions: its arena, flow limit, trace and progress hooks).
 */
const MODEL_KEYS = new Set<string>([...MODEL_OPTIONS.map((row) => row.key), 'splitTies', 'preset', 'symmetryMinRanks', 'arena', 'maxFlowsInFlight', 'trace', 'progress', 'quotient']);

/**
 * A built request's model with a key no option has (`injectionBandwith`) is refused, as a
 * RunRequest's is: read by name, a misspelt option was silently the default.
 */
function refuseUnknownModelKeys(model: unknown): void {
  if (model === undefined) return;
  if (typeof model !== 'object' || model === null) throw new InputError('model', model, 'an object of model options (FlowModelOptions)');
  const unknown = Object.keys(model).find((k) => !MODEL_KEYS.has(k));
  if (unknown !== undefined) throw new InputError(`model.${unknown}`, (model as Record<string, unknown>)[unknown], `only the keys ${[...MODEL_KEYS].join(', ')}`);
}

/** Runs what prepare() resolved. */
export function runPrepared(p: PreparedRun, hooks: RunHooks = {}): Result {
  return p.kind === 'traffic' ? runPreparedTraffic(p, hooks) : runCollective(p, hooks);
}

/**
 * A collective run's result with the views a front end draws from: the built schedule, the lowered
 * program and the flow engine's raw output. A run timed from its representatives alone
 * (`model.symmetry.representatives_only`) has neither schedule nor program.
 */
export type CollectiveRunView = CollectiveResult & { readonly schedule?: Schedule; readonly program?: FlowProgram; readonly raw?: FlowRunOutput };

function runCollective(p: PreparedCollective, hooks: RunHooks): CollectiveResult {
  const req = p.request;
  if (p.deferredRefusal) {
    // A ring declared rotation-equivariant, timed from its representatives alone when the run qualifies (sim/representatives.ts); else prepare()'s refusal, deferred to here.
    const rep = runRepresentatives({ build: p.build!, routing: p.routing, model: p.model, trace: hooks.trace, progress: hooks.progress });
    if (rep) {
      const { raw, ...record } = rep;
      return withViews({ ...record, request: req }, { schedule: undefined, program: undefined, raw });
    }
    refuseOversized({ topology: p.topology, engine: p.engine, build: p.build, flitBytes: req.packet?.flitBytes });
  }
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
  // At packet level the result says how prepare() chose the routing for deadlock freedom (docs/packet.md).
  const routing = p.packetWrap ? { ...record.routing, packet_wrap: p.packetWrap } : record.routing;
  return withViews({ ...record, routing, request: req }, { schedule, program, raw });
}

function simulateBuilt(req: SimulateRequest): SimulateResult {
  const engine = req.engine ?? 'flow';
  if (!ENGINES.includes(engine)) throw new InputError('engine', engine, ENGINES.join(', '));
  if (req.schedule === undefined && req.program === undefined) throw new InputError('simulate', 'neither a schedule nor a program', 'a schedule or a program');
  builtTopology(req.topology);
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
  const baseWorkload = req.schedule ? workloadOf(req.schedule) : (req.workload ?? null);
  const workload = bracketed ? { ...baseWorkload, barriers: BARRIERS_RECORD } : baseWorkload;
  const demands = req.schedule ? scheduleDemands(req.schedule) : req.demands;
  const routing = req.routing ?? routingFor(t, engine, req.routingOptions);
  let result: RunResult;
  if (engine === 'flow') {
    result = runFlow({ topology: t, program, routing, model: { ...req.model, trace: req.trace, progress: req.progress }, workload, demands, timeOrigin });
  } else {
    if (req.trace) throw new InputError('trace', 'a rate recorder', 'a trace with engine flow (the packet engine writes none)');
    result = simulatePacketSchedule({ topology: t, program, routing, model: req.model, workload, demands, progress: req.progress, timeOrigin, ...req.packet });
  }
  // Where the library's channels queue their sends (program/send-lanes.ts).
  if (library) result = withModelField(result, 'library', { ...library, sendQueues: librarySendQueues(result.model.injectionOrder as InjectionOrder, result.model.injectionBandwidth != null) });
  Object.defineProperty(result, 'program', { value: program, enumerable: false });
  return result as SimulateResult;
}

/** Builds a named collective's schedule (refusing one too large first, as prepare does) and simulates it. */
export function simulateCollective(build: BuildRequest, req: Omit<SimulateRequest, 'topology' | 'schedule' | 'program'> = {}): SimulateResult {
  builtTopology(build?.topology);
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
