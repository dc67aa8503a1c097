import type { Command } from 'commander';
import { SEED_IDS } from '../../analysis/reproduce/index.js';
import { countVerdicts, documentClaims } from '../../report/checklist.js';
import { renderTextTable } from '../../report/table.js';
import { print } from '../io.js';
import { reportSeedErrors, runAndWrite } from '../reproduce-common.js';

export const DEFAULT_DEMO_DIR = 'meshwork-demo';

export function register(program: Command): void {
  program
    .command('demo')
    .description('two-minute tour: quick reproductions of all five seed documents, a headline table and an HTML report')
    .option('--out <dir>', 'report directory, replaced on every run', DEFAULT_DEMO_DIR)
    .action(async (opts: { out: string }) => {
      // The demo's directory is its own: it replaces an earlier Meshwork report there without --force
      // (but never a directory holding anything else).
      const outcome = await runAndWrite({ ids: [...SEED_IDS], quick: true, out: opts.out, replace: true, command: 'demo' });
      const rows = outcome.run.seeds.map((s) => {
        // Only the document's own claims count; Meshwork's extra questions are in the report.
        const claims = documentClaims(s.result.claims);
        const c = countVerdicts(claims);
        return [s.id, s.title, `${c.reproduced + c['reproduced-under-reading']}/${claims.length}`, c['not-reproduced'], c['not-available'], s.result.headline || '—'];
      });
      print(
        renderTextTable(
          {
            id: 'demo-headline',
            title: 'Meshwork demo: the five seed documents, reproduced quickly (full runs: meshwork reproduce all)',
            columns: ['seed', 'document', 'reproduced', 'not reproduced', 'not yet available', 'headline'],
            rows,
            align: ['left', 'left', 'right', 'right', 'right', 'left'],
          },
          { maxCell: [4, 36, 10, 14, 17, 60] },
        ),
      );
      const code = reportSeedErrors(outcome.run);
      if (code !== 0) process.exitCode = code;
      print(`report: ${outcome.reportPath}`);
    });
}
