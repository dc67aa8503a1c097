/** Node adapters for the CLI: files are written whole or not at all (see outputs.ts). */
import { writeOutputNow } from './outputs.js';

export { planOutput, planOutputs, writeOutputs, type PlannedOutput } from './outputs.js';

/**
 * Writes one output at once: a temporary sibling renamed over a file (through a symlink to its
 * target), streamed to a device or FIFO, refused for a directory or /proc. Commands that do work
 * before writing plan their outputs first with `planOutputs` instead.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, field = 'out'): void {
  writeOutputNow(path, field, data);
}

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
