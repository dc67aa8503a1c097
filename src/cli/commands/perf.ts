import { Option, type Command } from 'commander';
import { InputError } from '../../util/errors.js';
import { parseTime } from '../../util/units.js';
import { isDecimal } from '../../util/spec.js';
import { loadTopology, readText } from '../../node/load-topology.js';
import { assertRanksConnected } from '../../topology/failures.js';
import '../../collectives/index.js'; // registers every algorithm
import { parseCollective } from '../../collectives/types.js';
import { checkMeasuredTable, compareWithMeasured, formatPerfTable, parseMeasuredTable, parseNcclTestsSize, perfSweep, tableAnchors, type MeasuredComparison } from '../../sim/perf.js';
import { basename } from 'node:path';
import { print } from '../io.js';
import { csvLine } from './timing-options.js';
import { progressBar } from '../progress.js';

interface PerfOptions {
  topology: string;
  collective: string;
  algorithm: string;
  minbytes: string;
  maxbytes: string;
  stepfactor: string;
  alpha?: string;
  measured?: string;
  json?: boolean;
  csv?: boolean;
}

export function register(program: Command): void {
  program
    .command('perf')
    .description("a size sweep in nccl-tests' table format (all_reduce_perf -b 8 -e 8G -f 2): time, algbw and busbw per size")
    .requiredOption('--topology <spec>', 'topology spec or file, e.g. hgx-h100:nodes=2 or mi300x')
    .option('--collective <name>', 'allreduce, allgather, reduce-scatter, alltoall, broadcast, reduce', 'allreduce')
    .option('--algorithm <spec>', 'algorithm spec; nccl or rccl: the library picks per size by its tuning model', 'nccl')
    .option('-b, --minbytes <size>', 'smallest size (nccl-tests: 8, 1K, 1M; K/M/G are powers of 1024)', '8')
    .option('-e, --maxbytes <size>', 'largest size', '8G')
    .option('-f, --stepfactor <x>', 'multiply the size by this each row', '2')
    .option('--alpha <time>', "per-message overhead α (library algorithms: 0, the library's latency model replaces it)")
    .option('--measured <file>', "a measured table to compare with, row by row (nccl-tests' all_reduce_perf output, or a CSV with size_B, oop_time_us, oop_busbw_GBps): its sizes replace -b/-e/-f; --csv then gives one row per size and source, for the Studio's Sweeps view")
    .option('--json', 'the rows as JSON (with the algorithm each size ran)')
    // One output format, as run and compare: --json --csv together printed JSON only.
    .addOption(new Option('--csv', 'the rows as CSV').conflicts('json'))
    .action((opts: PerfOptions) => {
      const collective = parseCollective(opts.collective);
      const minBytes = parseNcclTestsSize(opts.minbytes, 'minbytes');
      const maxBytes = parseNcclTestsSize(opts.maxbytes, 'maxbytes');
      const factor = Number(opts.stepfactor);
      if (!(isDecimal(opts.stepfactor) && Number.isFinite(factor) && factor >= 1)) throw new InputError('stepfactor', opts.stepfactor, 'a number >= 1');
      const topology = loadTopology(opts.topology);
      assertRanksConnected(topology);
      const model = opts.alpha === undefined ? {} : { alpha: parseTime(opts.alpha, 'alpha') };
      if (opts.measured !== undefined) {
        const text = readText(opts.measured, 'measured');
        // A table a machine preset was calibrated on (by its file name): its anchor rows apart from the held-out ones.
        const anchors = tableAnchors(basename(opts.measured));
        checkMeasuredTable(text, collective, topology.numEndpoints);
        const comparison = compareWithMeasured({ topology, collective, algorithm: opts.algorithm, model }, parseMeasuredTable(text), anchors);
        printComparison(comparison, opts, `${collective} on ${topology.spec}, algorithm ${opts.algorithm}, against ${opts.measured}`);
        return;
      }
      const bar = progressBar('sweeping sizes', { json: opts.json || opts.csv });
      let rows;
      try {
        rows = perfSweep({ topology, collective, algorithm: opts.algorithm, minBytes, maxBytes, factor, model, onRow: (_r, i, total) => bar.update((i + 1) / total) });
      } finally {
        bar.stop();
      }
      if (opts.json) {
        print(JSON.stringify({ topology: topology.spec, collective, algorithm: opts.algorithm, rows }, null, 2));
        return;
      }
      if (opts.csv) {
        print(csvLine(['size_B', 'count', 'type', 'redop', 'root', 'time_us', 'algbw_GBps', 'busbw_GBps', 'algorithm']));
        for (const r of rows) print(csvLine([r.size_bytes, r.count, r.type, r.redop, r.root, r.time_s * 1e6, r.algbw_Bps / 1e9, r.busbw_Bps / 1e9, r.algorithm]));
        return;
      }
      print(formatPerfTable(rows, `meshwork perf: ${collective} on ${topology.spec} (${topology.numEndpoints} ranks), algorithm ${opts.algorithm}, flow level`));
    });
}

/** The comparison as a table (default), JSON, or CSV with one row per size and source (measured, meshwork). */
function printComparison(c: MeasuredComparison, opts: PerfOptions, title: string): void {
  if (opts.json) {
    print(JSON.stringify(c, null, 2));
    return;
  }
  if (opts.csv) {
    print(csvLine(['size_B', 'source', 'time_us', 'busbw_GBps', 'error', 'algorithm']));
    for (const r of c.rows) {
      print(csvLine([r.measured.size_bytes, 'measured', r.measured.time_s * 1e6, r.measured.busbw_Bps / 1e9, '', '']));
      print(csvLine([r.measured.size_bytes, 'meshwork', r.meshwork.time_s * 1e6, r.meshwork.busbw_Bps / 1e9, r.error, r.meshwork.algorithm]));
    }
    return;
  }
  const pad = (x: string | number, w: number): string => String(x).padStart(w);
  const pct = (x: number | null): string => (x === null ? 'n/a' : `${(100 * x).toFixed(1)} %`);
  const lines = [`# ${title}`, '#       size   measured us   meshwork us    error   measured busbw   meshwork busbw  meshwork ran'];
  for (const r of c.rows) {
    lines.push(`${pad(r.measured.size_bytes, 12)}  ${pad((r.measured.time_s * 1e6).toFixed(2), 12)}  ${pad((r.meshwork.time_s * 1e6).toFixed(2), 12)}  ${pad(pct(r.error), 7)}  ${pad((r.measured.busbw_Bps / 1e9).toFixed(2), 15)}  ${pad((r.meshwork.busbw_Bps / 1e9).toFixed(2), 15)}  ${r.meshwork.algorithm}${r.anchor ? '  (anchor)' : ''}`);
  }
  lines.push(`# geometric-mean error: below 1 MiB ${pct(c.geomeanBelow1MiB)}, from 1 MiB ${pct(c.geomeanFrom1MiB)} (exp(mean |ln(meshwork / measured)|) − 1)`);
  if (c.rows.some((r) => r.anchor)) {
    lines.push(`# held out (every row but the anchors a preset parameter was solved from): below 1 MiB ${pct(c.heldOutBelow1MiB)}, from 1 MiB ${pct(c.heldOutFrom1MiB)}`);
  }
  print(lines.join('\n'));
}
