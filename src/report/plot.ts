/**
 * Plots as data: each helper returns a `Plot` holding a Vega-Lite specification with its data
 * inlined, and `renderPlotSvg` turns it into SVG with Vega's headless renderer (no browser, no
 * canvas, no Node-only module, so this runs anywhere). Plots carry their data, so results.json can
 * record exactly what was drawn.
 *
 * Every plot mirrors a figure of a seed document: `figure` names it, and the title shows it.
 * Axis titles carry units; every plot has a legend (a single-series plot still gets one, so a
 * reader always knows what a mark is).
 */
import type { TopLevelSpec } from 'vega-lite';
import { maxOf, minOf } from '../util/arrays.js';
import { importOptional } from '../util/optional.js';

export interface Plot {
  /** File-name-safe id, unique within a seed (e.g. "004-diameter"). */
  readonly id: string;
  readonly title: string;
  /** The seed figure or table this plot mirrors, e.g. "004 Fig. 7". */
  readonly figure: string;
  /** One sentence under the plot: what to read from it. */
  readonly caption?: string;
  readonly spec: TopLevelSpec;
}

export interface SeriesPoint {
  readonly series: string;
  readonly x: number;
  readonly y: number;
}

export interface AxisOptions {
  /** Axis title including its unit, e.g. "message size (bytes)". */
  readonly title: string;
  readonly log?: boolean;
  /** Force zero into a linear axis (default: Vega-Lite's choice). */
  readonly zero?: boolean;
}

export interface SeriesPlotOptions {
  readonly id: string;
  readonly title: string;
  readonly figure: string;
  readonly caption?: string;
  readonly x: AxisOptions;
  readonly y: AxisOptions;
  /** Legend title, e.g. "algorithm". */
  readonly legend: string;
  readonly points: readonly SeriesPoint[];
  /** Series drawn dashed (e.g. formulas overlaid on measurements). */
  readonly dashed?: readonly string[];
  /**
   * How a line joins its points: by x (default), or in the order given (a load sweep drawn as
   * delivered against latency, whose x can fall again after saturation, must not zig-zag).
   */
  readonly connect?: 'x' | 'input';
  /** Reference lines: a document's threshold or a found crossover, drawn dashed grey and labelled. */
  readonly marks?: readonly ReferenceMark[];
  /** Lines under the title (a standalone SVG has no caption): each a short sentence. */
  readonly notes?: readonly string[];
  readonly width?: number;
  readonly height?: number;
}

export interface ReferenceMark {
  /** 'x': a vertical line at x = value; 'y': a horizontal line at y = value. */
  readonly axis: 'x' | 'y';
  readonly value: number;
  /** What the line is, e.g. "document threshold 80 kbit" or "crossover 2.3 KiB". */
  readonly label: string;
}

const WIDTH = 420;
const HEIGHT = 260;

/**
 * Fonts for every text mark: Latin first, then Japanese faces for seed 001's figure names (図3, ...);
 * fonts-ipafont-gothic in .ci/apt-packages provides IPAGothic where no CJK face is installed.
 */
export const PLOT_FONT = '"DejaVu Sans", "Helvetica Neue", Arial, "IPAGothic", "IPAexGothic", "Noto Sans CJK JP", "Noto Sans JP", sans-serif';

/** Colours that stay distinct: Tableau 10 up to ten series, Tableau 20 beyond. */
function colourScheme(series: number): string {
  return series <= 10 ? 'tableau10' : 'tableau20';
}

/** Legends are never truncated: no label or title limit. */
const LEGEND = { orient: 'right', labelLimit: 0, titleLimit: 0 } as const;

const CONFIG = { font: PLOT_FONT, title: { subtitleFontSize: 11, limit: 0 } } as const;

function fullTitle(title: string, figure: string): { text: string; subtitle: string } {
  return { text: title, subtitle: `mirrors ${figure}` };
}

/** The title with extra subtitle lines: notes in the title itself made the SVG 1134 px wide (issue 28 item 19). */
function titleWithNotes(title: string, figure: string, notes: readonly string[]): { text: string; subtitle: string | string[] } {
  const t = fullTitle(title, figure);
  return notes.length === 0 ? t : { ...t, subtitle: [t.subtitle, ...notes] };
}

/**
 * An axis that fits the data: log or linear, zero only when asked for (bars ask), nice round ends.
 * A linear axis of whole numbers (ranks, steps, n) gets whole-number ticks: Vega's default put
 * ticks at halves and labelled them "2.0 … 9.0".
 */
