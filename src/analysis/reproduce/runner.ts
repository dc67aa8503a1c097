/**
 * Runs seed reproductions and turns them into the report's files (SVG plots, report.html,
 * results.json) as strings; writing them is the caller's job (the CLI writes atomically).
 */
import { assertClaimComplete, claimRuleProblem, duplicateSentence, type Claim, countVerdicts, documentClaims, meshworkQuestions, type Verdict, verdictCountsText } from '../../report/checklist.js';
import { renderHtmlReport, type HtmlSection, type RenderedPlot } from '../../report/html.js';
import { renderPlotSvg } from '../../report/plot.js';
import { InputError } from '../../util/errors.js';
import { getSeedModule } from './registry.js';
import { withSentences } from './sentences.js';
import { claimRerunScope, SEED_IDS, type SeedId, type SeedReproduction, type SeedModule } from './types.js';
import { RESULTS_FORMAT, RESULTS_VERSION, resultsJsonText, type ResultsJson } from './results-file.js';

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

/**
 * Runs one seed somewhere else (a worker thread) and hands back its reproduction; `progress` takes
 * that seed's own fraction in [0, 1]. Results must equal an in-process run: each seed is a pure
 * function of (id, quick).
 */
export type SeedExecutor = (id: SeedId, quick: boolean, progress: (fraction: number, label: string) => void) => Promise<SeedReproduction>;

export interface RunOptions {
  readonly quick: boolean;
  /** Overall progress over all seeds, fraction in [0, 1]. */
  readonly onProgress?: (fraction: number, label: string) => void;
  /**
   * Runs the seeds concurrently through this executor (the CLI's `--jobs`: the sweep's worker
   * pool), longest first; without it they run one after another in this thread.
   */
  readonly executeSeed?: SeedExecutor;
}

/**
 * Relative cost of each seed's run (seconds of one core, measured 2026-11-24: 000 271 s, 004 726 s; docs/reproduce.md "Budget"), so
 * the progress bar advances in proportion to time and the pool starts the longest seeds first:
 * seeds 000 and 004 dominate the full run.
 */
const SEED_COST: Readonly<Record<SeedId, { readonly quick: number; readonly full: number }>> = {
  '000': { quick: 3, full: 300 },
  '001': { quick: 1, full: 2 },
  '002': { quick: 1, full: 4 },
  '003': { quick: 1, full: 3 },
  '004': { quick: 2, full: 730 },
};

function failedSeed(mod: SeedModule, err: unknown): SeedRun {
  const message = err instanceof Error ? err.message : String(err);
  return {
    id: mod.id,
    title: mod.title,
    document: mod.document,
    result: { claims: [], plots: [], tables: [], params: {}, notes: [], unavailable: [`internal error while reproducing: ${message}`], headline: 'internal error' },
    error: message,
  };
}

export async function runReproductions(ids: readonly SeedId[], opts: RunOptions): Promise<ReproductionRun> {
  const cost = ids.map((id) => (opts.quick ? SEED_COST[id].quick : SEED_COST[id].full));
  const totalCost = cost.reduce((a, b) => a + b, 0);
  const done = new Float64Array(ids.length);
  const report = (i: number, fraction: number, label: string): void => {
    done[i] = Math.max(done[i], Math.min(1, Math.max(0, fraction)));
    let sum = 0;
    for (let j = 0; j < ids.length; j++) sum += cost[j] * done[j];
    opts.onProgress?.(sum / totalCost, `${ids[i]} ${label}`);
  };
  const runOne = async (i: number): Promise<SeedRun> => {
    const mod: SeedModule = getSeedModule(ids[i]);
    const progress = (fraction: number, label: string): void => report(i, fraction, label);
    progress(0, mod.title);
    try {
      const ran = opts.executeSeed ? await opts.executeSeed(mod.id, opts.quick, progress) : await mod.run({ quick: opts.quick, progress });
      // Rules 1–3 of docs/reproduce.md: every row has a form, a document row its sentence, no sentence twice.
      const result: SeedReproduction = { ...ran, claims: withSentences(ran.claims) };
      for (const c of result.claims) {
        assertClaimComplete(c);
        const problem = claimRuleProblem(c);
        if (problem) throw new Error(`claim ${c.id}: ${problem}`);
      }
      const twice = duplicateSentence(result.claims);
      if (twice) throw new Error(`claims ${twice[0]} and ${twice[1]} quote the same sentence: one sentence, one row`);
      return { id: mod.id, title: mod.title, document: mod.document, result };
    } catch (err) {
      return failedSeed(mod, err);
    } finally {
      progress(1, 'done');
    }
  };
  const seeds: SeedRun[] = new Array<SeedRun>(ids.length);
  if (opts.executeSeed) {
    const longestFirst = ids.map((_, i) => i).sort((a, b) => cost[b] - cost[a] || a - b);
    await Promise.all(longestFirst.map(async (i) => (seeds[i] = await runOne(i))));
  } else {
    for (let i = 0; i < ids.length; i++) seeds[i] = await runOne(i);
  }
  return { quick: opts.quick, seeds };
}

