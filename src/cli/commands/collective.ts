/**
 * `meshwork collective list | verify | show`: a thin layer over src/collectives (build a schedule
 * with an algorithm or load a user's JSON, execute and verify it, print one rank's program).
 */
import type { Command } from 'commander';
import { loadTopology } from '../../node/load-topology.js';
import type { Topology } from '../../topology/graph.js';
import { InputError } from '../../util/errors.js';
import { parseIntValue } from '../../util/spec.js';
import { formatSize, parseSize } from '../../util/units.js';
import {
  COLLECTIVES,
  DTYPES,
  REDUCE_OPS,
  Dtype,
  ReduceOp,
  Schedule,
  buildSchedule,
  executeSchedule,
  listAlgorithms,
  parseCollective,
  refuseInapplicableRanks,
  scheduleJsonChunks,
  sizeMeaning,
  type ExecutionReport,
  type ExecMode,
} from '../../collectives/index.js';
import { withProgress } from '../progress.js';
import { planOutputs, print, printChunk, writeOutputs } from '../io.js';
import { loadScheduleFile, recordedMapping, recordedTopology, refuseOtherCollective, SCHEDULE_FORMAT_HELP, type LoadedSchedule } from '../schedule-file.js';
import { verifyMscclSchedule } from '../../interop/msccl/run.js';
import { assertMscclExportable, mscclXmlChunks } from '../../interop/msccl/write.js';
import { PROTOCOL_NAMES, type MscclProtocol } from '../../interop/msccl/format.js';
import { checkScheduleFormat } from '../../interop/schedule-formats.js';

const SIZE_HELP =
  'bytes (e.g. 64KiB): alltoall/allgather/gather/scatter = one block; broadcast/reduce/allreduce/reduce-scatter = the whole buffer; one-to-one = the message';

interface ScheduleOpts {
  topology?: string;
  collective?: string;
  algorithm?: string;
  size?: string;
  root?: string;
  peer?: string;
  dtype?: string;
  op?: string;
  schedule?: string;
  scheduleFormat?: string;
  mapping?: string;
}

function addScheduleOptions(cmd: Command): Command {
  return cmd
    .option('--topology <spec>', 'topology spec or file; ranks are its compute endpoints (e.g. torus:4x4, file:graph.json)')
    .option('--mapping <m>', 'rank order on the endpoints: identity, reverse, random:seed=N, snake, or a permutation file')
    .option('--collective <c>', `collective: ${COLLECTIVES.join(', ')}`)
    .option('--algorithm <spec>', 'algorithm spec name[:key=val,...] (see `meshwork collective list`)')
    .option('--size <bytes>', SIZE_HELP)
    .option('--root <rank>', 'root rank of rooted collectives (the source of one-to-one)', '0')
    .option('--peer <rank>', 'destination rank of one-to-one (default: the last rank)')
    .option('--dtype <t>', `element type of reductions: ${DTYPES.join(', ')}`, 'int32')
    .option('--op <op>', `reduction operator: ${REDUCE_OPS.join(', ')}`, 'sum')
    .option('--schedule <file>', "a schedule file instead of building one: Meshwork JSON, or MSCCL-XML (with --size)")
    .option('--schedule-format <f>', SCHEDULE_FORMAT_HELP);
}

