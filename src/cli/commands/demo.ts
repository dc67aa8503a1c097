import type { Command } from 'commander';
import { SEED_IDS, type SeedRun } from '../../analysis/reproduce/index.js';
import { countVerdicts, documentClaims } from '../../report/checklist.js';
import { renderTextTable, type Table } from '../../report/table.js';
import { print } from '../io.js';
import { reportSeedErrors, runAndWrite } from '../reproduce-common.js';

export const DEFAULT_DEMO_DIR = 'meshwork-demo';

/**
 * The headline table: each verdict kind in its own column. "Reproduced" and "reproduced under a
 * stated reading" are different verdicts and are never added into one number (the demo once showed
 * seed 000 as 8/8 where its report said 0 and 8).
 */
export function demoTable(seeds: readonly SeedRun[]): Table {
  const rows = seeds.map((s) => {
    // Only the document's own claims count; Meshwork's extra questions are in the report.
    const claims = documentClaims(s.result.claims);
    const c = countVerdicts(claims);
    return [s.id, s.title, claims.length, c.reproduced, c['reproduced-under-reading'], c['not-reproduced'], c['not-available'], s.result.headline || '—'];
  });
  return {
    id: 'demo-headline',
    title: 'Meshwork demo: the five seed documents, reproduced quickly (full runs: meshwork reproduce all)',
    columns: ['seed', 'document', 'claims', 'reproduced', 'under a reading', 'not reproduced', 'not yet available', 'headline'],
    rows,
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'left'],
  };
}

export function register(program: Command): void {
  program
    .command('demo')
    .description('two-minute tour: quick reproductions of all five seed documents, a headline table and an HTML report')
    .option('--out <dir>', 'report directory, replaced on every run', DEFAULT_DEMO_DIR)
    .action(async (opts: { out: string }) => {
      // The demo's directory is its own: it replaces an earlier Meshwork report there without --force
      // (but never a directory holding anything else).
      const outcome = await runAndWrite({ ids: [...SEED_IDS], quick: true, out: opts.out, replace: true, command: 'demo' });
      print(renderTextTable(demoTable(outcome.run.seeds), { maxCell: [4, 36, 6, 10, 15, 14, 17, 60] }));
      const code = reportSeedErrors(outcome.run);
      if (code !== 0) process.exitCode = code;
      print(`report: ${outcome.reportPath}`);
    });
}
