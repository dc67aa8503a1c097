/**
 * What each sweep kind accepts, read from the CLI's own command definitions so a sweep file takes
 * exactly the options (names and defaults) that `meshwork <kind>` takes, and no list is kept twice.
 */
import { Command } from 'commander';
import type { SweepKind } from './kinds.js';

/** The argv path of each kind: `verify` is `meshwork collective verify`. */
export const COMMAND_PATH: Record<SweepKind, string[]> = {
  run: ['run'],
  traffic: ['traffic'],
  topo: ['topo'],
  verify: ['collective', 'verify'],
  workload: ['workload', 'run'],
};

/** `topo` takes its spec as an argument; in a sweep it is the `topology` option like everywhere else. */
export const POSITIONAL: Partial<Record<SweepKind, string>> = { topo: 'topology' };

export interface OptionInfo {
  readonly name: string;
  readonly flag: boolean;
  readonly required: boolean;
  readonly defaultValue?: string | boolean;
}

type Register = (program: Command) => void;
/**
 * Checks a point's options as its run will read them (`seen`: what earlier points already checked)
 * and returns what identifies the point (its RunRequest); throws InputError naming the option.
 */
type PointCheck = (params: Readonly<Record<string, string | boolean>>, seen: Set<string>) => object;

/**
 * Each kind's command module, imported when first needed: a pool thread that runs traffic points
 * never loads `run`'s collectives and flow engine, nor `topo`'s analysis (start-up, issue 11).
 */
const COMMAND_MODULES: Record<SweepKind, () => Promise<{ register: Register; checkPoint?: PointCheck }>> = {
  run: () => import('../cli/commands/run.js'),
  traffic: () => import('../cli/commands/traffic.js'),
  topo: () => import('../cli/commands/topo.js'),
  verify: () => import('../cli/commands/collective.js'),
  // With its point → RunRequest parser, which the sweep file uses to check every point up front.
  workload: () => import('./workload-point.js'),
};

const registers = new Map<SweepKind, Register>();
const checks = new Map<SweepKind, PointCheck>();

/** Loads the command of this kind; `freshProgram` and `commandOptions` need it loaded. */
export async function loadCommand(kind: SweepKind): Promise<void> {
  if (registers.has(kind)) return;
  const module = await COMMAND_MODULES[kind]();
  registers.set(kind, module.register);
  if (module.checkPoint) checks.set(kind, module.checkPoint);
}

/** The loaded kind's point check, if its points are RunRequests built outside the command (workload). */
export function pointCheck(kind: SweepKind): PointCheck | undefined {
  return checks.get(kind);
}

/**
 * A fresh program with the one command of this kind: commander keeps parsed values on the command
 * objects, so every point gets its own (building one command costs far less than all of them).
 */
export function freshProgram(kind: SweepKind): Command {
  const register = registers.get(kind);
  if (!register) throw new Error(`sweep: the ${kind} command is not loaded (await loadCommand('${kind}') first)`);
  const program = new Command().exitOverride();
  register(program);
  return program;
}

export function findCommand(program: Command, kind: SweepKind): Command {
  let cmd = program;
  for (const name of COMMAND_PATH[kind]) cmd = cmd.commands.find((c) => c.name() === name)!;
  return cmd;
}

const cache = new Map<SweepKind, Map<string, OptionInfo>>();

export function commandOptions(kind: SweepKind): Map<string, OptionInfo> {
  let options = cache.get(kind);
  if (options) return options;
  options = new Map();
  const positional = POSITIONAL[kind];
  if (positional) options.set(positional, { name: positional, flag: false, required: true });
  for (const o of findCommand(freshProgram(kind), kind).options) {
    const name = (o.long ?? '').replace(/^--/, '');
    if (!name) continue;
    const flag = !o.required && !o.optional;
    // A --no-x flag's default (true) belongs to x, not to the flag itself.
    const defaultValue = !o.negate && (typeof o.defaultValue === 'string' || typeof o.defaultValue === 'boolean') ? o.defaultValue : undefined;
    options.set(name, { name, flag, required: o.mandatory, defaultValue });
  }
  cache.set(kind, options);
  return options;
}
