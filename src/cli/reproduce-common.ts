/**
 * What `meshwork reproduce` and `meshwork demo` share: run the seeds with a progress bar (on a
 * terminal only), write the report directory atomically, print the checklists.
 */
import { readFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import {
  buildReportFiles,
  runReproductions,
  type ReproductionRun,
  type SeedId,
  type SeedRun,
} from '../analysis/reproduce/index.js';
import { checklistTable, countVerdicts, documentClaims, meshworkQuestions, verdictCountsText } from '../report/checklist.js';
import { renderTextTable } from '../report/table.js';
import { abandonReportDir, commitReportDir, openReportDir } from './report-dir.js';

export function toolVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export interface ReproduceJob {
  readonly ids: readonly SeedId[];
  readonly quick: boolean;
  readonly out: string;
  /** Replace an existing Meshwork report in `out`. */
  readonly replace: boolean;
  /** Recorded in results.json, e.g. "reproduce all --quick" (never --jobs: it cannot change a result). */
  readonly command: string;
  /** Seeds run in parallel on this many worker threads (the sweep's pool); 1 runs them in this thread. */
  readonly jobs?: number;
}

export interface ReproduceOutcome {
  readonly run: ReproductionRun;
  readonly dir: string;
  readonly reportPath: string;
}

/** Validates `out` first (bad input fails before any work), runs, then writes everything at once. */
export async function runAndWrite(job: ReproduceJob): Promise<ReproduceOutcome> {
  const dir = openReportDir(job.out, { replace: job.replace });
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        { format: 'reproducing [{bar}] {percentage}% | {duration_formatted} elapsed, about {eta_formatted} left | {label}', etaBuffer: 50, stream: process.stderr, hideCursor: true, clearOnComplete: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(1000, 0, { label: '' });
  try {
    const onProgress = (fraction: number, label: string): void => bar?.update(Math.round(fraction * 1000), { label });
    const threads = Math.min(job.jobs ?? 1, job.ids.length);
    let run: ReproductionRun;
    if (threads > 1) {
      const { WorkerPool } = await import('../sweep/pool.js');
      const pool = new WorkerPool(threads);
      try {
        run = await runReproductions(job.ids, { quick: job.quick, onProgress, executeSeed: (id, quick, progress) => pool.runSeed(id, quick, progress) });
      } finally {
        await pool.close();
      }
    } else {
      run = await runReproductions(job.ids, { quick: job.quick, onProgress });
    }
    bar?.update(1000, { label: 'rendering plots and report' });
    const report = await buildReportFiles(run, { command: job.command, toolVersion: toolVersion() });
    bar?.stop();
    commitReportDir(dir, report.files);
    return { run, dir: dir.path, reportPath: `${dir.path}/report.html` };
  } catch (err) {
    bar?.stop();
    abandonReportDir(dir);
    throw err;
  }
}

export function seedChecklistText(s: SeedRun): string {
  const claims = documentClaims(s.result.claims);
  const questions = meshworkQuestions(s.result.claims);
  const lines = [`== Seed ${s.id}: ${s.title}`, s.document];
  for (const u of s.result.unavailable) lines.push(`!! ${u}`);
  const maxCell = [44, 16, 24, 24, 40];
  lines.push(renderTextTable(checklistTable(`checklist-${s.id}`, `the document's claims: ${verdictCountsText(countVerdicts(claims))}`, claims), { maxCell }));
  if (questions.length > 0) {
    lines.push(renderTextTable(checklistTable(`questions-${s.id}`, `Meshwork's own questions (beyond the document, not counted): ${verdictCountsText(countVerdicts(questions))}`, questions), { maxCell }));
  }
  return lines.join('\n');
}

/** Exit status after a run: 1 if a seed hit an internal error (a Meshwork bug), else 0. */
export function reportSeedErrors(run: ReproductionRun): number {
  const failed = run.seeds.filter((s) => s.error);
  for (const s of failed) process.stderr.write(`meshwork: internal error in seed ${s.id}: ${s.error!.split('\n')[0]}\n`);
  return failed.length > 0 ? 1 : 0;
}
