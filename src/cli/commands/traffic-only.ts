import type { Command } from 'commander';
import { register } from './traffic.js';

/**
 * The command table of the `meshwork traffic` bundle (scripts/bundle-cli.mjs): the build puts it in
 * place of ./index.js, so that bundle holds the program, the traffic command and what it imports in
 * one file. src/cli/main.ts loads that bundle only when the first word names `traffic`, where
 * ./index.js's registerCommands would register the traffic command alone too.
 */
export async function registerCommands(program: Command, _argv: readonly string[]): Promise<void> {
  register(program);
}