/** A claim re-run on its own: the claim as the re-run gives it, and the study that produced it. */
export interface ClaimRerun {
  readonly claim: Claim;
  readonly seed: SeedId;
  /** The `meshwork` command whose run this is (`reproduce 004 --quick`). */
  readonly command: string;
  /** Why the whole seed ran rather than the claim alone. */
  readonly scope: string;
}

/**
 * Re-runs the smallest study that produces one claim (its seed's reproduction) and returns that
 * claim as the run gives it: the verdict is the seed module's, as in `meshwork reproduce`.
 */
export async function rerunClaim(claimId: string, opts: RunOptions): Promise<ClaimRerun> {
  const seed = SEED_IDS.find((id) => claimId.startsWith(`${id}.`));
  if (!seed) throw new InputError('claim', claimId, `a claim id of meshwork reproduce, starting with its seed (${SEED_IDS.map((id) => `${id}.`).join(', ')})`);
  const run = await runReproductions([seed], opts);
  const ran = run.seeds[0];
  if (ran.error) throw new Error(`seed ${seed}: ${ran.error}`);
  const claim = ran.result.claims.find((c) => c.id === claimId);
  if (!claim) throw new InputError('claim', claimId, `a claim of seed ${seed} (${ran.result.claims.length} claims, e.g. ${ran.result.claims[0]?.id ?? 'none'})`);
  return { claim, seed, command: `reproduce ${seed}${opts.quick ? ' --quick' : ''}`, scope: claimRerunScope(seed) };
}

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

/** The results document of a run; `plotFiles` maps "seed/plotId" to the SVG file written for it. */
export function resultsDocument(run: ReproductionRun, opts: ReportOptions, plotFiles: ReadonlyMap<string, string> = new Map()): ResultsJson {
  return {
    format: RESULTS_FORMAT,
    version: RESULTS_VERSION,
    meshwork: opts.toolVersion,
    command: opts.command,
    quick: run.quick,
    summary: verdictSummary(run),
    seeds: run.seeds.map((s) => ({
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
      plots: s.result.plots.map((p) => ({ id: p.id, title: p.title, figure: p.figure, caption: p.caption, file: plotFiles.get(`${s.id}/${p.id}`), vegaLite: p.spec })),
    })),
  };
}

/** Renders every plot and builds report.html and results.json. Deterministic: no timestamps. */
export async function buildReportFiles(run: ReproductionRun, opts: ReportOptions): Promise<ReportFiles> {
  const files: Array<[string, string]> = [];
  const sections: HtmlSection[] = [];
  const plotFiles = new Map<string, string>();
  for (const s of run.seeds) {
    const rendered: RenderedPlot[] = [];
    for (const plot of s.result.plots) {
      if (plotFiles.has(`${s.id}/${plot.id}`)) throw new Error(`seed ${s.id}: duplicate plot id ${plot.id}`);
      const svg = await renderPlotSvg(plot);
      const file = plotFile(s.id, plot.id);
      plotFiles.set(`${s.id}/${plot.id}`, file);
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
      ['Meshwork\'s own questions (never counted in the documents\' totals)', `${meshworkQuestions(allClaims(run)).length}: ${verdictCountsText(countVerdicts(meshworkQuestions(allClaims(run))))}`],
    ],
    sections,
  });
  const resultsJson = resultsJsonText(resultsDocument(run, opts, plotFiles));
  files.push(['report.html', html], ['results.json', resultsJson]);
  return { files, html, resultsJson };
}
