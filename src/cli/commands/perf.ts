import type { Command } from 'commander';
import { InputError } from '../../util/errors.js';
import { parseSize, parseTime } from '../../util/units.js';
import { loadTopology } from '../../node/load-topology.js';
import '../../collectives/index.js'; // registers every algorithm
import { parseCollective } from '../../collectives/types.js';
import { formatPerfTable, perfSweep } from '../../sim/perf.js';
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
  json?: boolean;
  csv?: boolean;
}

/** nccl-tests' own size rule: a bare K, M, G or T is a power of 1024 (`-e 8G` is 8 GiB); anything else as --size. */
export function parseNcclTestsSize(text: string, field: string): number {
  const m = /^\s*(\d+)\s*([KMGT])?\s*$/i.exec(text);
  if (m) return Number(m[1]) * 1024 ** ' KMGT'.indexOf((m[2] ?? ' ').toUpperCase());
  return parseSize(text, field);
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
    .option('--json', 'the rows as JSON (with the algorithm each size ran)')
    .option('--csv', 'the rows as CSV')
    .action((opts: PerfOptions) => {
      const collective = parseCollective(opts.collective);
      const minBytes = parseNcclTestsSize(opts.minbytes, 'minbytes');
      const maxBytes = parseNcclTestsSize(opts.maxbytes, 'maxbytes');
      const factor = Number(opts.stepfactor);
      if (!(Number.isFinite(factor) && factor >= 1)) throw new InputError('stepfactor', opts.stepfactor, 'a number >= 1');
      const topology = loadTopology(opts.topology);
      const model = opts.alpha === undefined ? {} : { alpha: parseTime(opts.alpha, 'alpha') };
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