function axis(opts: AxisOptions, zeroByDefault = false, values: readonly number[] = []): Record<string, unknown> {
  const scale: Record<string, unknown> = { nice: true };
  if (opts.log) scale.type = 'log';
  else scale.zero = opts.zero ?? zeroByDefault;
  const whole = !opts.log && values.length > 0 && values.every((v) => Number.isInteger(v));
  return { title: opts.title, scale, ...(whole ? { axis: { format: 'd', tickMinStep: 1 } } : {}) };
}

function checkFinite(points: readonly SeriesPoint[], id: string, logX?: boolean, logY?: boolean): void {
  for (const p of points) {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) throw new Error(`plot ${id}: non-finite point ${JSON.stringify(p)}`);
    if ((logX && p.x <= 0) || (logY && p.y <= 0)) throw new Error(`plot ${id}: non-positive value on a log axis ${JSON.stringify(p)}`);
  }
}

/** Series order as first seen, so colours and legend order are stable and follow the caller. */
function seriesOrder(points: readonly { series: string }[]): string[] {
  return [...new Set(points.map((p) => p.series))];
}

/** Approximate width of a 10 px label (DejaVu Sans averages 6 px a character). */
const LABEL_CHAR_PX = 6.2;
/** Thickness of a vertical label and the gap to the next one. */
const LABEL_THICKNESS_PX = 12;

/**
 * Where each x mark's vertical label goes: the side of its rule and the pixel row it starts at, the
 * first slot whose box is clear of the labels placed before it (marks in x order). Pixel positions
 * are estimated from the data's extent on the axis's scale (linear or log), which is enough to tell
 * close marks apart.
 */
function xMarkSlots(marks: ReadonlyArray<{ value: number; label: string }>, xs: readonly number[], log: boolean, width: number, height: number): Array<{ side: 'left' | 'right'; top: number } | undefined> {
  const f = (v: number): number => (log ? Math.log10(v) : v);
  const all = [...xs, ...marks.map((m) => m.value)].map(f);
  const lo = minOf(all);
  const span = maxOf(all) - lo || 1;
  const px = (v: number): number => ((f(v) - lo) / span) * width;
  const boxes: Array<{ x0: number; x1: number; y0: number; y1: number }> = [];
  const order = marks.map((_, i) => i).sort((a, b) => marks[a].value - marks[b].value);
  const result = new Array<{ side: 'left' | 'right'; top: number } | undefined>(marks.length);
  for (const i of order) {
    const x = px(marks[i].value);
    const length = marks[i].label.length * LABEL_CHAR_PX + 4;
    // From the top, or from below the longest label placed so far when that still fits the plot.
    const lower = boxes.reduce((m, b) => Math.max(m, b.y1 + 4), 0);
    const tops = lower + length <= height ? [0, lower] : [0];
    const candidates = tops.flatMap((top) => (['left', 'right'] as const).map((side) => ({ side, top })));
    const fits = (c: { side: 'left' | 'right'; top: number }): { x0: number; x1: number; y0: number; y1: number } | undefined => {
      const b = { x0: c.side === 'left' ? x - LABEL_THICKNESS_PX : x, x1: c.side === 'left' ? x : x + LABEL_THICKNESS_PX, y0: c.top, y1: c.top + length };
      // A label longer than the plot is tall would run into the axis below.
      if (b.y1 > height) return undefined;
      return boxes.some((o) => o.x0 < b.x1 && b.x0 < o.x1 && o.y0 < b.y1 && b.y0 < o.y1) ? undefined : b;
    };
    // No free slot: the rule stays, its label goes under the title (seriesPlot), never over another.
    const chosen = candidates.find((c) => fits(c));
    if (chosen) boxes.push(fits(chosen)!);
    result[i] = chosen;
  }
  return result;
}