function loadOrBuild(opts: ScheduleOpts): LoadedSchedule & { topology: Topology | undefined } {
  checkScheduleFormat(opts.scheduleFormat, opts.schedule);
  if (opts.schedule) {
    // The file names its collective and algorithm; given again here they would be ignored.
    if (opts.algorithm !== undefined) throw new InputError('schedule', opts.schedule, 'either --schedule or --algorithm, not both');
    const loaded = loadScheduleFile({
      schedule: opts.schedule,
      scheduleFormat: opts.scheduleFormat,
      size: opts.size,
      dtype: choice<Dtype>(opts.dtype ?? 'int32', 'dtype', DTYPES),
      op: choice<ReduceOp>(opts.op ?? 'sum', 'op', REDUCE_OPS),
      topology: opts.topology,
    });
    const { schedule } = loaded;
    refuseOtherCollective(opts.collective, loaded);
    const spec = opts.topology ?? recordedTopology(loaded, opts.schedule);
    const topology = spec ? loadTopology(spec, { mapping: opts.mapping }) : undefined;
    if (topology && topology.numEndpoints !== schedule.numRanks) {
      throw new InputError('topology', spec, `a topology with ${schedule.numRanks} endpoints (the schedule's rank count)`);
    }
    return { ...loaded, topology };
  }
  for (const key of ['topology', 'collective', 'algorithm', 'size'] as const) {
    if (opts[key] === undefined) throw new InputError(key, undefined, `--${key} (or --schedule file.json)`);
  }
  const topology = loadTopology(opts.topology!, { mapping: opts.mapping });
  const collective = parseCollective(opts.collective!);
  const n = topology.numEndpoints;
  const root = parseIntValue(opts.root ?? '0', 'root', { min: 0, max: n - 1 });
  const peer = opts.peer === undefined ? undefined : parseIntValue(opts.peer, 'peer', { min: 0, max: n - 1 });
  refuseInapplicableRanks(collective, root, peer);
  const dtype = choice<Dtype>(opts.dtype ?? 'int32', 'dtype', DTYPES);
  const op = choice<ReduceOp>(opts.op ?? 'sum', 'op', REDUCE_OPS);
  const size = collective === 'barrier' ? 0 : parseSize(opts.size!, 'size');
  const schedule = buildSchedule({ collective, algorithm: opts.algorithm!, topology, size, root, peer: peer ?? (root === n - 1 ? 0 : n - 1), dtype, op });
  return { schedule, topology };
}

function choice<T extends string>(v: string, field: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(v)) throw new InputError(field, v, choices.join(', '));
  return v as T;
}

function describeSize(s: Schedule): string {
  const p = s.parts[0];
  const m = sizeMeaning(p.collective);
  return m === 'none' ? 'no data' : `${formatSize(p.size)} ${m === 'block' ? 'per block' : m === 'message' ? 'message' : 'buffer'}`;
}

function reportJson(s: Schedule, r: ExecutionReport): unknown {
  const arr = (a: ArrayLike<number>): number[] => Array.from(a);
  return {
    pass: r.pass,
    collective: s.parts.map((p) => p.collective),
    algorithm: s.algorithmSpec,
    topology: s.topology,
    ranks: s.numRanks,
    streams: s.streams,
    size: s.parts[0].size,
    sizeMeaning: sizeMeaning(s.parts[0].collective),
    dtype: s.dtype,
    op: s.op,
    root: s.parts[0].root,
    ops: s.numOps,
    mode: r.mode,
    granularity: r.granularity,
    messages: r.messages,
    checkedSlots: r.checkedSlots,
    problems: r.problems,
    mismatchCount: r.mismatchCount,
    mismatches: r.mismatches,
    perRank: {
      sentBytes: arr(r.stats.sentBytes),
      recvBytes: arr(r.stats.recvBytes),
      messagesSent: arr(r.stats.messagesSent),
      messagesRecv: arr(r.stats.messagesRecv),
      barriers: arr(r.stats.barriers),
      hwOps: arr(r.stats.hwOps),
      peakBytes: arr(r.stats.peakBytes),
    },
    steps: r.steps && {
      steps: r.steps.steps,
      transfersPerStep: arr(r.steps.stepStart.subarray(1)).map((end, i) => end - r.steps!.stepStart[i]),
      maxSendsPerRank: arr(r.steps.maxSendsPerRank),
      maxRecvsPerRank: arr(r.steps.maxRecvsPerRank),
      maxUpPerSwitch: r.steps.switchCounts ? arr(r.steps.maxUpPerSwitch) : undefined,
      maxDownPerSwitch: r.steps.switchCounts ? arr(r.steps.maxDownPerSwitch) : undefined,
      deferredSends: arr(r.steps.deferredSends),
    },
  };
}

function maxArr(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, a[i]);
  return m;
}

