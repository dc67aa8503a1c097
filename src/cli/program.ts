/**
 * The `meshwork` command: a thin layer over the library. Each command lives in commands/<name>.ts
 * and only parses options, calls the library and prints.
 */
import { Command, CommanderError } from 'commander';
import { InputError } from '../util/errors.js';
import { registerCommands } from './commands/index.js';
import { reportFailure } from './errors.js';
import { mayNameGraphFile } from '../node/file-path.js';
import { optionDescription } from './help.js';
import { MESHWORK_VERSION } from '../sweep/version.js';

/** The program with the commands `argv` needs (see registerCommands); every command when omitted. */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command();
  program
    .name('meshwork')
    .description('Interconnect toolkit: build topologies, verify collective schedules, simulate them at flow or packet level.')
    .version(MESHWORK_VERSION)
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(oneLine(text)) })
    .configureHelp({ optionDescription })
    .hook('preAction', (_program, command) => refuseBlankOptions(command));
  await registerCommands(program, argv);
  return program;
}

/**
 * An option given a blank value (`--alpha ""`, often an unset shell variable) is refused: the
 * library reads a blank as "not given" (a Studio form's empty field), which would silently run
 * the default in place of what the user meant to set.
 */
function refuseBlankOptions(command: Command): void {
  for (const option of command.options) {
    const key = option.attributeName();
    if (command.getOptionValueSource(key) !== 'cli') continue;
    const value: unknown = command.getOptionValue(key);
    const values = Array.isArray(value) ? value : [value];
    const blank = values.find((v) => typeof v === 'string' && v.trim() === '');
    if (blank !== undefined) throw new InputError(option.long?.replace(/^--/, '') ?? key, blank, 'a non-blank value');
  }
}

function oneLine(text: string): string {
  return `meshwork: ${text.trim().replace(/^error: /, 'error: ').split('\n')[0]}\n`;
}

/** The value of each argument, `--topology=file:x.json` included. */
function argumentValues(argv: readonly string[]): string[] {
  return argv.map((a) => (a.startsWith('--') && a.includes('=') ? a.slice(a.indexOf('=') + 1) : a));
}

/** `--request FILE` and `--schedule FILE`: the file may name a topology file (`/dev/stdin` shows no suffix). */
const NAMES_FILES_INSIDE = /^--(request|schedule)(=|$)/;

export async function main(argv: string[]): Promise<number> {
  if (argumentValues(argv).some(mayNameGraphFile) || argv.some((a) => NAMES_FILES_INSIDE.test(a))) await (await import('../node/load-topology.js')).loadGraphFormat();
  const program = await buildProgram(argv);
  // `help NAME` of no command: commander prints the whole help to stderr and fails, with no word of why.
  const helpOf = argv[0] === 'help' ? argv[1] : undefined;
  if (helpOf !== undefined && !program.commands.some((c) => c.name() === helpOf || c.aliases().includes(helpOf))) {
    process.stderr.write(`meshwork: error: unknown command '${helpOf}' (meshwork help lists the commands)\n`);
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit through here with code 0; usage errors are exit code 2.
      return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : 2;
    }
    return reportFailure(err);
  }
}

/**
 * Runs the program on argv and sets the exit code. The bin (src/cli/main.ts) calls it once it has
 * loaded this module, as an ES module chunk or, for `meshwork traffic`, as one cached script
 * (src/cli/cached-script.ts): a script cannot await at its top level.
 */
export async function runProgram(argv: string[]): Promise<void> {
  // A reader that stops early (`| head`) closes the pipe: that ends the output, not the program with a trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const code = await main(argv);
  // A command may set a non-zero exit code itself (e.g. `collective verify` on FAIL: 1).
  process.exitCode = code === 0 ? (process.exitCode ?? 0) : code;
}
