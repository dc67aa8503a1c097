/**
 * A size sweep in nccl-tests' form (`all_reduce_perf -b 8 -e 8G -f 2`): one timed run per size,
 * each row with nccl-tests' columns (size, count, type, redop, root, time, algbw, busbw), so a
 * Meshwork table lies beside a measured one. Sizes are nccl-tests' (the whole buffer; all n blocks
 * for allgather and alltoall), cut as nccl-tests cuts them: to whole elements, and to a multiple of
 * n elements where each rank gets a block.
 */
import { InputError, requireRecord, requireText } from '../util/errors.js';
import { parseSize } from '../util/units.js';
import { LIBRARY_MACHINES } from '../collectives/algorithms/library/tuning.js';
import type { Topology } from '../topology/graph.js';
import type { CollectiveKind } from '../collectives/types.js';
import { checkSizeFits } from '../collectives/registry.js';
import type { FlowModelOptions } from './program/model.js';
import { simulateCollective } from './simulate.js';
import { ncclTestsBandwidth, ncclTestsSize } from './nccl-tests.js';

export interface PerfRow {
  /** nccl-tests' size, bytes. */
  readonly size_bytes: number;
  readonly count: number;
  readonly type: 'float';
  readonly redop: string;
  readonly root: number;
  readonly time_s: number;
  readonly algbw_Bps: number;
  readonly busbw_Bps: number;
  /** The algorithm spec that ran (a library's pick for `nccl`/`rccl`). */
  readonly algorithm: string;
}

export interface PerfRequest {
  readonly topology: Topology;
  readonly collective: CollectiveKind;
  readonly algorithm: string;
  /** -b, -e (bytes) and -f (factor) as nccl-tests takes them. */
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly factor: number;
  readonly model?: FlowModelOptions;
  /** Called after each size (progress). */
  readonly onRow?: (row: PerfRow, index: number, total: number) => void;
}

const FLOAT_BYTES = 4;
/** Most rows of one sweep (8 B to 8 GiB by ×2 is 31). */
export const MAX_PERF_ROWS = 4096;

/** Blocked collectives: nccl-tests' size is n blocks. */
const BLOCKED = new Set<CollectiveKind>(['allgather', 'alltoall', 'reduce-scatter', 'gather', 'scatter']);

/** nccl-tests' own size rule: a bare K, M, G or T is a power of 1024 (`-e 8G` is 8 GiB); anything else as --size. */
export function parseNcclTestsSize(text: string, field: string): number {
  const m = /^\s*(\d+)\s*([KMGT])?\s*$/i.exec(text);
  if (m) return Number(m[1]) * 1024 ** ' KMGT'.indexOf((m[2] ?? ' ').toUpperCase());
  return parseSize(text, field);
}

/** The sizes of a measured table (by its file name) that a machine preset's parameters were solved from: kept out of the held-out figures. */
export function tableAnchors(fileName: string): Set<number> {
  return new Set(Object.values(LIBRARY_MACHINES).flatMap((m) => (m.anchors ?? []).filter((a) => a.table === fileName).map((a) => a.size_bytes)));
}

export function perfSizes(minBytes: number, maxBytes: number, factor: number): number[] {
  if (!(Number.isSafeInteger(minBytes) && minBytes >= 0)) throw new InputError('minbytes', minBytes, 'a whole number of bytes >= 0');
  if (!(Number.isSafeInteger(maxBytes) && maxBytes >= minBytes)) throw new InputError('maxbytes', maxBytes, `a whole number of bytes >= minbytes (${minBytes})`);
  if (!(Number.isFinite(factor) && factor >= 1)) throw new InputError('stepfactor', factor, 'a number >= 1 (sizes grow by this factor)');
  // nccl-tests' -f 1 steps by -i (stepbytes), which perf does not take: here it gave the -b row alone, -e ignored.
  if (factor === 1 && maxBytes > minBytes) throw new InputError('stepfactor', factor, `a number > 1 when -e (${maxBytes}) exceeds -b (${minBytes}); 1 only with -b equal to -e`);
  const sizes: number[] = [];
  for (let s = minBytes; s <= maxBytes; s = factor === 1 ? maxBytes + 1 : Math.max(s + 1, Math.floor(s * factor))) {
    sizes.push(s);
    if (sizes.length > MAX_PERF_ROWS) throw new InputError('stepfactor', factor, `a factor giving at most ${MAX_PERF_ROWS} sizes from ${minBytes} to ${maxBytes}`);
    if (s === 0) s = 1 / factor; // 0 × factor stays 0: go on from 1
  }
  return sizes.map(Math.floor);
}

