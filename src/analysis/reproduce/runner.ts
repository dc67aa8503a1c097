/**
 * Runs seed reproductions and turns them into the report's files (SVG plots, report.html,
 * results.json) as strings; writing them is the caller's job (the CLI writes atomically).
 */
import { assertClaimComplete, type Claim, countVerdicts, documentClaims, meshworkQuestions, type Verdict, verdictCountsText } from '../../report/checklist.js';
import { renderHtmlReport, type HtmlSection, type RenderedPlot } from '../../report/html.js';
import { renderPlotSvg } from '../../report/plot.js';
import { getSeedModule } from './registry.js';
import { type ReproduceContext, type SeedId, type SeedReproduction, type SeedModule } from './types.js';

export interface SeedRun {
  readonly id: SeedId;
  readonly title: string;
  readonly document: string;
  readonly result: SeedReproduction;
  /** Set when the seed's run threw: a Meshwork bug, reported rather than hidden. */
  readonly error?: string;
}

export interface ReproductionRun {
  readonly quick: boolean;
  readonly seeds: readonly SeedRun[];
}

export interface RunOptions {
  readonly quick: boolean;
  /** Overall progress over all seeds, fraction in [0, 1]. */
  readonly onProgress?: (fraction: number, label: string) => void;
}

/**
 * Relative cost of each seed's run (seconds of one core, measured; docs/reproduce.md "Budget"), so
 * the progress bar advances in proportion to time: seed 004's §5 study dominates the full run.
 */
const SEED_COST: Readonly<Record<SeedId, { readonly quick: number; readonly full: number }>> = {
  '000': { quick: 3, full: 430 },
  '001': { quick: 1, full: 2 },
  '002': { quick: 1, full: 4 },
  '003': { quick: 1, full: 3 },
  '004': { quick: 2, full: 480 },
};

export async function runReproductions(ids: readonly SeedId[], opts: RunOptions): Promise<ReproductionRun> {
  const seeds: SeedRun[] = [];
  const cost = ids.map((id) => (opts.quick ? SEED_COST[id].quick : SEED_COST[id].full));
  const totalCost = cost.reduce((a, b) => a + b, 0);
  let before = 0;
  // A seed's phases estimate their own fractions and may overlap (seed 002 once went 80% → 60%):
  // the reported fraction never falls, whatever a seed reports.
  let reported = 0;
  for (let i = 0; i < ids.length; i++) {
    const mod: SeedModule = getSeedModule(ids[i]);
    const start = before;
    const ctx: ReproduceContext = {
      quick: opts.quick,
      progress: (fraction, label) => {
        reported = Math.max(reported, (start + cost[i] * Math.min(1, Math.max(0, fraction))) / totalCost);
        opts.onProgress?.(reported, `${mod.id} ${label}`);
      },
    };
    ctx.progress(0, mod.title);
    try {
      const result = await mod.run(ctx);
      for (const c of result.claims) assertClaimComplete(c);
      seeds.push({ id: mod.id, title: mod.title, document: mod.document, result });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      seeds.push({
        id: mod.id,
        title: mod.title,
        document: mod.document,
        result: { claims: [], plots: [], tables: [], params: {}, notes: [], unavailable: [`internal error while reproducing: ${message}`], headline: 'internal error' },
        error: message,
      });
    }
    ctx.progress(1, 'done');
    before += cost[i];
  }
  return { quick: opts.quick, seeds };
}

export const RESULTS_FORMAT = 'meshwork-reproduce';
export const RESULTS_VERSION = 1;

export interface ReportFiles {
  /** Relative file name -> content, in a deterministic order. */
  readonly files: ReadonlyArray<readonly [string, string]>;
  readonly html: string;
  readonly resultsJson: string;
}

export interface ReportOptions {
  /** The command that produced the run, recorded in results.json (e.g. "reproduce all --quick"). */
  readonly command: string;
  readonly toolVersion: string;
}

function plotFile(seed: SeedId, plotId: string): string {
  return `plots/${seed}/${plotId.replace(/[^A-Za-z0-9_.-]/g, '_')}.svg`;
}

export function allClaims(run: ReproductionRun): Array<Claim & { seed: SeedId }> {
  return run.seeds.flatMap((s) => s.result.claims.map((c) => ({ ...c, seed: s.id })));
}

/** Totals over the documents' own claims; Meshwork's questions are never counted. */
export function verdictSummary(run: ReproductionRun): Record<Verdict, number> {
  return countVerdicts(documentClaims(allClaims(run)));
}

/** Renders every plot and builds report.html and results.json. Deterministic: no timestamps. */
export async function buildReportFiles(run: ReproductionRun, opts: ReportOptions): Promise<ReportFiles> {
  const files: Array<[string, string]> = [];
  const sections: HtmlSection[] = [];
  const seedsJson: unknown[] = [];
  for (const s of run.seeds) {
    const rendered: RenderedPlot[] = [];
    const seen = new Set<string>();
    for (const plot of s.result.plots) {
      if (seen.has(plot.id)) throw new Error(`seed ${s.id}: duplicate plot id ${plot.id}`);
      seen.add(plot.id);
      const svg = await renderPlotSvg(plot);
      const file = plotFile(s.id, plot.id);
      files.push([file, svg]);
      rendered.push({ plot, svg, file });
    }
    sections.push({
      anchor: `seed-${s.id}`,
      heading: `Seed ${s.id}: ${s.title}`,
      document: s.document,
      status: s.result.unavailable,
      claims: s.result.claims,
      plots: rendered,
      tables: s.result.tables,
      params: s.result.params,
      notes: s.result.notes,
    });
    seedsJson.push({
      id: s.id,
      title: s.title,
      document: s.document,
      ...(s.error ? { error: s.error } : {}),
      unavailable: s.result.unavailable,
      summary: countVerdicts(documentClaims(s.result.claims)),
      meshworkSummary: countVerdicts(meshworkQuestions(s.result.claims)),
      claims: s.result.claims,
      params: s.result.params,
      notes: s.result.notes,
      tables: s.result.tables,
      plots: rendered.map((r) => ({ id: r.plot.id, title: r.plot.title, figure: r.plot.figure, caption: r.plot.caption, file: r.file, vegaLite: r.plot.spec })),
    });
  }
  const summary = verdictSummary(run);
  const html = renderHtmlReport({
    title: 'Meshwork seed reproductions',
    intro:
      'Each claim of the five seed documents, run with Meshwork and checked: what the document says, what Meshwork measured, and a verdict (reproduced, reproduced under a stated reading, not reproduced and why, or not yet available). Plots are SVG files next to this page as well.',
    meta: [
      ['command', `meshwork ${opts.command}`],
      ['mode', run.quick ? 'quick (fewer points per curve, smaller sizes)' : 'full'],
      ['Meshwork version', opts.toolVersion],
      ['the documents\' claims', verdictCountsText(summary)],
      ['Meshwork\'s own questions (not counted)', String(meshworkQuestions(allClaims(run)).length)],
    ],
    sections,
  });
  const resultsJson = `${JSON.stringify(
    {
      format: RESULTS_FORMAT,
      version: RESULTS_VERSION,
      meshwork: opts.toolVersion,
      command: opts.command,
      quick: run.quick,
      summary,
      seeds: seedsJson,
    },
    (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value),
    2,
  )}\n`;
  files.push(['report.html', html], ['results.json', resultsJson]);
  return { files, html, resultsJson };
}
