import { basename } from 'node:path';
import { byCodeUnits } from '../../util/arrays.js';
import type { Command } from 'commander';
import { detectScheduleFormat } from '../../node/interop.js';
import { readScheduleFile } from '../../node/run-io.js';
import { recordedTopology } from '../schedule-file.js';
import { formatTime } from '../../util/units.js';
import { EXIT_UNRUNNABLE } from '../errors.js';
import { compareAlgorithms } from '../../sim/compare.js';
import { optionTexts, runRequestFromOptions } from '../run-request.js';
import { nodeRunIo } from '../../node/run-io.js';
import { topologyOf, type RunIo } from '../../sim/prepare.js';
import type { Topology } from '../../topology/graph.js';
import type { RunResult } from '../../sim/result.js';
import type { CollectiveResult } from '../../sim/simulate.js';
import { print } from '../io.js';
import { progressBar } from '../progress.js';
import { renderTextTable } from '../../report/table.js';
import { addTimingOptions, csvLine, percent, sizeEcho, sizesEcho, topologyEcho, type TimingCliOptions } from './timing-options.js';

interface CompareOptions extends TimingCliOptions {
  include?: string[];
  schedule?: string[];
}

interface Row {
  algorithm: string;
  result?: RunResult;
  /** The algorithm does not support this request (rank count, topology): not a failure. */
  skipped?: string;
  /** The algorithm could not run (a deadlock under the protocol, or a defect): listed, the rest shown. */
  failed?: string;
}