/** Meshwork's --size for nccl-tests' size S: the whole buffer, or one block of S/n; both whole floats. */
function meshworkSize(collective: CollectiveKind, S: number, n: number): number {
  if (!BLOCKED.has(collective)) return Math.floor(S / FLOAT_BYTES) * FLOAT_BYTES;
  const perRank = Math.floor(S / FLOAT_BYTES / n) * FLOAT_BYTES;
  return collective === 'reduce-scatter' ? perRank * n : perRank;
}

export function perfSweep(req: PerfRequest): PerfRow[] {
  requireRecord(req, 'perf', 'a PerfRequest object ({ topology, collective, algorithm, minBytes, maxBytes, factor, ... })');
  const sizes = perfSizes(req.minBytes, req.maxBytes, req.factor);
  const n = req.topology.numEndpoints;
  // The largest size is the one a limit refuses: named as the option that set it, before any row runs.
  try {
    checkSizeFits(req.collective, meshworkSize(req.collective, sizes[sizes.length - 1], n), n, 'float32');
  } catch (err) {
    if (err instanceof InputError) throw new InputError('maxbytes', req.maxBytes, `nccl-tests sizes this collective runs at: ${err.accepted}`);
    throw err;
  }
  const rows: PerfRow[] = [];
  sizes.forEach((S, i) => {
    const size = meshworkSize(req.collective, S, n);
    const r = simulateCollective({ topology: req.topology, collective: req.collective, algorithm: req.algorithm, size, dtype: 'float32', op: 'sum' }, { model: req.model });
    const reported = ncclTestsSize(req.collective, size, n);
    const bw = ncclTestsBandwidth(req.collective, size, n, r.makespan_s);
    const row: PerfRow = {
      size_bytes: reported,
      count: reported / FLOAT_BYTES,
      type: 'float',
      redop: 'sum',
      root: -1,
      time_s: r.makespan_s,
      algbw_Bps: bw?.algbw_Bps ?? 0,
      busbw_Bps: bw?.busbw_Bps ?? 0,
      algorithm: String(r.workload?.algorithm_spec ?? req.algorithm),
    };
    rows.push(row);
    req.onRow?.(row, i, sizes.length);
  });
  return rows;
}

/** The rows as nccl-tests prints them (out-of-place and in-place columns: the same schedule, #wrong N/A: not checked at these sizes). */
export function formatPerfTable(rows: readonly PerfRow[], title: string): string {
  const pad = (s: string | number, w: number): string => String(s).padStart(w);
  const t = (x: number): string => (x * 1e6 >= 10000 ? (x * 1e6).toFixed(0) : (x * 1e6).toFixed(2));
  const gb = (x: number): string => (x / 1e9).toFixed(2);
  const lines = [
    `# ${title}`,
    '#                                                              out-of-place                       in-place          ',
    '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong',
    '#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ',
  ];
  for (const r of rows) {
    const cols = `${pad(t(r.time_s), 8)} ${pad(gb(r.algbw_Bps), 7)} ${pad(gb(r.busbw_Bps), 7)} ${pad('N/A', 6)}`;
    lines.push(`${pad(r.size_bytes, 12)}  ${pad(r.count, 12)}  ${pad(r.type, 8)}  ${pad(r.redop, 6)}  ${pad(r.root, 6)}  ${cols}  ${cols}`);
  }
  const inRange = rows.filter((r) => r.busbw_Bps > 0);
  const avg = inRange.length > 0 ? inRange.reduce((a, r) => a + r.busbw_Bps, 0) / inRange.length : 0;
  lines.push(`# Avg bus bandwidth    : ${gb(avg)} `, '#');
  return lines.join('\n');
}

/** One row of a measured nccl-tests / rccl-tests table. */
export interface MeasuredRow {
  readonly size_bytes: number;
  readonly time_s: number;
  readonly busbw_Bps: number;
}

