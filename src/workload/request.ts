/**
 * The workload kind of a RunRequest (issue 24: collective runs, traffic runs and Chakra workloads
 * are workload kinds of one request): `prepareRequest`, `runPreparedRequest` and `runRequest`
 * take every kind, handing the others to sim/prepare.ts and sim/simulate.ts. A workload request
 * names its trace (rank files read through the caller's RunIo, as the CLI reads them from disk and
 * Studio from the files the user opened) or a generated transformer step, and the lowering's
 * choices (algorithms per collective, device model, compute and communication policies); the
 * topology, engine, time model, routing and packet router are the request's, as for any kind.
 *
 * Apart from sim/ because a workload loads the Chakra reader (protobuf) and the lowering:
 * `meshwork run` and `traffic`, which never read a trace, start without them.
 */
import { InputError } from '../util/errors.js';
import { checkPacketNodes } from '../sim/packet/limits.js';
import { prepare, type PreparedBase, type PreparedRun, type ResolvedRunRequest, type RunIo } from '../sim/prepare.js';
import { resolveBase } from '../sim/prepare-traffic.js';
import { parseRunRequest, type RunRequest } from '../sim/request.js';
import { routingFor, runPrepared, type Result } from '../sim/simulate.js';
import type { RunHooks } from '../sim/run-traffic.js';
import { withViews } from '../sim/run-traffic.js';
import type { RunResult } from '../sim/result.js';
import type { FlowModelOptions } from '../sim/program/model.js';
import type { PacketConfig, PresetName } from '../sim/packet/config.js';
import { traceFromRankFiles, type RankFile } from './chakra/files.js';
import { parseCommGroups, type ChakraTrace, type DependencyKinds } from './chakra/trace.js';
import { generateTransformer, generatedTrace, withTransformerDefaults } from './generate.js';
import { runWorkload, type WorkloadRun } from './run.js';
import type { CollectiveAlgorithms, LowerOptions, LoweredWorkload } from './lower.js';
import type { WorkloadReport } from './analyze.js';

type ChakraWorkload = Extract<RunRequest['workload'], { kind: 'workload' }>;

/** How a workload request reaches its rank files (RunIo's part for Chakra traces). */
export interface WorkloadIo extends RunIo {
  /** The rank files `paths` name (a directory expanded), names and bytes. Node: node/chakra.ts; Studio: the opened files. */
  readRankFiles?(paths: readonly string[]): RankFile[];
}

export interface PreparedWorkload extends PreparedBase {
  readonly kind: 'workload';
  readonly trace: ChakraTrace;
  readonly model: FlowModelOptions;
  readonly lower: Omit<LowerOptions, 'topology'>;
}

export type PreparedRequest = PreparedRun | PreparedWorkload;

/** A workload run's result: the shared RunResult of the step, its WorkloadReport, and the resolved request. */
export interface WorkloadResult {
  readonly kind: 'meshwork-workload-result';
  readonly request: ResolvedRunRequest;
  readonly result: RunResult;
  readonly report: WorkloadReport;
}

/** A workload result with the lowered program (the Studio's Gantt chart reads it; not serialised). */
export type WorkloadRunView = WorkloadResult & { readonly lowered: LoweredWorkload };

/** The result of a request of any kind, discriminated by `kind`. */
export type RequestResult = Result | WorkloadResult;

/** prepare() for a request of any kind: a workload here, the others in sim/prepare.ts. */
export function prepareRequest(raw: RunRequest | unknown, io: WorkloadIo = {}): PreparedRequest {
  const req = parseRunRequest(raw);
  if (req.workload.kind !== 'workload') return prepare(req, io);
  return prepareWorkload(req, req.workload, io);
}

