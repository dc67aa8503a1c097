/**
 * Compare: every registered algorithm of a collective (plus named variants) on one RunRequest, the
 * one library function behind `meshwork compare` and the Studio's Compare view, so both list,
 * refuse and skip alike. An algorithm that does not support the topology, rank count or size (its
 * own refusal, NotApplicableError) is skipped with its reason. Any other InputError is the
 * request's (a size the collective cannot cut, a root, a routing or time model the topology
 * refuses, a bad field) and refuses the whole comparison in its one line, checked once before any
 * algorithm so the answer does not depend on which algorithm meets it first. A size limit
 * (LimitError) refuses it too, since the remaining rows would be a comparison without the
 * algorithms that matter at that size; a variant the caller named that cannot run is an error.
 */
import { InputError, LimitError, NotApplicableError } from '../util/errors.js';
import { byCodeUnits } from '../util/arrays.js';
import { resolveRouting } from '../routing/registry.js';
import { resolveFlowModel } from './program/model.js';
import { resolveBase } from './prepare-traffic.js';
import { listAlgorithms } from '../collectives/registry.js';
import type { Topology } from '../topology/graph.js';
import { collectiveBuild, prepare, topologyOf, type PreparedCollective, type PreparedRun, type RunIo } from './prepare.js';
import { executeSchedule } from '../collectives/executor.js';
import { verifyMscclSchedule } from '../interop/msccl/run.js';
import { parseRunRequest, type RunRequest } from './request.js';
import { runPrepared, type CollectiveResult } from './simulate.js';

export interface CompareResult {
  readonly collective: string;
  readonly topology: string;
  readonly size_bytes: number;
  /** The fastest algorithm's spec, or null when none ran. */
  readonly best: string | null;
  /** Sorted by makespan, then by spec. */
  readonly runs: readonly CollectiveResult[];
  readonly skipped: ReadonlyArray<{ readonly algorithm: string; readonly reason: string }>;
  /** Algorithms that were prepared but could not run (a deadlock under the protocol, or a defect): listed, never taking the comparison down. */
  readonly failed: ReadonlyArray<{ readonly algorithm: string; readonly reason: string }>;
}

export interface CompareOptions {
  /** Extra algorithm specs (variants such as hop-grouped:areas=2n); refused rather than skipped when they cannot run. */
  readonly include?: readonly string[];
  /**
   * Schedule files (Meshwork JSON or MSCCL-XML, read through `io`) timed in the same table: a
   * user's own algorithm beside the registered ones. Each must be of the compared collective and,
   * for JSON (which carries its size), of the compared size; MSCCL-XML takes the compared size.
   */
  readonly schedules?: readonly string[];
  readonly io?: RunIo;
  /** Called after each run with the fraction done and the algorithm. */
  readonly progress?: (fraction: number, algorithm: string) => void;
}

export function compareAlgorithms(base: RunRequest, opts: CompareOptions = {}): CompareResult {
  // What is not even shaped like a request gets the schema's one-line refusal (it was a TypeError).
  if (!isRecord(base) || !isRecord(base.workload)) parseRunRequest(base);
  const w = base.workload;
  if (w.kind !== 'collective') throw new InputError('request.workload.kind', w.kind, 'collective (compare times the algorithms of one collective)');
  const include = opts.include ?? [];
  const registered = listAlgorithms(w.collective as never);
  // Reproductions of another simulator's algorithm run when named (Algorithm.comparedWhenNamed).
  // An included spec that is already compared (`--include pairwise`) runs once.
  const specs = [...new Set([...registered.filter((a) => a.comparedWhenNamed === undefined).map((a) => a.name), ...include])];
  const namedOnly = registered.filter((a) => a.comparedWhenNamed !== undefined && !include.some((spec) => spec.split(':')[0] === a.name));
  if (registered.length + include.length === 0) throw new InputError('collective', w.collective, 'a collective with registered algorithms');
  // The topology is built once for every algorithm.
  const io = opts.io ?? {};
  let built: Topology | undefined;
  const shared: RunIo = { ...io, loadTopology: () => (built ??= topologyOf(base, io)) };
  refuseRequest(base, shared, io);
  const prepared: PreparedRun[] = [];
  const skipped: Array<{ algorithm: string; reason: string }> = namedOnly.map((a) => ({ algorithm: a.name, reason: a.comparedWhenNamed! }));
  for (const spec of specs) {
    try {
      prepared.push(prepare({ ...base, workload: { ...w, algorithm: spec } }, shared));
    } catch (err) {
      if (!(err instanceof NotApplicableError) || include.includes(spec)) throw err;
      skipped.push({ algorithm: spec, reason: err.accepted });
    }
  }
  for (const file of opts.schedules ?? []) prepared.push(prepareScheduleFile(base, w, file, shared));
  const algorithmOf = (r: CollectiveResult): string => String(r.workload?.algorithm_spec ?? '');
  const runs: CollectiveResult[] = [];
  const failed: Array<{ algorithm: string; reason: string }> = [];
  prepared.forEach((p, i) => {
    const spec = p.kind === 'collective' || p.kind === 'schedule' ? (p.build?.algorithm ?? p.loaded?.schedule.algorithmSpec ?? '') : '';
    try {
      // A user's schedule file is proved before it is timed: a wrong one is listed as failed, naming the first wrong data.
      const wrong = p.kind === 'schedule' ? scheduleFault(p) : undefined;
      if (wrong) {
        failed.push({ algorithm: spec, reason: `does not verify: ${wrong}` });
        opts.progress?.((i + 1) / prepared.length, spec);
        return;
      }
      runs.push(runPrepared(p) as CollectiveResult);
    } catch (err) {
      // A size limit refuses the comparison, as it does in prepare(): an algorithm timed from its
      // representatives alone (sim/representatives.ts) defers that refusal to its run.
      if (err instanceof LimitError) throw err;
      // One algorithm never takes the comparison down (issue 28 item 1): it is listed as failed.
      failed.push({ algorithm: spec, reason: failureReason(err) });
    }
    opts.progress?.((i + 1) / prepared.length, spec);
  });
  runs.sort((a, b) => a.makespan_s - b.makespan_s || byCodeUnits(algorithmOf(a), algorithmOf(b)));
  return { collective: w.collective, topology: runs[0]?.topology.spec ?? base.topology, size_bytes: sizeOf(prepared[0]) ?? w.size ?? 0, best: runs[0] ? algorithmOf(runs[0]) : null, runs, skipped, failed };
}

