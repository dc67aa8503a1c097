import type { Command } from 'commander';
import { InputError } from '../../util/errors.js';
import { formatTime } from '../../util/units.js';
import { bestBound } from '../../sim/bounds/topology-bounds.js';
import { checkTraceSize, chromeTrace, RateRecorder } from '../../sim/flow/trace.js';
import { lowerSchedule } from '../../sim/program/from-schedule.js';
import { simulate, ENGINES, type EngineName } from '../../sim/simulate.js';
import { planOutputs, print, writeOutputs } from '../io.js';
import { progressBar } from '../progress.js';
import { addPacketOptions, describePacketModel, firstPacketOption, parsePacketOptions, type PacketCliOptions } from '../packet-options.js';
import { refuseOversized } from '../../sim/prepare.js';
import { buildSchedule } from '../../collectives/registry.js';
import { degradedRoutingWarning, routingFallbackOf } from '../../routing/up-star-down-star.js';
import { addTimingOptions, csvLine, describeMessages, describeModel, parseTimingOptions, percent, type TimingCliOptions } from './timing-options.js';
import { loadScheduleFile, SCHEDULE_FORMAT_HELP } from '../schedule-file.js';
import { mscclModel, mscclProgram } from '../../interop/msccl/run.js';
import type { LibraryTiming } from '../../sim/library.js';

/** One line: the library's machine preset, protocol, latency and efficiencies (sim/library.ts). */
function describeLibrary(l: LibraryTiming): string {
  const picked = l.pickedBy ? `${l.pickedBy} picked ${l.algorithm}` : l.algorithm;
  return `${picked}, ${l.protocol} on preset ${l.machine}: latency ${formatTime(l.latency_s)} up front, links × ${l.efficiency} (scale-up), × ${l.netEfficiency} (network)`;
}
import { parseRunRequest } from '../../sim/request.js';
import { nodeRunIo } from '../../node/run-io.js';
import { readStructured } from '../../node/load-topology.js';

interface RunOptions extends TimingCliOptions, PacketCliOptions {
  request?: string;
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
      .option('--trace <file>', 'write a Chrome trace-event file (opens in Perfetto): one track per rank stream, link counters'),
  );
  addPacketOptions(run, 'run').action((opts: RunOptions) => {
    if (opts.request !== undefined) {
      print(JSON.stringify(simulate(parseRunRequest(readStructured(opts.request, 'request')), nodeRunIo), null, 2));
      return;
    }
    const [traceOut] = planOutputs({ trace: opts.trace });
    // A schedule file carries its own collective; a JSON one its size too.
    const setup = parseTimingOptions(opts.schedule && opts.size === undefined ? { ...opts, collective: 'barrier' } : opts);
    if (!opts.algorithm && !opts.schedule) throw new InputError('algorithm', undefined, 'an algorithm spec such as hop-grouped or pairwise (see meshwork collective list), or --schedule FILE');
    if (opts.algorithm && opts.schedule) throw new InputError('schedule', opts.schedule, 'either --schedule or --algorithm, not both');
    if (!ENGINES.includes(opts.engine as EngineName)) throw new InputError('engine', opts.engine, ENGINES.join(' or '));
    const engine = opts.engine as EngineName;
    const packetConfig = parsePacketOptions(opts);
    const packetOnly = engine === 'packet' ? undefined : firstPacketOption(opts);
    if (packetOnly) throw new InputError(packetOnly.flag, packetOnly.value, 'a packet-router option with --engine packet (the flow engine has no routers)');
    if (opts.trace && engine !== 'flow') throw new InputError('trace', opts.trace, 'a trace with --engine flow (the packet engine writes none)');
    const loaded = opts.schedule ? loadScheduleFile({ schedule: opts.schedule, scheduleFormat: opts.scheduleFormat, size: opts.size, topology: setup.topology.spec }) : undefined;
    if (loaded && loaded.schedule.numRanks !== setup.topology.numEndpoints) {
      throw new InputError('topology', opts.topology, `a topology with ${loaded.schedule.numRanks} endpoints (the schedule's rank count)`);
    }
    // Refuses a schedule too large for the engines before building it (names the limit).
    const build = loaded ? undefined : { collective: setup.collective, algorithm: opts.algorithm!, topology: setup.topology, size: setup.size, root: setup.root, peer: setup.peer, sizes: setup.sizes };
    if (build) refuseOversized({ topology: setup.topology, engine, build });
    const schedule = loaded?.schedule ?? buildSchedule(build!);
    const msccl = loaded?.msccl;
    const program = msccl ? mscclProgram(msccl, setup.topology) : lowerSchedule(schedule, setup.topology);
    const model = msccl ? mscclModel(msccl, setup.model) : setup.model;
    const collectiveName = msccl?.algo.collective === 'custom' ? 'custom (MSCCL-XML: no postcondition, no bound)' : loaded ? schedule.collective : setup.echo.collective;
    if (opts.trace) checkTraceSize(program);
    const rates = opts.trace ? new RateRecorder() : undefined;
    const bar = progressBar(`simulating (${engine} level)`, { json: opts.json });
    let result;
    try {
      result = simulate({ topology: setup.topology, schedule, program, engine, routingOptions: setup.routingOptions, model, noise: setup.noise, barriers: setup.barriers, trace: rates, packet: { config: packetConfig }, progress: (f) => bar.update(f) });
    } finally {
      bar.stop();
    }
    if (engine === 'packet') {
      const warning = degradedRoutingWarning(routingFallbackOf(setup.topology, result.routing));
      if (warning) process.stderr.write(`meshwork: ${warning}\n`);
    }
    if (traceOut && rates && result.raw) writeOutputs([[traceOut, JSON.stringify(chromeTrace(setup.topology, result.program, result.raw, rates))]]);
    const best = bestBound(result.bounds.filter((b) => b.name !== 'schedule'));
    if (opts.json) {
      print(JSON.stringify(result, null, 2));
      return;
    }
    if (opts.csv) {
      print(csvLine(['topology', 'collective', 'algorithm', 'size_bytes', 'engine', 'makespan_s', 'bound_s', 'bound', 'efficiency', 'schedule_bound_s', 'max_utilisation', 'mean_utilisation', 'jain_fairness', 'messages']));
      print(
        csvLine([setup.topology.spec, schedule.collective, schedule.algorithmSpec, schedule.parts[0].size, result.engine, result.makespan_s, result.bound_s, best.name, result.efficiency, result.schedule_bound_s ?? '', result.channels.max_utilisation, result.channels.mean_utilisation, result.channels.jain_fairness, result.stats.messages]),
      );
      return;
    }
    const lines = [
      `topology        ${setup.echo.topology}`,
      `collective      ${collectiveName}, algorithm ${schedule.algorithmSpec}${schedule.algorithmAlias ? ` (= ${schedule.algorithmAlias})` : ''}, size ${setup.echo.size ?? 'none'}`,
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
    ];
    if (opts.trace) lines.push(`trace           ${opts.trace}`);
    print(lines.join('\n'));
  });
}