function seriesPlot(opts: SeriesPlotOptions, mark: Record<string, unknown>): Plot {
  checkFinite(opts.points, opts.id, opts.x.log, opts.y.log);
  for (const m of opts.marks ?? []) {
    if (!Number.isFinite(m.value) || ((m.axis === 'x' ? opts.x.log : opts.y.log) && m.value <= 0)) throw new Error(`plot ${opts.id}: bad reference mark ${JSON.stringify(m)}`);
  }
  const order = seriesOrder(opts.points);
  const dashed = new Set(opts.dashed ?? []);
  const encoding: Record<string, unknown> = {
    x: { field: 'x', type: 'quantitative', ...axis(opts.x, false, opts.points.map((p) => p.x)) },
    y: { field: 'y', type: 'quantitative', ...axis(opts.y, false, opts.points.map((p) => p.y)) },
    color: { field: 'series', type: 'nominal', title: opts.legend, sort: order, scale: { scheme: colourScheme(order.length) }, legend: LEGEND },
  };
  if (opts.connect === 'input') encoding.order = { field: 'i', type: 'quantitative' };
  if (dashed.size > 0) {
    encoding.strokeDash = {
      field: 'series',
      type: 'nominal',
      sort: order,
      scale: { domain: order, range: order.map((s) => (dashed.has(s) ? [5, 3] : [1, 0])) },
      // Same title and options as the colour legend, so Vega-Lite merges them into one legend.
      title: opts.legend,
      legend: LEGEND,
    };
  }
  const data = { values: opts.points.map((p, i) => ({ series: p.series, x: p.x, y: p.y, i })) };
  const marks = opts.marks ?? [];
  const layers: unknown[] = [{ data, mark, encoding }];
  /** Labels of x marks too close to others to stand beside their rules: listed under the title. */
  const crowded: string[] = [];
  if (marks.length > 0) {
    // Reference lines share the plot's scales; grey and dashed, labelled at their end, outside the legend.
    const values = marks.map((m) => ({ axis: m.axis, value: m.value, label: m.label }));
    for (const ax of ['x', 'y'] as const) {
      const these = values.filter((m) => m.axis === ax);
      if (these.length === 0) continue;
      layers.push({ data: { values: these }, mark: { type: 'rule', strokeDash: [6, 4], color: '#555', clip: true }, encoding: { [ax]: { field: 'value', type: 'quantitative' } } });
      if (ax === 'y') {
        layers.push({
          data: { values: these },
          mark: { type: 'text', align: 'right', baseline: 'bottom', dy: -2, color: '#333', fontSize: 10, x: 'width' },
          encoding: { y: { field: 'value', type: 'quantitative' }, text: { field: 'label' } },
        });
        continue;
      }
      // Vertical labels of close x marks (crossovers at 2.3 and 2.4 kbit) were drawn over each other
      // (issue 28 item 19): each goes to the first free slot, left or right of its rule, from the top
      // or from mid-height.
      const slots = xMarkSlots(these, opts.points.map((p) => p.x), opts.x.log === true, opts.width ?? WIDTH, opts.height ?? HEIGHT);
      these.forEach((m, i) => {
        if (!slots[i]) crowded.push(m.label);
      });
      for (const side of ['left', 'right'] as const) {
        const placed = these.map((m, i) => ({ ...m, top: slots[i]?.top ?? 0 })).filter((_, i) => slots[i]?.side === side);
        if (placed.length === 0) continue;
        layers.push({
          data: { values: placed },
          mark: { type: 'text', angle: 270, align: 'right', baseline: side === 'left' ? 'bottom' : 'top', dx: -4, dy: side === 'left' ? -2 : 2, color: '#333', fontSize: 10 },
          encoding: { x: { field: 'value', type: 'quantitative' }, y: { field: 'top', type: 'quantitative', scale: null }, text: { field: 'label' } },
        });
      }
    }
  }
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: titleWithNotes(opts.title, opts.figure, [...(opts.notes ?? []), ...(crowded.length === 0 ? [] : [`dashed rules also at: ${crowded.join('; ')}`])]),
    config: CONFIG,
    width: opts.width ?? WIDTH,
    height: opts.height ?? HEIGHT,
    ...(layers.length === 1 ? { data, mark, encoding } : { layer: layers }),
  } as unknown as TopLevelSpec;
  return { id: opts.id, title: opts.title, figure: opts.figure, caption: opts.caption, spec };
}

/** Lines with a point at each measurement; x ascending within each series. */
export function linePlot(opts: SeriesPlotOptions): Plot {
  return seriesPlot(opts, { type: 'line', point: true, clip: true });
}

/** Points only (e.g. Figs. 7–11 of seed 004: packets delivered against latency). */
export function scatterPlot(opts: SeriesPlotOptions): Plot {
  return seriesPlot(opts, { type: 'point', filled: true, size: 50, clip: true });
}

export interface BarDatum {
  /** Category on the x axis (e.g. the algorithm). */
  readonly group: string;
  /** Bar within the group, shown in the legend (e.g. the topology). */
  readonly series: string;
  readonly value: number;
}

export interface GroupedBarOptions {
  readonly id: string;
  readonly title: string;
  readonly figure: string;
  readonly caption?: string;
  readonly groupTitle: string;
  readonly y: AxisOptions;
  readonly legend: string;
  readonly bars: readonly BarDatum[];
  /** Horizontal reference lines (e.g. the lower bound under a compare chart), grey and dashed. */
  readonly marks?: readonly ReferenceMark[];
  /**
   * 'bar' (default) or 'dot': a point at each value, side by side like the bars. Counts spanning
   * orders of magnitude want a log axis, where a bar's length measures nothing (it starts at an
   * arbitrary power of ten); a dot's position is all it claims.
   */
  readonly shape?: 'bar' | 'dot';
}

