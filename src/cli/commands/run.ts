import type { Command } from 'commander';
import { InputError } from '../../util/errors.js';
import { formatSize, formatTime } from '../../util/units.js';
import { bestBound } from '../../sim/bounds/topology-bounds.js';
import { chromeTrace, RateRecorder } from '../../sim/flow/trace.js';
import { runPrepared, type CollectiveRunView } from '../../sim/simulate.js';
import { prepare } from '../../sim/prepare.js';
import { planOutputs, print, writeOutputs } from '../io.js';
import { progressBar } from '../progress.js';
import { addPacketOptions, creditLimitNote, describePacketModel, mixedRateNote, terminalLatencyNote, type PacketCliOptions } from '../packet-options.js';
import { degradedRoutingWarning, routingFallbackOf } from '../../routing/up-star-down-star.js';
import { addTimingOptions, csvLine, describeMessages, describeModel, percent, sizesEcho, topologyEcho, type TimingCliOptions } from './timing-options.js';
import { refuseOtherCollective, SCHEDULE_FORMAT_HELP, topologyOfScheduleFile } from '../schedule-file.js';
import type { LibraryTiming } from '../../sim/library.js';
import type { RunRequest } from '../../sim/request.js';
import { nodeRunIo } from '../../node/run-io.js';
import { absoluteRequestPaths, readRequestFile } from '../../node/request-paths.js';
import { optionTexts, runRequestFromOptions } from '../run-request.js';
import { refuseBesideRequest } from '../request-options.js';

/** One line: the library's machine preset, protocol, latency and efficiencies (sim/library.ts). */
function describeLibrary(l: LibraryTiming): string {
  const picked = l.pickedBy ? `${l.pickedBy} picked ${l.algorithm}` : l.algorithm;
  const queues = l.sendQueues === 'per-channel' ? ', a send queue per channel' : l.sendQueues === 'nic' ? ', channels queue on their NIC' : l.sendQueues === 'none' ? ', no send queues (shared order)' : '';
  return `${picked}, ${l.protocol} on preset ${l.machine}: latency ${formatTime(l.latency_s)} up front, links × ${+l.efficiency.toPrecision(6)} (scale-up), × ${+l.netEfficiency.toPrecision(6)} (network)${queues}`;
}

interface RunOptions extends TimingCliOptions, PacketCliOptions {
  request?: string;
  printRequest?: boolean;
  algorithm?: string;
  engine: string;
  trace?: string;
  schedule?: string;
  scheduleFormat?: string;
}

