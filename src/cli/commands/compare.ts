import type { Command } from 'commander';
import { formatTime } from '../../util/units.js';
import { InputError, LimitError } from '../../util/errors.js';
import { EXIT_UNRUNNABLE } from '../errors.js';
import { buildSchedule, listAlgorithms } from '../../collectives/registry.js';
import { checkFlowCollectiveSize } from '../../sim/flow/collective-run.js';
import { simulate } from '../../sim/simulate.js';
import type { RunResult } from '../../sim/result.js';
import { print } from '../io.js';
import { progressBar } from '../progress.js';
import { renderTextTable } from '../../report/table.js';
import { addTimingOptions, csvLine, parseTimingOptions, percent, type TimingCliOptions } from './timing-options.js';

interface CompareOptions extends TimingCliOptions {
  include?: string[];
}

interface Row {
  algorithm: string;
  result?: RunResult;
  /** The algorithm does not support this request (rank count, topology): not a failure. */
  skipped?: string;
  /** The algorithm could not run (a deadlock under the protocol, or a defect): listed, the rest shown. */
  failed?: string;
}

/** One line for a failed algorithm: an input error's own words, else the error's first line. */
function failureReason(err: unknown): string {
  if (err instanceof InputError) return err.message;
  return `internal error: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`;
}

export function register(program: Command): void {
  addTimingOptions(
    program
      .command('compare')
      .description('time every applicable algorithm of a collective on a topology; one table sorted by makespan, best marked')
      .option('--include <specs...>', 'extra algorithm variants to run, e.g. hop-grouped:areas=2n'),
  ).action((opts: CompareOptions) => {
    const setup = parseTimingOptions(opts);
    const specs = [...listAlgorithms(setup.collective).map((a) => a.name), ...(opts.include ?? [])];
    if (specs.length === 0) throw new InputError('collective', setup.collective, 'a collective with registered algorithms');
    // Refuse at once, naming the limit, if any algorithm's schedule is too large: before running
    // the others for minutes. (An algorithm that does not support the request is skipped below.)
    for (const spec of specs) {
      try {
        checkFlowCollectiveSize({ collective: setup.collective, algorithm: spec, topology: setup.topology, size: setup.size, root: setup.root, peer: setup.peer, sizes: setup.sizes });
      } catch (err) {
        if (err instanceof LimitError || !(err instanceof InputError)) throw err;
      }
    }
    const rows: Row[] = [];
    const bar = progressBar('comparing', { json: opts.json });
    try {
      specs.forEach((spec, i) => {
        let schedule;
        try {
          schedule = buildSchedule({ collective: setup.collective, algorithm: spec, topology: setup.topology, size: setup.size, root: setup.root, peer: setup.peer, sizes: setup.sizes });
        } catch (err) {
          // An algorithm that does not support this topology or rank count is listed as skipped.
          if (err instanceof InputError && !(opts.include ?? []).includes(spec)) {
            rows.push({ algorithm: spec, skipped: err.accepted });
            return;
          }
          throw err;
        }
        // One algorithm never takes the comparison down (issue 28 item 1): it is listed as failed.
        const label = schedule.algorithmAlias ? `${spec} = ${schedule.algorithmSpec}` : schedule.algorithmSpec;
        try {
          rows.push({ algorithm: label, result: simulate({ topology: setup.topology, schedule, routingOptions: setup.routingOptions, model: setup.model, noise: setup.noise, barriers: setup.barriers }) });
        } catch (err) {
          rows.push({ algorithm: label, failed: failureReason(err) });
        }
        bar.update((i + 1) / specs.length);
      });
    } finally {
      bar.stop();
    }
    const ran = rows.filter((r) => r.result).sort((a, b) => a.result!.makespan_s - b.result!.makespan_s || a.algorithm.localeCompare(b.algorithm));
    const skipped = rows.filter((r) => r.skipped);
    const failed = rows.filter((r) => r.failed);
    // The table is printed; the exit code still says that not every algorithm ran (docs/outputs.md).
    if (failed.length > 0) process.exitCode = EXIT_UNRUNNABLE;
    if (opts.json) {
      print(JSON.stringify({ topology: setup.topology.spec, collective: setup.collective, size_bytes: setup.size, best: ran[0]?.algorithm ?? null, runs: ran.map((r) => r.result), skipped: skipped.map((r) => ({ algorithm: r.algorithm, reason: r.skipped })), failed: failed.map((r) => ({ algorithm: r.algorithm, reason: r.failed })) }, null, 2));
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
      `topology   ${setup.echo.topology}`,
      `collective ${setup.collective}, size ${setup.echo.size ?? 'none'}, flow engine`,
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
