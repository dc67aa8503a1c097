/**
 * The one adapter between a sweep point and the simulators: every pool worker and queue processor
 * runs points through `executePoint` and nothing else.
 *
 * A `run` point is a RunRequest built from its options by the CLI's own parser
 * (`runRequestFromOptions`: the option schema's units and validators) and run by the library's
 * `simulate()`; its Result records the request. The other kinds (`traffic`, `topo`, `verify`) run
 * their command in-process with its output collected through the CLI's output sink (cli/io.ts
 * `collectOutput`), so a point accepts every option, default and unit of the CLI and gives its numbers.
 */
import { InputError } from '../util/errors.js';
import { mayNameGraphFile } from '../node/file-path.js';
import { loadGraphFormat } from '../node/load-topology.js';
import { COMMAND_PATH, freshProgram, loadCommand, POSITIONAL } from './commands.js';
import { collectOutput } from '../cli/io.js';
import { runRequestFromOptions } from '../cli/run-request.js';
import { nodeRunIo } from '../node/run-io.js';
import { simulate } from '../sim/simulate.js';
import { CHAKRA_COLLECTIVES } from '../workload/chakra/names.js';
import { maxOf } from '../util/arrays.js';
import type { Command } from 'commander';
import type { SweepKind } from './kinds.js';
import type { Params } from './file.js';

export interface PointOutcome {
  readonly status: 'ok' | 'failed';
  /**
   * The full Result (the command's --json output) as compact JSON text; null when the point failed.
   * Text, not an object: the thread that computed it serialises it, so the main thread that stores
   * it neither copies an object graph out of a message nor stringifies it (issue 11).
   */
  readonly result: string | null;
  /** The headline figures, one stored column each. */
  readonly figures: Record<string, number | string | boolean | null>;
  readonly error: string | null;
  /** An error no retry can fix (bad input in this point), so a queue does not retry it. */
  readonly permanent: boolean;
  readonly elapsed_s: number;
}

/** The argv of `meshwork <kind>` for one point. */
export function pointArgv(kind: SweepKind, params: Params): string[] {
  const argv = [...COMMAND_PATH[kind]];
  const positional = POSITIONAL[kind];
  if (positional && typeof params[positional] === 'string') argv.push(params[positional] as string);
  for (const [name, value] of Object.entries(params)) {
    if (name === positional) continue;
    if (value === true) argv.push(`--${name}`);
    else if (typeof value === 'string') argv.push(`--${name}`, value);
  }
  argv.push('--json');
  return argv;
}

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Headline figures per kind; traffic reports its single load point (one rate per point in a sweep). */
export function headlineFigures(kind: SweepKind, r: Row): Record<string, number | string | boolean | null> {
  if (kind === 'run') {
    const channels = (r.channels ?? {}) as Row;
    const stats = (r.stats ?? {}) as Row;
    return { makespan_s: num(r.makespan_s), bound_s: num(r.bound_s), efficiency: num(r.efficiency), schedule_bound_s: num(r.schedule_bound_s), max_utilisation: num(channels.max_utilisation), messages: num(stats.messages) };
  }
  if (kind === 'traffic') {
    const points = (r.points ?? []) as Row[];
    const p: Row = points.length === 1 ? points[0] : {};
    return {
      rate: num(p.rate),
      packet_latency: num(p.packet_latency ?? p.meanLatency),
      network_latency: num(p.network_latency ?? p.meanNetworkLatency),
      accepted_flit_rate: num(p.accepted_flit_rate ?? p.acceptedFlitRate),
      hops: num(p.hops),
      cycles: num(p.cycles),
      saturated: typeof p.saturated === 'boolean' ? p.saturated : null,
      saturation_rate: num(r.saturationRate),
    };
  }
  if (kind === 'topo') {
    return { nodes: num(r.nodes), channels: num(r.channels), diameter: num(r.diameter), mean_distance_with_self: num(r.mean_distance_with_self), mean_distance_without_self: num(r.mean_distance_without_self), bisection: num(r.bisection_width ?? r.bisection) };
  }
  if (kind === 'workload') return workloadFigures((r.report ?? {}) as Row);
  return { pass: typeof r.pass === 'boolean' ? r.pass : null, messages: num(r.messages), ops: num(r.ops) };
}

/**
 * A workload's headline figures, read from its WorkloadReport (workload/analyze.ts): the step, the
 * mean and max over ranks of exposed communication, the mean communication and compute per rank,
 * the number of collectives, and per collective type the sum of its instances' times (a collective's time:
 * earliest op start to latest op end over its ranks; instances may overlap, so the sum is not wall time).
 */
