/** Options beside `--request` (run, traffic, workload run). Kept apart from run-request.ts, which loads the routings. */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';

/**
 * A saved request holds the whole run: an option typed beside `--request` would be ignored, so it is
 * refused. `outputs` are the options that only choose how the result is shown or written.
 */
export function refuseBesideRequest(command: Command, outputs: readonly string[]): void {
  for (const option of command.options) {
    const key = option.attributeName();
    const flag = option.long ?? key;
    if (command.getOptionValueSource(key) !== 'cli' || flag === '--request' || outputs.includes(flag)) continue;
    throw new InputError(flag.replace(/^--/, ''), command.getOptionValue(key), `nothing beside --request (the file holds the whole run; only ${outputs.join(', ')} are read beside it)`);
  }
}