/**
 * Reads a measured table: a CSV with a header naming `size_B` (or `size`), `oop_time_us` (or
 * `time_us`) and `oop_busbw_GBps` (or `busbw_GBps`), as in test/reference/hardware/; or the text
 * all_reduce_perf prints, pasted whole: its rows (size, count, type, redop, root, then out-of-place
 * time, algbw, busbw, #wrong) are read and every other line is skipped, `#` lines and the lines the
 * run prints around the table without a `#` (NCCL's `NCCL version 2.x+cuda…` banner under
 * NCCL_DEBUG=VERSION/WARN, rccl-tests' `rccl-tests: Version …`, `RCCL version : …`, `HIP version`,
 * `Hostname`, MPI and UCX warnings, NCCL INFO lines). A launcher's per-line prefix (srun --label
 * `0: `, mpirun --tag-output `[1,0]<stdout>:`, a container log's ISO timestamp) is taken off first.
 * A table with no row, or a row whose numbers do not read, is refused in one line.
 */
export function parseMeasuredTable(text: string, field = 'measured'): MeasuredRow[] {
  const lines = requireText(text, field, 'a measured table').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length === 0) throw new InputError(field, 'an empty table', 'a CSV with size_B, oop_time_us, oop_busbw_GBps columns, or all_reduce_perf output');
  const rows: MeasuredRow[] = [];
  // A CSV's header comes first; a pasted all_reduce_perf output may open with lines that hold commas (warnings), so it is a CSV only without a table row.
  if (lines[0].includes(',') && /[a-z]/i.test(lines[0]) && !lines.some((l) => TABLE_ROW.test(withoutLauncherPrefix(l)))) {
    const cols = lines[0].split(',').map((c) => c.trim());
    const at = (...names: string[]): number => names.map((n) => cols.indexOf(n)).find((i) => i >= 0) ?? -1;
    const [s, t, bw] = [at('size_B', 'size'), at('oop_time_us', 'time_us'), at('oop_busbw_GBps', 'busbw_GBps')];
    if (s < 0 || t < 0 || bw < 0) throw new InputError(field, cols.join(','), 'a header with size_B, oop_time_us (or time_us) and oop_busbw_GBps (or busbw_GBps)');
    for (const line of lines.slice(1)) {
      const v = line.split(',');
      rows.push(measuredRow(Number(v[s]), Number(v[t]), Number(v[bw]), line, field));
    }
  } else {
    for (const raw of lines) {
      const line = withoutLauncherPrefix(raw);
      if (!TABLE_ROW.test(line)) continue;
      const v = line.split(/\s+/);
      // all_reduce_perf: size count type redop root time algbw busbw #wrong, then the in-place four (root present
      // since nccl-tests 2.10: 13 fields, 9 without the in-place columns; before it 12 or 8).
      const timeAt = v.length === 13 || v.length === 9 || v.length > 13 ? 5 : 4;
      rows.push(measuredRow(Number(v[0]), Number(v[timeAt]), Number(v[timeAt + 2]), line, field));
    }
  }
  if (rows.length === 0) throw new InputError(field, 'a header and no rows', 'a table with at least one measured row');
  return rows;
}

/** A row of an nccl-tests / rccl-tests table: size and element count (integers), then the data type's name. */
const TABLE_ROW = /^\d+\s+\d+\s+[a-z_][a-z0-9_]*\s+\S+\s+\S+/i;

/** A line with the prefix a launcher or log collector puts before a program's output taken off: srun --label (`12: `), mpirun --tag-output (`[1,0]<stdout>:`), a Kubernetes log's ISO timestamp. */
function withoutLauncherPrefix(line: string): string {
  return line
    .replace(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z?\s+/, '')
    .replace(/^\[\d+,\d+\]<std(?:out|err)>:\s*/, '')
    .replace(/^\d+:\s+/, '')
    .trim();
}

const REDUCING = new Set<CollectiveKind>(['allreduce', 'reduce', 'reduce-scatter']);

/**
 * What an nccl-tests table says of the run it measured, checked against the one Meshwork times: the
 * rank count (its `# Using devices` lines, `#  Rank  N Group ...`, one per rank) and whether the
 * collective reduces (its `redop` column: `none` for allgather, alltoall, broadcast, ...). A CSV
 * carries neither and passes. A table of another machine size or collective would otherwise be
 * compared row by row without a word.
 */