/**
 * The request's own refusals, whatever the algorithm: its fields, the topology (with mapping and
 * failures), the size, sizes matrix, root and peer, the routing and the time model. Each would
 * otherwise reach every algorithm alike and be listed as a reason to skip it, or as its failure.
 */
function refuseRequest(base: RunRequest, shared: RunIo, io: RunIo): void {
  const req = parseRunRequest(base);
  const w = req.workload as Extract<RunRequest['workload'], { kind: 'collective' }>;
  const { topology, routingOptions, preset } = resolveBase(req, shared, (t) => {
    collectiveBuild(w, t, io);
    return undefined;
  });
  const routing = resolveRouting(topology, routingOptions);
  resolveFlowModel({ ...preset?.model, ...req.model }, topology, routing.params.split);
}

type CollectiveWorkload = Extract<RunRequest['workload'], { kind: 'collective' }>;

/** A schedule file prepared as a run of the compared request, refused unless it is of the compared collective and size. */
function prepareScheduleFile(base: RunRequest, w: CollectiveWorkload, file: string, io: RunIo): PreparedRun {
  const p = prepare({ ...base, workload: { kind: 'schedule', file, ...(w.size === undefined ? {} : { size: w.size }) } }, io);
  const part = p.kind === 'schedule' ? p.loaded?.schedule.parts[0] : undefined;
  if (!part || part.collective !== w.collective || (w.size !== undefined && part.size !== w.size)) {
    const what = part ? `; this one is ${part.collective} of ${part.size} B` : '';
    throw new InputError('schedule', file, `a schedule of the compared collective and size (${w.collective}, ${w.size ?? 0} B)${what}`);
  }
  return p;
}

/** Runs a loaded schedule file on real buffers (chunk identities: cheap at any size); its first fault, or undefined when it verifies. */
function scheduleFault(p: PreparedCollective): string | undefined {
  const loaded = p.loaded;
  if (!loaded) return undefined;
  const opts = { mode: 'chunks' as const, runs: true, maxDetails: 1 };
  const report = loaded.msccl ? verifyMscclSchedule(loaded.msccl, opts) : executeSchedule(loaded.schedule, opts);
  if (report.pass) return undefined;
  const first = report.problems[0] ? `${report.problems[0].kind}: ${report.problems[0].message}` : (report.mismatches[0]?.text ?? 'the postcondition does not hold');
  const file = p.request.workload.kind === 'schedule' ? p.request.workload.file : '';
  return `${report.mismatchCount > 0 ? `${report.mismatchCount} output slots wrong, first ` : ''}${first} (meshwork collective verify --schedule ${file} shows all)`;
}

/** The resolved size (alltoallv: its largest block), as the size limits read it. */
const sizeOf = (p: PreparedRun | undefined): number | undefined => (p?.kind === 'collective' ? p.build?.size : undefined);

/** One line for a failed algorithm: an input error's own words, else the error's first line. */
function failureReason(err: unknown): string {
  if (err instanceof InputError) return err.message;
  return `internal error: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
