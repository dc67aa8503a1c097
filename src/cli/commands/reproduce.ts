import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { parseSeedSelection } from '../../analysis/reproduce/index.js';
import { print } from '../io.js';
import { jobsOption } from '../jobs.js';
import { reportSeedErrors, runAndWrite, seedChecklistText } from '../reproduce-common.js';

export const DEFAULT_REPORT_DIR = 'meshwork-report';

export function register(program: Command): void {
  program
    .command('reproduce')
    .description('reproduce a seed document (000-004 or all): claims checklist, SVG plots, report.html, results.json')
    .argument('<seed>', 'seed id: 000, 001, 002, 003, 004, a comma-separated list of them, or all')
    .option('--quick', 'fewer points per curve and smaller sizes (all seeds in about a minute of CPU)')
    .option('--out <dir>', 'report directory', DEFAULT_REPORT_DIR)
    .option('--force', 'replace a report already in --out')
    .option('--jobs <n>', `seeds in parallel on worker threads (default: one per core, ${availableParallelism()} here; results do not depend on it)`)
    .action(async (seed: string, opts: { quick?: boolean; out: string; force?: boolean; jobs?: string }) => {
      const ids = parseSeedSelection(seed);
      const jobs = jobsOption(opts.jobs);
      const quick = opts.quick === true;
      const outcome = await runAndWrite({ ids, quick, out: opts.out, replace: opts.force === true, command: `reproduce ${seed}${quick ? ' --quick' : ''}`, jobs });
      print(outcome.run.seeds.map(seedChecklistText).join('\n\n'));
      print(`\nreport: ${outcome.reportPath}`);
      const code = reportSeedErrors(outcome.run);
      if (code !== 0) process.exitCode = code;
    });
}