function reportText(s: Schedule, r: ExecutionReport): string {
  const lines: string[] = [];
  const coll = s.parts.map((p) => p.collective).join('+');
  lines.push(
    `${r.pass ? 'PASS' : 'FAIL'} ${coll} ${s.algorithmSpec}${s.topology ? ` on ${s.topology}` : ''}: ${s.numRanks} ranks, ${describeSize(s)}, ${s.streams} stream(s), ${r.mode} mode (${r.granularity}-byte slots)`,
  );
  for (const p of r.problems) lines.push(`  ${p.kind}: ${p.message}`);
  if (r.mismatchCount) {
    lines.push(`  ${r.mismatchCount} of ${r.checkedSlots} output slots wrong; first:`);
    for (const m of r.mismatches) lines.push(`    ${m.text}`);
  }
  const hwOps = r.stats.hwOps.reduce((a, b) => a + b, 0);
  lines.push(`ops ${s.numOps}, messages ${r.messages}${hwOps > 0 ? `, hwCollective contributions ${hwOps} (combining network, no messages)` : ''}, slots checked ${r.checkedSlots}`);
  if (r.steps) {
    const st = r.steps;
    const deferred = st.deferredSends.reduce((a, b) => a + b, 0);
    lines.push(
      `steps ${st.steps}: max sends per rank ${maxArr(st.maxSendsPerRank)}, max receives per rank ${maxArr(st.maxRecvsPerRank)}, deferred sends ${deferred}` +
        (st.switchCounts ? `, max transfers out of one leaf ${maxArr(st.maxUpPerSwitch)}, into one leaf ${maxArr(st.maxDownPerSwitch)}` : ''),
    );
    if (st.steps <= 64) {
      const per = Array.from({ length: st.steps }, (_, t) => st.stepStart[t + 1] - st.stepStart[t]);
      lines.push(`transfers per step: ${per.join(' ')}`);
    }
  }
  const n = s.numRanks;
  const st = r.stats;
  const row = (k: number): string =>
    [k, st.sentBytes[k], st.recvBytes[k], st.messagesSent[k], st.messagesRecv[k], st.barriers[k] + st.hwOps[k], st.peakBytes[k]].map((x) => String(x).padStart(10)).join('');
  lines.push(['rank', 'sent B', 'recv B', 'msgs out', 'msgs in', 'barr+hw', 'peak B'].map((x) => x.padStart(10)).join(''));
  const shown = n <= 64 ? n : 8;
  for (let k = 0; k < shown; k++) lines.push(row(k));
  if (shown < n) {
    const stat = (a: ArrayLike<number>): string => {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < a.length; i++) {
        lo = Math.min(lo, a[i]);
        hi = Math.max(hi, a[i]);
      }
      return lo === hi ? String(lo) : `${lo}..${hi}`;
    };
    lines.push(`  ... ${n - shown} more ranks (--json for all); over all ranks: sent ${stat(st.sentBytes)} B, received ${stat(st.recvBytes)} B, messages out ${stat(st.messagesSent)}, peak ${stat(st.peakBytes)} B`);
  }
  return lines.join('\n');
}