export function register(program: Command): void {
  const run = addTimingOptions(
    program
      .command('run')
      .description('time one collective algorithm on a topology (flow level by default) against the lower bound')
      .option('--algorithm <spec>', 'algorithm and parameters, e.g. hop-grouped or hop-grouped:dir=shortest,pacing=off')
      .option('--schedule <file>', 'time a schedule file instead of --algorithm: MSCCL-XML (with --size) or Meshwork schedule JSON')
      .option('--schedule-format <f>', SCHEDULE_FORMAT_HELP)
      .option('--engine <engine>', 'flow or packet', 'flow')
      .option('--request <file>', 'run a saved RunRequest (JSON, schemas/run-request.schema.json; every result records its own) and print its result as JSON; no other option is needed')
      .option('--print-request', 'print the resolved RunRequest as JSON and stop (nothing is simulated); save it and rerun it with --request')
      .option('--trace <file>', 'write a Chrome trace-event file (opens in Perfetto): one track per rank stream, link counters'),
    "(required, except with --schedule FILE.json, which records its own: a --topology given is used instead, with the schedule's rank count)",
  );
  addPacketOptions(run, 'run').action(async (opts: RunOptions, command: Command) => {
    if (opts.request !== undefined) refuseBesideRequest(command, ['--json', '--trace', '--print-request']);
    const [traceOut] = planOutputs({ trace: opts.trace });
    // argv and a saved file both become one RunRequest, which the library prepares and runs; its file
    // paths absolute (node/request-paths.ts), so the request the result records runs from anywhere.
    // A schedule JSON file records its topology: --topology is then optional (read once, handed on through `io`).
    const fromSchedule = opts.request === undefined && opts.topology === undefined && opts.schedule !== undefined && opts.algorithm === undefined ? topologyOfScheduleFile({ schedule: opts.schedule, scheduleFormat: opts.scheduleFormat }) : undefined;
    const notes: string[] = [];
    const request: RunRequest = opts.request !== undefined ? readRequestFile(opts.request) : absoluteRequestPaths(runRequestFromOptions(optionTexts({ ...opts, topology: opts.topology ?? fromSchedule?.topology, mapping: opts.mapping ?? fromSchedule?.mapping }), notes));
    for (const note of notes) process.stderr.write(`meshwork: note: ${note}\n`);
    if (request.workload.kind === 'workload') {
      // A saved workload request: the Chakra reader and the lowering load only now (workload/request.ts).
      const { runWorkloadRequest } = await import('./workload.js');
      runWorkloadRequest(request, { printRequest: opts.printRequest, json: true });
      return;
    }
    if (opts.trace && (request.engine ?? 'flow') !== 'flow') throw new InputError('trace', opts.trace, 'a trace with --engine flow (the packet engine writes none)');
    const prepared = prepare(request, fromSchedule?.io ?? nodeRunIo);
    // --collective has a default: only one typed is checked against the file's.
    if (prepared.kind === 'schedule' && prepared.loaded && run.getOptionValueSource('collective') === 'cli') refuseOtherCollective(opts.collective, prepared.loaded);
    if (opts.printRequest) {
      print(JSON.stringify(prepared.request, null, 2));
      return;
    }
    const rates = opts.trace ? new RateRecorder() : undefined;
    const bar = progressBar(`simulating (${prepared.engine} level)`, { json: opts.json || opts.request !== undefined });
    let ran;
    try {
      ran = runPrepared(prepared, { trace: rates, progress: (f) => bar.update(f) });
    } finally {
      bar.stop();
    }
    // A saved request prints its Result, whatever its workload (a traffic request too).
    if (opts.request !== undefined || ran.kind !== 'meshwork-run-result') {
      print(JSON.stringify(ran, null, 2));
      return;
    }
    const result = ran as CollectiveRunView;
    const topology = prepared.topology;
    // A run timed from its representatives alone built no schedule: what ran is its workload record.
    const wl = result.workload as { collective: string; algorithm_spec: string; algorithm_alias?: string; size_bytes: number } | null;
    const schedule = result.schedule ?? { collective: wl!.collective, algorithmSpec: wl!.algorithm_spec, algorithmAlias: wl!.algorithm_alias, parts: [{ size: wl!.size_bytes }] };
    if (result.engine === 'packet') {
      const warning = degradedRoutingWarning(routingFallbackOf(topology, result.routing));
      if (warning) process.stderr.write(`meshwork: ${warning}\n`);
    }
    if (traceOut && rates && result.raw && result.program) writeOutputs([[traceOut, JSON.stringify(chromeTrace(topology, result.program, result.raw, rates))]]);
    const best = bestBound(result.bounds.filter((b) => b.name !== 'schedule'));
    if (opts.json) {
      print(JSON.stringify(result, null, 2));
      return;
    }
    if (opts.csv) {
      print(csvLine(['topology', 'collective', 'algorithm', 'size_bytes', 'engine', 'makespan_s', 'bound_s', 'bound', 'efficiency', 'schedule_bound_s', 'max_utilisation', 'mean_utilisation', 'jain_fairness', 'messages']));
      print(
        csvLine([topology.spec, schedule.collective, schedule.algorithmSpec, schedule.parts[0].size, result.engine, result.makespan_s, result.bound_s, best.name, result.efficiency, result.schedule_bound_s ?? '', result.channels.max_utilisation, result.channels.mean_utilisation, result.channels.jain_fairness, result.stats.messages]),
      );
      return;
    }
    const w = request.workload;
    const msccl = prepared.kind === 'schedule' ? prepared.loaded?.msccl : undefined;
    const collectiveName = msccl?.algo.collective === 'custom' ? 'custom (MSCCL-XML: no postcondition, no bound)' : w.kind === 'schedule' ? schedule.collective : oneToOneName(w, topology.numEndpoints);
    const size = sizeText(w, opts.size, schedule.parts[0]?.size ?? 0);
    const lines = [
      `topology        ${topologyEcho(topology)}`,
      `collective      ${collectiveName}, algorithm ${schedule.algorithmSpec}${schedule.algorithmAlias ? ` (= ${schedule.algorithmAlias})` : ''}, size ${size}`,
      `routing         ${result.routing.name}`,
      `engine          ${result.engine}`,
      `makespan        ${formatTime(result.makespan_s)}`,
      `bound           ${formatTime(result.bound_s)} (${best.name}: ${best.detail})`,
      `efficiency      ${percent(result.efficiency)}`,
      `schedule bound  ${result.schedule_bound_s === null ? 'n/a' : `${formatTime(result.schedule_bound_s)} (${percent(result.schedule_bound_s / Math.max(result.makespan_s, 1e-300))} of makespan)`}`,
      `max link util.  ${percent(result.channels.max_utilisation)} (mean ${percent(result.channels.mean_utilisation)}, Jain ${result.channels.jain_fairness.toFixed(3)})`,
      `messages        ${describeMessages(result.stats)}`,
      ...(result.bandwidth ? [`nccl-tests      algbw ${(result.bandwidth.algbw_Bps / 1e9).toFixed(2)} GB/s, busbw ${(result.bandwidth.busbw_Bps / 1e9).toFixed(2)} GB/s (size ${result.bandwidth.size_bytes} B, factor ${result.bandwidth.busbw_factor.toFixed(4)})`] : []),
      ...(result.model.library ? [`library         ${describeLibrary(result.model.library as LibraryTiming)}`] : []),
      `model           ${describeModel(result.model)}`,
      ...(result.engine === 'packet' ? [`packet          ${describePacketModel(result.model)}`] : []),
      ...(result.engine === 'packet' ? [creditLimitNote(result.model), mixedRateNote(result.model), terminalLatencyNote(result.model)].filter((x) => x !== undefined).map((x) => `                ${x}`) : []),
    ];
    if (opts.trace) lines.push(`trace           ${opts.trace}`);
    print(lines.join('\n'));
  });
}

/** The collective as the header names it; a one-to-one with its two ranks. */
function oneToOneName(w: RunRequest['workload'], ranks: number): string {
  if (w.kind !== 'collective') return w.kind;
  if (w.collective !== 'one-to-one') return w.collective;
  const root = w.root ?? 0;
  const peer = w.peer ?? (root === ranks - 1 ? 0 : ranks - 1);
  return `one-to-one from rank ${root} to rank ${peer}`;
}

/** The header's size: alltoallv's per-pair sizes, the size given, a schedule file's own (one part's `size`), or none. */
function sizeText(w: RunRequest['workload'], given: string | undefined, fileSize: number): string {
  if (w.kind === 'collective' && w.sizes !== undefined) return sizesEcho(w.sizes);
  if ((w.kind === 'collective' || w.kind === 'schedule') && w.size !== undefined && given !== undefined) return `${given} = ${formatSize(w.size)} (${w.size} B)`;
  if (w.kind === 'schedule' && given === undefined && fileSize > 0) return `${formatSize(fileSize)} (${fileSize} B, from the schedule file)`;
  return 'none';
}
