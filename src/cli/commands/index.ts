import type { Command } from 'commander';
import { register as topo } from './topo.js';

/** Every command, in the order `meshwork --help` lists them. */
export function registerCommands(program: Command): void {
  topo(program);
}