function workloadFigures(report: Row): Record<string, number | null> {
  const ranks = (report.ranks ?? []) as Row[];
  const collectives = (report.collectives ?? []) as Row[];
  const over = (field: string): number[] => ranks.map((r) => r[field] as number);
  const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
  const exposed = over('exposed_communication_s');
  const figures: Record<string, number | null> = {
    step_time_s: num(report.step_time_s),
    mean_exposed_communication_s: mean(exposed),
    max_exposed_communication_s: exposed.length ? maxOf(exposed) : null,
    mean_communication_s: mean(over('communication_s')),
    mean_compute_s: mean(over('compute_s')),
    collectives: report.step_time_s === undefined ? null : collectives.length,
  };
  for (const type of CHAKRA_COLLECTIVES) {
    const column = type.replace(/-/g, '_');
    const of = collectives.filter((c) => c.collective === type);
    figures[`${column}_time_s`] = report.step_time_s === undefined ? null : of.reduce((s, c) => s + (c.time_s as number), 0);
  }
  return figures;
}

/** Figure names per kind, in column order (the store creates them before the first row). */
export const FIGURE_NAMES: Record<SweepKind, string[]> = {
  run: Object.keys(headlineFigures('run', {})),
  traffic: Object.keys(headlineFigures('traffic', {})),
  topo: Object.keys(headlineFigures('topo', {})),
  verify: Object.keys(headlineFigures('verify', {})),
  workload: Object.keys(headlineFigures('workload', {})),
};

/** Sends commander's own messages (usage errors, help) to the point's collected output. */
function quiet(cmd: Command, err: (text: string) => void): void {
  cmd.configureOutput({ writeOut: err, writeErr: err });
  for (const sub of cmd.commands) quiet(sub, err);
}

/**
 * Runs one point. Never throws: a failure is an outcome with its one-line error. One point at a time
 * per thread or process (the output sink and the exit code are per process).
 */
export async function executePoint(kind: SweepKind, params: Params): Promise<PointOutcome> {
  const t0 = performance.now();
  const out: string[] = [];
  const err: string[] = [];
  const exitCodeBefore = process.exitCode;
  process.exitCode = undefined;
  let error: string | null = null;
  let permanent = false;
  let exitCode: number | string | undefined;
  let libraryResult: unknown;
  try {
    // The CLI loads the graph-file reader when an argument names a file; a pool or queue worker is
    // its own module instance, so it does the same per point.
    if (Object.values(params).some((v) => typeof v === 'string' && mayNameGraphFile(v))) await loadGraphFormat();
    if (kind === 'run') libraryResult = simulate(runRequestFromOptions(params), nodeRunIo);
    else if (kind === 'workload') libraryResult = (await import('./workload-point.js')).runWorkloadPoint(params);
    else {
      await loadCommand(kind);
      const program = freshProgram(kind);
      quiet(program, (text) => err.push(text));
      await collectOutput({ out: (text) => out.push(text), err: (text) => err.push(text) }, () => program.parseAsync(pointArgv(kind, params), { from: 'user' }));
    }
  } catch (e) {
    permanent = e instanceof InputError || (e as { code?: string }).code?.startsWith('commander.') === true;
    error = permanent && e instanceof InputError ? `error: ${e.message}` : (e as Error).message.split('\n')[0];
  } finally {
    exitCode = process.exitCode;
    process.exitCode = exitCodeBefore;
  }
  const elapsed_s = (performance.now() - t0) / 1000;
  const firstErrorLine = (): string => err.join('').trim().split('\n')[0].replace(/^meshwork: /, '');
  // A verify that finds wrong bytes (exit 1) still has a Result: it is data, recorded as ok. Any other
  // exit code (a deadlock: 3) is a failure of this point that a retry would repeat.
  if (error === null && exitCode !== undefined && exitCode !== 0 && exitCode !== 1) {
    error = firstErrorLine() || `exit code ${exitCode}`;
    permanent = true;
  }
  let result: Row = {};
  if (error === null) {
    try {
      result = (libraryResult ?? JSON.parse(out.join(''))) as Row;
    } catch {
      error = `no JSON result (${firstErrorLine() || 'empty output'})`;
    }
  }
  if (error !== null) return { status: 'failed', result: null, figures: {}, error, permanent, elapsed_s };
  return { status: 'ok', result: JSON.stringify(result), figures: headlineFigures(kind, result), error: null, permanent: false, elapsed_s };
}
