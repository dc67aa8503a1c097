import type { Command } from 'commander';
import { register as topo } from './topo.js';
import { register as exportCmd } from './export.js';
import { register as table } from './table.js';
import { register as collective } from './collective.js';
import { register as run } from './run.js';
import { register as compare } from './compare.js';
import { register as traffic } from './traffic.js';
import { register as reproduce } from './reproduce.js';
import { register as demo } from './demo.js';
import { register as sweep } from './sweep.js';

/** Every command, in the order `meshwork --help` lists them. */
export function registerCommands(program: Command): void {
  demo(program);
  topo(program);
  exportCmd(program);
  table(program);
  collective(program);
  run(program);
  compare(program);
  traffic(program);
  reproduce(program);
  sweep(program);
}