function prepareWorkload(req: RunRequest, w: ChakraWorkload, io: WorkloadIo): PreparedWorkload {
  if (req.noise !== undefined) throw new InputError('request.noise', 'a disturbance', 'no noise with a workload (its compute durations come from the trace or the device model)');
  if (req.barriers) throw new InputError('request.barriers', true, "false with a workload (a step's dependency graph is not bracketed by barriers)");
  const { request: base, topology, engine, routingOptions, preset } = resolveBase(req, io, (t, e) => {
    if (e === 'packet') checkPacketNodes(t.numNodes, t.spec);
    return undefined;
  });
  // A generated step's every parameter in the recorded request, so it says which step ran.
  const request = w.generate === undefined ? base : { ...base, workload: { ...w, generate: withTransformerDefaults(w.generate) } };
  const trace = traceOf(w, io);
  return {
    kind: 'workload',
    request,
    topology,
    engine,
    // The routing simulate() chooses for a program (the packet engine wraps it deadlock-free itself), as runWorkload always ran.
    routing: routingFor(topology, engine, routingOptions),
    trace,
    model: { ...preset?.model, ...req.model },
    lower: { algorithms: w.algorithms as CollectiveAlgorithms | undefined, device: w.device, compute: w.compute, comm: w.comm },
  };
}

/** The request's trace: its rank files through `io`, or the generated step (through the Chakra encoder and reader, as a file would go). */
function traceOf(w: ChakraWorkload, io: WorkloadIo): ChakraTrace {
  if (w.generate !== undefined) {
    if (w.commGroups !== undefined || w.replicate !== undefined) throw new InputError('request.workload.generate', 'with commGroups or replicate', 'a generated step alone (it names its own process groups, one file per rank)');
    return generatedTrace(generateTransformer(withTransformerDefaults(w.generate)));
  }
  return readTrace({ paths: w.trace!, commGroups: w.commGroups, deps: w.deps as DependencyKinds | undefined, replicate: w.replicate }, io);
}

/** Rank files (and a communicator-group file) through `io`, decoded, checked and assembled: the CLI's `--trace` and a request's `trace` alike. */
export function readTrace(w: { paths: readonly string[]; commGroups?: string; deps?: DependencyKinds; replicate?: number }, io: WorkloadIo): ChakraTrace {
  const deps = w.deps ?? 'both';
  if (!io.readRankFiles) throw new InputError('request.workload.trace', w.paths.join(' '), 'rank files read through a RunIo (the CLI and Studio pass one; the core reads no files)');
  const files = io.readRankFiles(w.paths);
  let groups;
  if (w.commGroups !== undefined) {
    if (!io.readText) throw new InputError('request.workload.commGroups', w.commGroups, 'a file read through a RunIo');
    let json: unknown;
    try {
      json = JSON.parse(io.readText(w.commGroups, 'comm-groups'));
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError('comm-groups', w.commGroups, `a readable JSON file (${(err as Error).message.split('\n')[0]})`);
    }
    groups = parseCommGroups(json, w.replicate ?? files.length);
  }
  return traceFromRankFiles(files, { groups, deps, replicate: w.replicate });
}

/** Runs what prepareRequest resolved. */
export function runPreparedRequest(p: PreparedRequest, hooks: RunHooks = {}): RequestResult {
  if (p.kind !== 'workload') return runPrepared(p, hooks);
  return runPreparedWorkload(p, hooks);
}

/** Runs a prepared workload request: lowered, timed by its engine, read back as a report. */
export function runPreparedWorkload(p: PreparedWorkload, hooks: RunHooks = {}): WorkloadRunView {
  const packet = p.request.packet;
  const run: WorkloadRun = runWorkload({
    topology: p.topology,
    trace: p.trace,
    engine: p.engine,
    model: p.model,
    routing: p.routing,
    packet: packet ? { preset: packet.preset as PresetName | undefined, config: packet.config as Partial<PacketConfig> | undefined, flitBytes: packet.flitBytes, cycleSeconds: packet.cycleSeconds, maxCycles: packet.maxCycles } : undefined,
    progress: hooks.progress,
    ...p.lower,
  });
  return withViews({ kind: 'meshwork-workload-result', request: p.request, result: run.result, report: run.report } as WorkloadResult, { lowered: run.lowered });
}

/** prepareRequest then runPreparedRequest: a request of any kind, run. */
export function runRequest(raw: RunRequest | unknown, io: WorkloadIo = {}, hooks: RunHooks = {}): RequestResult {
  return runPreparedRequest(prepareRequest(raw, io), hooks);
}