function logBaseline(values: readonly number[]): number {
  return 10 ** Math.floor(Math.log10(minOf(values, 1)));
}

export function groupedBarPlot(opts: GroupedBarOptions): Plot {
  for (const b of opts.bars) {
    if (!Number.isFinite(b.value)) throw new Error(`plot ${opts.id}: non-finite bar ${JSON.stringify(b)}`);
    if (opts.y.log && !(b.value > 0)) throw new Error(`plot ${opts.id}: non-positive bar on a log axis ${JSON.stringify(b)}`);
  }
  const groups = seriesOrder(opts.bars.map((b) => ({ series: b.group })));
  const series = seriesOrder(opts.bars);
  const rules = (opts.marks ?? []).filter((m) => m.axis === 'y');
  for (const m of rules) {
    if (!Number.isFinite(m.value) || (opts.y.log && m.value <= 0)) throw new Error(`plot ${opts.id}: bad reference mark ${JSON.stringify(m)}`);
  }
  const dots = opts.shape === 'dot';
  const bars = {
    data: { values: opts.bars.map((b) => ({ group: b.group, series: b.series, value: b.value })) },
    mark: dots ? { type: 'point', filled: true, size: 70, opacity: 1 } : 'bar',
    encoding: {
      x: { field: 'group', type: 'nominal', title: opts.groupTitle, sort: groups, axis: { labelAngle: -30, labelLimit: 0 } },
      xOffset: { field: 'series', type: 'nominal', sort: series },
      y: { field: 'value', type: 'quantitative', ...axis(opts.y, !dots), ...(opts.y.log ? { stack: null } : {}) },
      // Bars on a log axis cannot start at 0 (log 0 = −∞: zero-height bars); they start at the power of ten below the smallest.
      ...(opts.y.log && !dots ? { y2: { datum: logBaseline(opts.bars.map((b) => b.value)) } } : {}),
      color: { field: 'series', type: 'nominal', title: opts.legend, sort: series, scale: { scheme: colourScheme(series.length) }, legend: LEGEND },
    },
  };
  const values = rules.map((m) => ({ value: m.value, label: m.label }));
  const layers = [
    bars,
    { data: { values }, mark: { type: 'rule', strokeDash: [6, 4], color: '#555' }, encoding: { y: { field: 'value', type: 'quantitative' } } },
    { data: { values }, mark: { type: 'text', align: 'right', baseline: 'bottom', dy: -2, color: '#333', fontSize: 10, x: 'width' }, encoding: { y: { field: 'value', type: 'quantitative' }, text: { field: 'label' } } },
  ];
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: fullTitle(opts.title, opts.figure),
    config: CONFIG,
    width: { step: Math.max(12, Math.floor(60 / Math.max(1, series.length))) * series.length + 10 },
    height: HEIGHT,
    ...(values.length === 0 ? bars : { layer: layers }),
  } as unknown as TopLevelSpec;
  return { id: opts.id, title: opts.title, figure: opts.figure, caption: opts.caption, spec };
}

export interface HeatmapOptions {
  readonly id: string;
  readonly title: string;
  readonly figure: string;
  readonly caption?: string;
  /** Rows (e.g. links), top to bottom. */
  readonly rowTitle: string;
  readonly rows: readonly string[];
  /** Column axis title with unit, e.g. "time (us)"; columns are bins starting at these values. */
  readonly columnTitle: string;
  readonly columns: readonly number[];
  /** values[row][column]. */
  readonly values: ReadonlyArray<ArrayLike<number>>;
  /** Colour legend title with unit, e.g. "utilisation (fraction of link bandwidth)". */
  readonly legend: string;
  /** Colour domain; defaults to [0, 1] (utilisation). */
  readonly domain?: readonly [number, number];
}

