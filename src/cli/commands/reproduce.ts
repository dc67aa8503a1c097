import type { Command } from 'commander';
import { parseSeedSelection } from '../../analysis/reproduce/index.js';
import { print } from '../io.js';
import { reportSeedErrors, runAndWrite, seedChecklistText } from '../reproduce-common.js';

export const DEFAULT_REPORT_DIR = 'meshwork-report';

export function register(program: Command): void {
  program
    .command('reproduce')
    .description('reproduce a seed document (000-004 or all): claims checklist, SVG plots, report.html, results.json')
    .argument('<seed>', 'seed id: 000, 001, 002, 003, 004 or all')
    .option('--quick', 'fewer points per curve and smaller sizes (all seeds in under a minute)')
    .option('--out <dir>', 'report directory', DEFAULT_REPORT_DIR)
    .option('--force', 'replace a report already in --out')
    .action(async (seed: string, opts: { quick?: boolean; out: string; force?: boolean }) => {
      const ids = parseSeedSelection(seed);
      const quick = opts.quick === true;
      const outcome = await runAndWrite({ ids, quick, out: opts.out, replace: opts.force === true, command: `reproduce ${seed}${quick ? ' --quick' : ''}` });
      print(outcome.run.seeds.map(seedChecklistText).join('\n\n'));
      print(`\nreport: ${outcome.reportPath}`);
      const code = reportSeedErrors(outcome.run);
      if (code !== 0) process.exitCode = code;
    });
}
