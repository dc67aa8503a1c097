/**
 * prepare(request): what every front end did by itself before, done once in the library. It
 * validates the RunRequest, builds the topology, resolves presets and defaults, chooses the routing
 * once (with the packet engine's deadlock-free wrap), runs every size and limit refusal before
 * anything large is allocated, and hands the engines only resolved values. `simulate(request)` is
 * prepare + run; a front end that wants to show what will run (or refuse early) calls prepare alone.
 *
 * File reading is injected (RunIo), so the core stays platform-neutral: the CLI passes Node's
 * readers (src/node/run-io.ts), the Studio its uploaded files; without them only specs are accepted.
 *
 * The part every kind shares, and traffic's own, live in prepare-traffic.ts (a traffic run loads no
 * collective); this file adds the collective and schedule workloads and the size refusals.
 */
import { regionPastBuffer } from '../collectives/schedule-bounds.js';
import { InputError, LimitError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import { resolveRouting } from '../routing/registry.js';
import { packetDeadlockFreeRouting, packetWrapRecord } from '../routing/up-star-down-star.js';
import { checkSizeFits, type BuildRequest } from '../collectives/registry.js';
import { refuseInapplicableRanks, type CollectiveKind } from '../collectives/types.js';
import type { Schedule } from '../collectives/schedule.js';
import { scheduleFromText, type LoadedSchedule, type ScheduleFileFormat } from '../interop/schedule-text.js';
import { MAX_FLOW_OPS } from './flow/collective-run.js';
import { knownScheduleSize } from '../collectives/registry.js';
import { checkPacketNodes, MAX_PACKET_FLITS, packetFlitLowerBound, SCHEDULE_FLIT_BYTES } from './packet/limits.js';
import { alltoallvSizes } from '../collectives/alltoallv-sizes.js';
import type { FlowModelOptions } from './program/model.js';
import { parseRunRequest, type RunRequest } from './request.js';
import { representativeCandidate } from './representatives.js';
import { flowPreset } from './flow/presets.js';
import { prepareParsedTraffic, resolveBase, type PreparedBase, type PreparedTraffic, type RunIo } from './prepare-traffic.js';

export { prepareTraffic, topologyOf, type PreparedBase, type PreparedTraffic, type ResolvedRunRequest, type RunIo } from './prepare-traffic.js';

export interface PreparedCollective extends PreparedBase {
  readonly kind: 'collective' | 'schedule';
  /** For a named collective, the build request (the schedule is built by run, after the refusals). */
  readonly build?: BuildRequest;
  readonly loaded?: LoadedSchedule;
  readonly model: FlowModelOptions;
  /** The flow op limit was not checked: the run may take the representative-only path, and refuses if it does not. */
  readonly deferredRefusal?: boolean;
}

export type PreparedRun = PreparedCollective | PreparedTraffic;

/** Validates, resolves and refuses: everything a run needs before an engine starts. */
export function prepare(raw: RunRequest | unknown, io: RunIo = {}): PreparedRun {
  const req = parseRunRequest(raw);
  const w = req.workload;
  if (w.kind === 'traffic') return prepareParsedTraffic(req, io);
  // Chakra workloads prepare in workload/request.ts (prepareRequest takes every kind): the
  // protobuf reader and the lowering stay out of `meshwork run`'s and `traffic`'s start-up.
  if (w.kind === 'workload') throw new InputError('request.workload.kind', w.kind, 'collective, schedule or traffic here; a workload request is prepared by prepareRequest (workload/request.ts, every kind), as meshwork workload run and run --request do');
  let deferred = false;
  const { request, topology, engine, build, routingOptions, preset } = resolveBase(req, io, (t, e) => {
    const b = w.kind === 'collective' ? collectiveBuild(w, t, io) : undefined;
    // A run that may be timed from its representatives alone (sim/representatives.ts) is refused by the run if that path is not taken.
    deferred = representativeCandidate(req, e, b, { ...(req.preset === undefined ? {} : flowPreset(req.preset).model), ...req.model });
    refuseOversized({ topology: t, engine: e, build: b, flitBytes: req.packet?.flitBytes, deferFlowOps: deferred });
    return b;
  });
  const model: FlowModelOptions = { ...preset?.model, ...req.model };
  const base = resolveRouting(topology, routingOptions);
  const routing = engine === 'packet' ? packetDeadlockFreeRouting(topology, base) : base;
  const packetWrap = engine === 'packet' ? packetWrapRecord(routing, 'deadlock-free wrap') : undefined;
  if (w.kind === 'collective') return { kind: 'collective', request, topology, engine, routing, packetWrap, build, model, ...(deferred ? { deferredRefusal: true } : {}) };
  const opts = { format: w.format as ScheduleFileFormat | undefined, size: w.size === undefined ? undefined : String(w.size), topology: topology.spec };
  if (!io.readSchedule && !io.readText) throw new InputError('request.workload.file', w.file, 'a schedule file read through a RunIo (the CLI and Studio pass one; the core reads no files)');
  const loaded = io.readSchedule ? io.readSchedule(w.file, opts) : scheduleFromText(io.readText!(w.file, 'schedule'), w.file, opts, opts.format);
  const schedule: Schedule = loaded.schedule;
  if (schedule.numRanks !== topology.numEndpoints) throw new InputError('topology', req.topology, `a topology with ${schedule.numRanks} endpoints (the schedule's rank count)`);
  // Timing reads how many bytes an op moves, not where: an op past its buffer would be timed as sound.
  const pastBuffer = regionPastBuffer(schedule);
  if (pastBuffer !== undefined) throw new InputError('schedule', w.file, `a schedule whose regions lie within their buffers (${pastBuffer}; meshwork collective verify --schedule FILE lists every problem)`);
  return { kind: 'schedule', request, topology, engine, routing, packetWrap, loaded, model };
}

type CollectiveWorkload = Extract<RunRequest['workload'], { kind: 'collective' }>;

/**
 * A named collective's build request: alltoallv's sizes resolved, ranks checked, one-to-one's
 * default peer. Its refusals are the request's, whatever the algorithm (compare runs it once first).
 */
export function collectiveBuild(w: CollectiveWorkload, topology: Topology, io: RunIo): BuildRequest {
  const collective = w.collective as CollectiveKind;
  const sizes = collectiveSizes(w, topology.numEndpoints, io);
  // alltoallv's size is its largest block (what the size limits check).
  const size = sizes ? sizes.reduce((a, b) => Math.max(a, b), 0) : (w.size ?? 0);
  if (w.size === undefined && !sizes && collective !== 'barrier') throw new InputError('size', undefined, 'a size such as 64KiB or 1MB (required)');
  checkRanks(w, topology.numEndpoints);
  // Whole elements, equal reduce-scatter blocks, a rank's buffer within 2^50 bytes: the size's, not an algorithm's.
  checkSizeFits(collective, size, topology.numEndpoints, 'int32');
  // One-to-one goes to the last rank by default, or to rank 0 when the root is the last.
  const peer = w.peer ?? (collective === 'one-to-one' && w.root === topology.numEndpoints - 1 ? 0 : undefined);
  return { topology, collective, algorithm: w.algorithm, size, root: w.root, peer, ...(sizes ? { sizes } : {}) };
}

/** alltoallv's per-pair sizes (required there, refused elsewhere): a generator, a matrix, or a file read through `io`. */
function collectiveSizes(w: CollectiveWorkload, n: number, io: RunIo): Float64Array | undefined {
  if (w.collective !== 'alltoallv') {
    if (w.sizes !== undefined) throw new InputError('sizes', typeof w.sizes === 'string' ? w.sizes : 'a size matrix', 'sizes only with --collective alltoallv');
    return undefined;
  }
  if (w.sizes === undefined) throw new InputError('sizes', undefined, 'per-pair sizes for alltoallv: uniform:size=B, random:max=B[,min=0,seed=1], diagonal:size=B, or a file of n x n byte counts');
  if (w.size !== undefined) throw new InputError('size', w.size, 'no --size with alltoallv (--sizes gives every block)');
  return alltoallvSizes(w.sizes, n, io.readText);
}

/** Root and peer are ranks of this topology; one-to-one's default peer is the last rank (0 when the root is the last). */
function checkRanks(w: CollectiveWorkload, n: number): void {
  for (const [field, rank] of [['root', w.root], ['peer', w.peer]] as const) {
    if (rank !== undefined && rank > n - 1) throw new InputError(field, String(rank), `an integer from 0 to ${n - 1}`);
  }
  refuseInapplicableRanks(w.collective as CollectiveKind, w.root, w.peer);
}

/** What the size refusals read: the run's topology and engine, and a named collective before it is built. */
export interface RunSize {
  readonly topology: Topology;
  readonly engine: 'flow' | 'packet';
  readonly build?: BuildRequest;
  /** Packet level: bytes per flit (default SCHEDULE_FLIT_BYTES). */
  readonly flitBytes?: number;
  /** Leave the flow op limit to the run (a representative-only candidate, sim/representatives.ts). */
  readonly deferFlowOps?: boolean;
}

/**
 * The one size-refusal layer: every limit a run is held to, checked before anything large is built,
 * each a LimitError naming the limit. prepare() calls it for every request (so simulate(), the CLI,
 * sweeps and the Studio refuse alike); simulateCollective for a named collective. In order: packet
 * nodes, flow schedule ops (the algorithm's declared estimate, flow/collective-run.ts), packet flits
 * (what every rank must receive, packet/limits.ts). The packet network also refuses its own state
 * before allocating it (packet/limits.ts `checkPacketNetworkSize`: VC buffers, route buffers by hops).
 */
export function refuseOversized(s: RunSize): void {
  if (s.engine === 'packet') checkPacketNodes(s.topology.numNodes, s.topology.spec);
  if (!s.build) return;
  if (!s.deferFlowOps) refuseFlowOps(s.build);
  if (s.engine === 'packet') refusePacketFlits(s.build, s.flitBytes);
}

/** A schedule too large for the flow level (MAX_FLOW_OPS), refused before it is built. */
function refuseFlowOps(req: BuildRequest): void {
  const est = knownScheduleSize(req);
  if (est && est.ops > MAX_FLOW_OPS) {
    throw new LimitError(
      'algorithm',
      `${est.ops} schedule ops (${req.algorithm}, ${req.topology.numEndpoints} ranks)`,
      `${MAX_FLOW_OPS} schedule ops (2^27, about 16 GiB) at flow level${smallerAlternative(req)}`,
    );
  }
}

/** What to run instead of a schedule too large: an algorithm with fewer ops, or fewer ranks. */
function smallerAlternative(req: BuildRequest): string {
  if (/^(hop-grouped|dimension-ordered)\b/.test(req.algorithm)) return '; use fewer ranks';
  if (req.collective === 'alltoall') return '; an axis-phase algorithm such as hop-grouped needs far fewer on a torus';
  if (req.collective === 'allreduce' || req.collective === 'reduce') return '; recursive-doubling or rabenseifner need n log n ops';
  return '; a logarithmic algorithm (recursive-doubling, bruck, binomial) needs n log n ops';
}

/** A packet-level run that must deliver more than MAX_PACKET_FLITS flits, whatever the algorithm. */
function refusePacketFlits(req: BuildRequest, flitBytes?: number): void {
  const ranks = req.topology.numEndpoints;
  const flits = packetFlitLowerBound({ collective: req.collective, ranks, size: req.size, root: req.root, flitBytes });
  if (flits > MAX_PACKET_FLITS) {
    throw new LimitError(
      'size',
      `${flits} flits`,
      `${MAX_PACKET_FLITS} flits (2^26, about 2 GiB, two minutes) at packet level, counting what ${ranks} ranks must receive in this ${req.collective} in ${flitBytes ?? SCHEDULE_FLIT_BYTES}-byte flits; time it with --engine flow`,
    );
  }
}
