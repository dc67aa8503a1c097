import { InputError } from '../util/errors.js';

/**
 * One line on stderr, never a stack trace. Input errors exit 2; anything else is a Meshwork bug
 * (exit 1), shown with its message only unless MESHWORK_DEBUG is set.
 */
export function reportFailure(err: unknown): number {
  if (err instanceof InputError) {
    process.stderr.write(`meshwork: error: ${err.message}\n`);
    return 2;
  }
  const message = err instanceof Error ? err.message : String(err);
  if (process.env.MESHWORK_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  process.stderr.write(`meshwork: internal error: ${message.split('\n')[0]} (set MESHWORK_DEBUG=1 for details)\n`);
  return 1;
}