export function register(program: Command): void {
  addTimingOptions(
    program
      .command('compare')
      .description('time every applicable algorithm of a collective on a topology; one table sorted by makespan, best marked')
      .option('--include <specs...>', 'extra algorithm variants to run, e.g. hop-grouped:areas=2n')
      .option('--schedule <files...>', 'your own schedules timed in the same table: Meshwork schedule JSON or MSCCL-XML files of this collective and size'),
  ).action((opts: CompareOptions, command: Command) => {
    // One library function over requests (sim/compare.ts), as the Studio's Compare view; the
    // algorithm of the base request is a placeholder each compared algorithm replaces.
    // alltoallv's per-pair sizes travel in the request (a generator, or a file read through RunIo).
    const { schedule: schedules, ...timing } = opts;
    const fromFile = schedules?.length ? requestOfScheduleFile(schedules[0], opts, command.getOptionValueSource('collective') === 'default') : {};
    const sizeText = opts.size ?? fromFile.size;
    const texts = optionTexts({ ...timing, ...fromFile });
    // The header reads the topology the comparison built (once, for every algorithm).
    let built: Topology | undefined;
    const io: RunIo = { ...nodeRunIo, loadTopology: (spec, o) => (built = nodeRunIo.loadTopology!(spec, o)) };
    const notes: string[] = [];
    const request = runRequestFromOptions({ ...texts, algorithm: 'compared' }, notes);
    for (const note of notes) process.stderr.write(`meshwork: note: ${note}\n`);
    const bar = progressBar('comparing', { json: opts.json });
    let compared;
    try {
      compared = compareAlgorithms(request, { include: opts.include, schedules, io, progress: (f) => bar.update(f) });
    } finally {
      bar.stop();
    }
    // Built unless every algorithm was refused before the topology (then built here, once).
    const topology = built ?? topologyOf(request, nodeRunIo);
    const rows: Row[] = [
      ...compared.runs.map((result) => ({ algorithm: rowLabel(result), result })),
      ...compared.skipped.map((s) => ({ algorithm: s.algorithm, skipped: s.reason })),
      ...compared.failed.map((f) => ({ algorithm: f.algorithm, failed: f.reason })),
    ];
    const ran = rows.filter((r) => r.result).sort((a, b) => a.result!.makespan_s - b.result!.makespan_s || byCodeUnits(a.algorithm, b.algorithm));
    const skipped = rows.filter((r) => r.skipped);
    const failed = rows.filter((r) => r.failed);
    // The table is printed; the exit code still says that not every algorithm ran (docs/outputs.md).
    if (failed.length > 0) process.exitCode = EXIT_UNRUNNABLE;
    if (opts.json) {
      print(JSON.stringify({ topology: topology.spec, collective: compared.collective, size_bytes: compared.size_bytes, best: ran[0]?.algorithm ?? null, runs: ran.map((r) => r.result), skipped: skipped.map((r) => ({ algorithm: r.algorithm, reason: r.skipped })), failed: failed.map((r) => ({ algorithm: r.algorithm, reason: r.failed })) }, null, 2));
      return;
    }
    if (opts.csv) {
      print(csvLine(['algorithm', 'makespan_s', 'bound_s', 'efficiency', 'schedule_bound_s', 'max_utilisation', 'messages', 'best']));
      ran.forEach((r, i) => {
        const x = r.result!;
        print(csvLine([r.algorithm, x.makespan_s, x.bound_s, x.efficiency, x.schedule_bound_s ?? '', x.channels.max_utilisation, x.stats.messages, i === 0 ? 'yes' : '']));
      });
      return;
    }
    const header = ['algorithm', 'makespan', 'efficiency', 'schedule bound', 'max link util.', 'messages', ''];
    const body = ran.map((r, i) => {
      const x = r.result!;
      return [r.algorithm, formatTime(x.makespan_s), percent(x.efficiency), x.schedule_bound_s === null ? 'n/a' : formatTime(x.schedule_bound_s), percent(x.channels.max_utilisation), String(x.stats.messages), i === 0 ? '<- best' : ''];
    });
    const bound = ran[0]?.result;
    const lines = [
      `topology   ${topologyEcho(topology)}`,
      `collective ${compared.collective}, size ${opts.sizes !== undefined ? sizesEcho(opts.sizes) : sizeText === undefined ? 'none' : sizeEcho(sizeText, compared.size_bytes)}, flow engine`,
      bound ? `bound      ${formatTime(bound.bound_s)} (efficiency = bound / makespan)` : 'bound      n/a',
      '',
      renderTextTable({ id: 'compare', title: '', columns: header, rows: body, align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'] }, { title: false, maxCell: 80 }),
    ];
    if (skipped.length > 0) lines.push('', skipped.map((r) => `skipped ${r.algorithm}: ${r.skipped}`).join('\n'));
    if (failed.length > 0) lines.push('', failed.map((r) => `failed ${r.algorithm}: ${r.failed}`).join('\n'));
    print(lines.join('\n'));
    // One line on stderr too, so a run in a script sees why the exit code is 3.
    if (failed.length > 0) process.stderr.write(`meshwork: ${failed.length} of ${rows.length - skipped.length} algorithms could not run (${failed.map((r) => r.algorithm).join(', ')}); the others are shown\n`);
  });
}

/**
 * A row's algorithm: its resolved spec, led by the name compared when that name is another
 * algorithm's alias (`nccl` and `rccl` both resolve to an nccl-ring spec on a generic fabric: two
 * rows with one spec would read as a duplicate).
 */
function rowLabel(result: CollectiveResult): string {
  const spec = String(result.workload?.algorithm_spec);
  const name = String(result.workload?.algorithm);
  // A schedule file's row names its file: its algorithm may be a registered one's name (ring beside ring).
  const request = result.request?.workload;
  if (request?.kind === 'schedule') return `${spec} (${basename(request.file)})`;
  return spec === name || spec.startsWith(`${name}:`) ? spec : `${name} (= ${spec})`;
}

/**
 * `compare --schedule FILE.json` without `--topology`, `--size` or `--collective`: what the first
 * Meshwork schedule JSON file records, as `run --schedule` reads it (an MSCCL-XML file records
 * neither topology nor size, so those stay required). Only options left out are filled.
 */
function requestOfScheduleFile(file: string, opts: CompareOptions, collectiveDefaulted: boolean): Partial<Pick<CompareOptions, 'topology' | 'size' | 'collective'>> {
  if (opts.topology !== undefined && opts.size !== undefined && !collectiveDefaulted) return {};
  const format = detectScheduleFormat(file);
  if (format !== 'json') return {};
  const loaded = readScheduleFile(file, { format });
  const part = loaded.schedule.parts[0];
  return {
    ...(opts.topology === undefined ? { topology: recordedTopology(loaded, file) } : {}),
    ...(opts.size === undefined && part.sizes === undefined ? { size: String(part.size) } : {}),
    ...(collectiveDefaulted ? { collective: part.collective } : {}),
  };
}