export function checkMeasuredTable(text: string, collective: CollectiveKind, ranks: number, field = 'measured'): void {
  const seen = new Set<number>();
  let redop: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = withoutLauncherPrefix(raw.trim());
    // nccl-tests: `#  Rank  0 Group  0 Pid ...`; rccl-tests builds without the group column: `#   Rank  0 Pid ...`.
    const rank = /^#\s*Rank\s+(\d+)\s+(?:Group|Pid)\b/.exec(line);
    if (rank) seen.add(Number(rank[1]));
    else if (redop === undefined && TABLE_ROW.test(line) && !line.includes(',')) redop = line.split(/\s+/)[3];
  }
  if (seen.size > 0 && seen.size !== ranks) {
    throw new InputError(field, `a table measured on ${seen.size} ranks (its # Rank lines)`, `a table measured on the topology's ${ranks} ranks (or a topology of ${seen.size} endpoints)`);
  }
  if (redop !== undefined && (redop === 'none') === REDUCING.has(collective)) {
    const kind = redop === 'none' ? 'a collective that does not reduce (redop none: all_gather_perf, alltoall_perf, broadcast_perf...)' : `a reduction (redop ${redop})`;
    throw new InputError(field, `a table of ${kind}`, `a table of ${collective} (--collective names what the table measured)`);
  }
}

function measuredRow(size: number, timeUs: number, busbwGBps: number, line: string, field: string): MeasuredRow {
  if (!(Number.isSafeInteger(size) && size >= 0 && timeUs > 0 && busbwGBps >= 0)) throw new InputError(field, line, 'rows of size (bytes), time (µs) > 0 and busbw (GB/s)');
  return { size_bytes: size, time_s: timeUs * 1e-6, busbw_Bps: busbwGBps * 1e9 };
}

/** Row by row: Meshwork / measured − 1, and the geometric-mean errors below 1 MiB and from 1 MiB on. */
export interface MeasuredComparison {
  readonly rows: ReadonlyArray<{ readonly measured: MeasuredRow; readonly meshwork: PerfRow; readonly error: number; readonly anchor: boolean }>;
  /** exp(mean |ln(Meshwork / measured)|) − 1 over the rows below 1 MiB, and from 1 MiB; null with no such rows. */
  readonly geomeanBelow1MiB: number | null;
  readonly geomeanFrom1MiB: number | null;
  /** The same over the held-out rows only: every row but the anchors a preset parameter was solved from. */
  readonly heldOutBelow1MiB: number | null;
  readonly heldOutFrom1MiB: number | null;
}

export function geomeanError(ratios: readonly number[]): number | null {
  if (ratios.length === 0) return null;
  return Math.exp(ratios.reduce((a, r) => a + Math.abs(Math.log(r)), 0) / ratios.length) - 1;
}

/**
 * Times the collective at each measured size (nccl-tests' sizes) and sets the two side by side.
 * `anchors`: the sizes whose rows calibrated a parameter of the machine preset (its `anchors`),
 * left out of the held-out figures.
 */
export function compareWithMeasured(req: Omit<PerfRequest, 'minBytes' | 'maxBytes' | 'factor'>, measured: readonly MeasuredRow[], anchors: ReadonlySet<number> = new Set()): MeasuredComparison {
  const rows = measured.map((m) => {
    const [meshwork] = perfSweep({ ...req, minBytes: m.size_bytes, maxBytes: m.size_bytes, factor: 1 });
    return { measured: m, meshwork, error: meshwork.time_s / m.time_s - 1, anchor: anchors.has(m.size_bytes) };
  });
  const geomean = (keep: (size: number) => boolean, heldOut: boolean): number | null =>
    geomeanError(rows.filter((r) => keep(r.measured.size_bytes) && !(heldOut && r.anchor)).map((r) => r.meshwork.time_s / r.measured.time_s));
  const small = (s: number): boolean => s < 2 ** 20;
  const large = (s: number): boolean => s >= 2 ** 20;
  return {
    rows,
    geomeanBelow1MiB: geomean(small, false),
    geomeanFrom1MiB: geomean(large, false),
    heldOutBelow1MiB: geomean(small, true),
    heldOutFrom1MiB: geomean(large, true),
  };
}
