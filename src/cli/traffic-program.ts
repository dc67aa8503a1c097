/**
 * Loads and runs chunks/traffic-program.cjs: src/cli/program.ts with the traffic command alone, as
 * one CommonJS script (scripts/bundle-cli.mjs), through its code cache (./cached-script.ts). It
 * exists only in the built CLI.
 */
import { loadCachedScript, type CachedScript } from './cached-script.js';

/** The bundle's file, beside this module's chunk once built (dist/cli/chunks/). */
export const TRAFFIC_PROGRAM_URL = new URL('./chunks/traffic-program.cjs', import.meta.url);

export function loadTrafficProgram(): CachedScript<{ runProgram(argv: string[]): Promise<void> }> {
  return loadCachedScript(TRAFFIC_PROGRAM_URL);
}

export async function runTrafficProgram(argv: string[]): Promise<void> {
  await loadTrafficProgram().exports.runProgram(argv);
}