/** Rows × time-bin heatmap, e.g. link utilisation over time. */
export function heatmapPlot(opts: HeatmapOptions): Plot {
  const values: { row: string; col: number; v: number }[] = [];
  for (let r = 0; r < opts.rows.length; r++) {
    const row = opts.values[r];
    if (!row || row.length !== opts.columns.length) throw new Error(`plot ${opts.id}: row ${r} has the wrong length`);
    for (let c = 0; c < opts.columns.length; c++) {
      if (!Number.isFinite(row[c])) throw new Error(`plot ${opts.id}: non-finite cell at ${r},${c}`);
      values.push({ row: opts.rows[r], col: opts.columns[c], v: row[c] });
    }
  }
  const domain = opts.domain ?? [0, 1];
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: fullTitle(opts.title, opts.figure),
    config: CONFIG,
    width: WIDTH,
    height: Math.min(420, Math.max(120, opts.rows.length * 6)),
    data: { values },
    mark: 'rect',
    encoding: {
      x: { field: 'col', type: 'ordinal', title: opts.columnTitle, axis: { labelOverlap: true, format: '.3~s' } },
      y: { field: 'row', type: 'ordinal', title: opts.rowTitle, sort: [...opts.rows], axis: opts.rows.length > 40 ? { labels: false, ticks: false } : {} },
      color: { field: 'v', type: 'quantitative', title: opts.legend, scale: { domain: [...domain], scheme: 'viridis' }, legend: LEGEND },
    },
  } as unknown as TopLevelSpec;
  return { id: opts.id, title: opts.title, figure: opts.figure, caption: opts.caption, spec };
}

/**
 * What happens to a Vega or Vega-Lite warning ("Log scale domain includes zero", ...). A warning
 * usually means a blank or wrong plot (issue 16, item 6: eight zero-height bars on a log axis), so
 * the test suite makes it an error (MESHWORK_STRICT_PLOTS=1, vitest.config.ts); the CLI stays
 * quiet so stderr keeps to one line.
 */
const strict = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.MESHWORK_STRICT_PLOTS === '1';
let plotWarning: (message: string) => void = strict
  ? (message) => {
      throw new Error(message);
    }
  : () => {};

export function setPlotWarningHandler(handler: (message: string) => void): void {
  plotWarning = handler;
}

function plotLogger(id: string): never {
  const logger = {
    level(): number {
      return 2; // vega.Warn: warnings reach warn() below, info and debug do not
    },
    error(...args: readonly unknown[]): never {
      throw new Error(`plot ${id}: ${args.map(String).join(' ')}`);
    },
    warn(...args: readonly unknown[]) {
      plotWarning(`plot ${id}: ${args.map(String).join(' ')}`);
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  return logger as never;
}

/**
 * Renders a plot to a standalone SVG string with Vega's headless ("none") renderer. The output is
 * deterministic: the same plot gives byte-identical SVG.
 */
export async function renderPlotSvg(plot: Plot): Promise<string> {
  // Vega and Vega-Lite cost about half a second of start-up: load them only when a plot is drawn.
  // Named through variables, so a browser bundle of the core (esbuild, Vite) leaves these optional
  // packages out rather than failing to resolve them; Node resolves them at run time as before.
  const [vegaName, vegaLiteName] = ['vega', 'vega-lite'];
  const [vega, vegaLite] = await importOptional(
    () => Promise.all([import(/* @vite-ignore */ vegaName) as Promise<typeof import('vega')>, import(/* @vite-ignore */ vegaLiteName) as Promise<typeof import('vega-lite')>]),
    ['vega', 'vega-lite'],
    'drawing plots',
  );
  const compiled = vegaLite.compile(plot.spec, { logger: plotLogger(plot.id) }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logger: plotLogger(plot.id) });
  try {
    return scopeSvgIds(await view.toSVG(), plot.id);
  } finally {
    view.finalize();
  }
}

/**
 * Vega numbers clip paths and gradients from a process-wide counter (clip1, clip2, ...), so the ids
 * depend on what was rendered before, and several SVGs inlined in one page would collide. Renaming
 * them after the plot, in order of appearance, makes the SVG deterministic and safe to inline.
 */
export function scopeSvgIds(svg: string, scope: string): string {
  const safe = scope.replace(/[^A-Za-z0-9_-]/g, '_');
  const names = new Map<string, string>();
  for (const m of svg.matchAll(/\sid="([^"]+)"/g)) {
    if (!names.has(m[1])) names.set(m[1], `${safe}-${names.size + 1}`);
  }
  if (names.size === 0) return svg;
  return svg
    .replace(/(\sid=")([^"]+)(")/g, (all, a: string, id: string, b: string) => (names.has(id) ? `${a}${names.get(id)}${b}` : all))
    .replace(/url\(#([^)]+)\)/g, (all, id: string) => (names.has(id) ? `url(#${names.get(id)})` : all))
    .replace(/(href=")#([^"]+)(")/g, (all, a: string, id: string, b: string) => (names.has(id) ? `${a}#${names.get(id)}${b}` : all));
}