export function register(program: Command): void {
  const collective = program
    .command('collective')
    .description('collective algorithms: list them, verify a schedule byte for byte, show one rank\'s program');

  collective
    .command('list')
    .description('algorithms per collective, with parameters, defaults and what each supports')
    .option('--collective <c>', 'only this collective')
    .option('--json', 'machine-readable output')
    .action((opts: { collective?: string; json?: boolean }) => {
      const only = opts.collective ? parseCollective(opts.collective) : undefined;
      const rows = COLLECTIVES.filter((c) => !only || c === only).flatMap((c) => listAlgorithms(c));
      if (opts.json) {
        print(JSON.stringify(rows.map((a) => ({ collective: a.collective, name: a.name, source: a.source, supports: a.supportsText, description: a.description, params: a.params })), null, 2));
        return;
      }
      const lines: string[] = [`--size: ${SIZE_HELP}`];
      for (const c of COLLECTIVES.filter((x) => !only || x === only)) {
        const algs = rows.filter((a) => a.collective === c);
        if (!algs.length) continue;
        lines.push('', `${c}:`);
        for (const a of algs) {
          lines.push(`  ${a.name.padEnd(22)} ${a.description} [${a.source}; supports ${a.supportsText}]`);
          for (const p of a.params) {
            const extra = p.kind === 'choice' ? ` (${p.choices.join('|')})` : p.kind === 'int' || p.kind === 'number' ? (p.min !== undefined || p.max !== undefined ? ` (${p.min ?? ''}..${p.max ?? ''})` : '') : ' (on|off)';
            lines.push(`      ${p.key}=${String(p.default)}${extra}  ${p.description}`);
          }
        }
      }
      print(lines.join('\n'));
    });

  addScheduleOptions(
    collective
      .command('verify')
      .description('build (or load) a schedule, run it on real buffers and check the postcondition byte for byte'),
  )
    .option('--steps', 'synchronous one-port unit steps: step count and per-step transfers per node and leaf switch')
    .option('--mode <m>', 'bytes (one slot per byte/element) or chunks (chunk identities: large runs)', 'bytes')
    .option('--out <file.json>', 'write the schedule as JSON')
    .option('--json', 'machine-readable report')
    .action((opts: ScheduleOpts & { steps?: boolean; mode: string; out?: string; json?: boolean }) => {
      const mode = choice<ExecMode>(opts.mode, 'mode', ['bytes', 'chunks']);
      const [out] = planOutputs({ out: opts.out });
      const { schedule, topology, msccl } = loadOrBuild(opts);
      // Streamed chunk by chunk: the JSON of a large schedule does not fit in one string.
      if (out) writeOutputs([[out, scheduleJsonChunks(schedule, { mapping: recordedMapping(opts.mapping) })]]);
      // runs: a misplaced chunk is one line naming its byte range, not one line per byte.
      const execOpts = { mode, steps: opts.steps, topology, runs: true };
      const report = withProgress('verifying', { json: opts.json }, (bar) => (msccl ? verifyMscclSchedule(msccl, execOpts) : executeSchedule(schedule, { ...execOpts, progress: (f) => bar.update(f) })));
      const customNote = msccl?.algo.collective === 'custom' ? '\nMSCCL coll="custom" has no postcondition: PASS means every step completed (no deadlock, unmatched message or chunk out of bounds)' : '';
      print(opts.json ? JSON.stringify(reportJson(schedule, report), null, 2) : reportText(schedule, report) + customNote);
      if (!report.pass) process.exitCode = 1;
    });

  addScheduleOptions(collective.command('export').description('write a schedule in another tool\'s format: msccl-xml (MSCCL/RCCL runtimes, MSCCLang, ASTRA-sim) or json'))
    .requiredOption('--format <f>', 'msccl-xml or json')
    .option('--proto <p>', `msccl-xml protocol attribute: ${PROTOCOL_NAMES.join(', ')}`, 'Simple')
    .option('--out <file>', 'output file (default: standard output)')
    .action((opts: ScheduleOpts & { format: string; proto: string; out?: string }, command: Command) => {
      const format = choice(opts.format, 'format', ['msccl-xml', 'json']);
      const proto = choice<MscclProtocol>(opts.proto, 'proto', PROTOCOL_NAMES);
      if (format === 'json' && command.getOptionValueSource('proto') === 'cli') throw new InputError('proto', opts.proto, 'nothing with --format json (an msccl-xml attribute)');
      const [out] = planOutputs({ out: opts.out });
      const { schedule } = loadOrBuild(opts);
      if (format === 'msccl-xml') assertMscclExportable(schedule);
      const chunks = format === 'json' ? scheduleJsonChunks(schedule, { mapping: recordedMapping(opts.mapping) }) : mscclXmlChunks(schedule, { proto });
      if (out) writeOutputs([[out, chunks]]);
      else for (const c of chunks) printChunk(c);
    });

  addScheduleOptions(collective.command('show').description("print one rank's program, op by op"))
    .requiredOption('--rank <r>', 'the rank to show')
    .option('--stream <s>', 'only this stream')
    .option('--limit <n>', 'at most this many ops per stream', '200')
    .action((opts: ScheduleOpts & { rank: string; stream?: string; limit: string }) => {
      const { schedule: s } = loadOrBuild(opts);
      const rank = parseIntValue(opts.rank, 'rank', { min: 0, max: s.numRanks - 1 });
      const only = opts.stream === undefined ? undefined : parseIntValue(opts.stream, 'stream', { min: 0, max: s.streams - 1 });
      const limit = parseIntValue(opts.limit, 'limit', { min: 1 });
      const { start, order } = s.programs();
      const lines = [`rank ${rank} of ${s.numRanks}: ${s.parts.map((p) => p.collective).join('+')} ${s.algorithmSpec}, ${describeSize(s)}; buffers ${s.buffers.map((b, i) => `${b.name}=${s.bufferBytes(rank, i)}B`).join(' ')}`];
      for (let st = 0; st < s.streams; st++) {
        if (only !== undefined && st !== only) continue;
        const p = rank * s.streams + st;
        const count = start[p + 1] - start[p];
        lines.push(`stream ${st}: ${count} ops`);
        for (let i = start[p]; i < Math.min(start[p + 1], start[p] + limit); i++) lines.push(`  ${String(i - start[p]).padStart(5)}  ${s.describeOp(order[i])}`);
        if (count > limit) lines.push(`  ... ${count - limit} more (--limit)`);
      }
      print(lines.join('\n'));
    });
}
