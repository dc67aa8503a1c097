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

/**
 * Where the commands' output goes: stdout and stderr, unless a caller that runs a command in-process
 * (the sweep's executePoint) collects it (`collectOutput`). One command at a time per thread.
 */
interface OutputSink {
  out(text: string): void;
  err(text: string): void;
}
let sink: OutputSink | undefined;

export function print(text: string): void {
  printChunk(text.endsWith('\n') ? text : `${text}\n`);
}

/** Writes output as it is, without a newline (streamed documents). */
export function printChunk(text: string): void {
  if (sink) sink.out(text);
  else process.stdout.write(text);
}

/** A one-line diagnostic on stderr (or the collecting caller). */
export function printError(text: string): void {
  if (sink) sink.err(text);
  else process.stderr.write(text);
}

/** Runs `run` with the commands' output collected by `collect` instead of written to stdout/stderr. */
export async function collectOutput<T>(collect: OutputSink, run: () => Promise<T>): Promise<T> {
  const before = sink;
  sink = collect;
  try {
    return await run();
  } finally {
    sink = before;
  }
}
