import { InputError, MissingDependencyError, UnrunnableError } from '../util/errors.js';

/** Exit codes (docs/outputs.md): 2 bad input; 3 a valid input the model could not run; 1 a Meshwork bug. */
export const EXIT_BAD_INPUT = 2;
export const EXIT_UNRUNNABLE = 3;
/** An optional package the command needs is not installed (DuckDB, BullMQ, Vega). */
export const EXIT_MISSING_DEPENDENCY = 4;

/**
 * One line on stderr, never a stack trace. Input errors exit 2; anything else is a Meshwork bug
 * (exit 1), shown with its message only unless MESHWORK_DEBUG is set.
 */
export function reportFailure(err: unknown): number {
  if (err instanceof MissingDependencyError) {
    process.stderr.write(`meshwork: error: ${err.message}\n`);
    return EXIT_MISSING_DEPENDENCY;
  }
  if (err instanceof UnrunnableError) {
    process.stderr.write(`meshwork: cannot run: ${err.message}\n`);
    return EXIT_UNRUNNABLE;
  }
  if (err instanceof InputError) {
    process.stderr.write(`meshwork: error: ${err.message}\n`);
    return EXIT_BAD_INPUT;
  }
  const message = err instanceof Error ? err.message : String(err);
  if (process.env.MESHWORK_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  process.stderr.write(`meshwork: internal error: ${message.split('\n')[0]} (set MESHWORK_DEBUG=1 for details)\n`);
  return 1;
}
