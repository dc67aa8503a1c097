import type { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Every command, in the order `meshwork --help` lists them, each loaded on demand: a command's
 * module pulls in its part of the library, so importing all of them would make `meshwork --version`
 * or `meshwork topo` pay for the simulators and the report renderer.
 */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<{ register: Register }>]> = [
  ['demo', () => import('./demo.js')],
  ['topo', () => import('./topo.js')],
  ['export', () => import('./export.js')],
  ['table', () => import('./table.js')],
  ['collective', () => import('./collective.js')],
  ['run', () => import('./run.js')],
  ['compare', () => import('./compare.js')],
  ['perf', () => import('./perf.js')],
  ['traffic', () => import('./traffic.js')],
  ['workload', () => import('./workload.js')],
  ['reproduce', () => import('./reproduce.js')],
  ['sweep', () => import('./sweep.js')],
  ['ui', () => import('./ui.js')],
];

/** Options that end the program before any command runs. */
const VERSION_FLAGS = new Set(['-V', '--version']);

/**
 * Registers the commands `argv` needs: only the named command when the first word names one, none
 * for a bare `--version`, and every command otherwise (help, or an unknown command's error).
 */
export async function registerCommands(program: Command, argv: readonly string[]): Promise<void> {
  const first = argv.find((a) => !a.startsWith('-'));
  const named = COMMANDS.filter(([name]) => name === first);
  const wanted = named.length > 0 ? named : argv.length > 0 && argv.every((a) => VERSION_FLAGS.has(a)) ? [] : COMMANDS;
  const modules = await Promise.all(wanted.map(([, load]) => load()));
  for (const m of modules) m.register(program);
}
