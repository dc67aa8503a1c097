/**
 * A sweep's points outside DuckDB: the rows `meshwork sweep export --format json|csv` writes (one
 * object per point, the store's columns), checked and turned into plots. Meshwork Studio's Sweeps
 * view reads exports with this (a DuckDB file cannot be read in a browser cheaply), and
 * `meshwork sweep plot` draws its curves with the same `sweepCurvePlot`. Platform-neutral.
 */
import { InputError } from '../util/errors.js';
import { heatmapPlot, linePlot, type Plot, type SeriesPoint } from '../report/plot.js';
import { maxOf, minOf } from '../util/arrays.js';

export type SweepRow = Readonly<Record<string, unknown>>;

/** Columns that hold whole documents or ids, never an axis. */
const NOT_AXES = new Set(['key', 'params', 'result', 'error']);

/** Checks parsed export rows: a list of objects with the store's `key` and `status` columns. */
export function checkSweepRows(rows: unknown, name: string, field = 'sweep'): SweepRow[] {
  const accepted = 'a sweep export (meshwork sweep export --format json, csv or parquet): a list of points with key and status columns';
  if (!Array.isArray(rows)) throw new InputError(field, name, accepted);
  if (rows.length === 0) throw new InputError(field, name, `${accepted}, at least one`);
  rows.forEach((row: unknown, i) => {
    if (row === null || typeof row !== 'object' || !('key' in row) || !('status' in row)) throw new InputError(`${field}[${i}]`, JSON.stringify(row)?.slice(0, 60), accepted);
  });
  return rows as SweepRow[];
}

const numberOf = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

const okRows = (rows: readonly SweepRow[]): SweepRow[] => rows.filter((r) => r.status === 'ok');

/** The columns a plot can use: every column, and those with a number in at least one finished point. */
export function sweepColumns(rows: readonly SweepRow[]): { all: string[]; numeric: string[] } {
  const all = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => !NOT_AXES.has(c));
  const ok = okRows(rows);
  return { all, numeric: all.filter((c) => ok.some((r) => numberOf(r[c]) !== undefined)) };
}

function checkColumn(rows: readonly SweepRow[], field: string, column: string, numeric: boolean): void {
  const columns = sweepColumns(rows);
  const allowed = numeric ? columns.numeric : columns.all;
  if (!allowed.includes(column)) throw new InputError(field, column, `a${numeric ? ' numeric' : ''} column of the sweep: ${allowed.join(', ')}`);
}

/** Finished points with numbers in x and y, one series per value of `color`, sorted by series then x. */
export function sweepCurvePoints(rows: readonly SweepRow[], x: string, y: string, color?: string): SeriesPoint[] {
  checkColumn(rows, 'x', x, true);
  checkColumn(rows, 'y', y, true);
  if (color !== undefined) checkColumn(rows, 'color', color, false);
  const points: SeriesPoint[] = [];
  for (const r of okRows(rows)) {
    const px = numberOf(r[x]);
    const py = numberOf(r[y]);
    if (px !== undefined && py !== undefined) points.push({ series: color === undefined ? 'all' : String(r[color]), x: px, y: py });
  }
  return points.sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : a.x - b.x));
}

export interface SweepPlotOptions {
  readonly x: string;
  readonly y: string;
  readonly color?: string;
  readonly logX?: boolean;
  readonly logY?: boolean;
  /** Where the points came from (the store or export file), shown beside the title. */
  readonly source: string;
}

/** y against x, one line per colour: what `meshwork sweep plot` draws. */
export function sweepCurvePlot(points: readonly SeriesPoint[], o: SweepPlotOptions): Plot {
  if (points.length === 0) throw new InputError('x', `${o.x} against ${o.y}`, 'columns x and y both numbers in at least one finished point (a text column such as topology plots as --color)');
  return linePlot({
    id: 'sweep',
    title: `${o.y} against ${o.x}`,
    figure: `meshwork sweep, ${o.source}`,
    x: { title: o.x, log: o.logX },
    y: { title: o.y, log: o.logY },
    legend: o.color ?? 'series',
    points,
  });
}

/**
 * z over the (x, y) grid as a coloured surface: rows are y's values, columns x's, a cell the mean
 * of z over the finished points there. Every cell must have a value (a gap is not drawn as zero).
 */
export function sweepSurfacePlot(rows: readonly SweepRow[], x: string, y: string, z: string, source: string): Plot {
  checkColumn(rows, 'x', x, true);
  checkColumn(rows, 'y', y, false);
  checkColumn(rows, 'z', z, true);
  const cells = new Map<string, { sum: number; n: number }>();
  const xs = new Set<number>();
  const ys = new Set<string>();
  for (const r of okRows(rows)) {
    const px = numberOf(r[x]);
    const pz = numberOf(r[z]);
    if (px === undefined || pz === undefined) continue;
    const py = String(r[y]);
    xs.add(px);
    ys.add(py);
    const cell = cells.get(`${px} ${py}`) ?? { sum: 0, n: 0 };
    cell.sum += pz;
    cell.n++;
    cells.set(`${px} ${py}`, cell);
  }
  const columns = [...xs].sort((a, b) => a - b);
  const rowNames = [...ys].sort();
  const missing = columns.length * rowNames.length - cells.size;
  if (cells.size === 0 || missing > 0) throw new InputError('z', z, `a column with a value at every (${x}, ${y}) of the sweep's grid (${missing} of ${columns.length * rowNames.length} cells empty)`);
  const values = rowNames.map((ry) => columns.map((cx) => {
    const c = cells.get(`${cx} ${ry}`)!;
    return c.sum / c.n;
  }));
  const flat = values.flat();
  return heatmapPlot({
    id: 'sweep-surface',
    title: `${z} over ${x} and ${y}`,
    figure: `meshwork sweep, ${source}`,
    rowTitle: y,
    rows: rowNames,
    columnTitle: x,
    columns,
    values,
    legend: z,
    domain: [minOf(flat), maxOf(flat)],
  });
}
