import { availableParallelism } from 'node:os';
import { InputError } from '../util/errors.js';

/** `--jobs N`: worker threads on this machine; one per core when not given. */
export function jobsOption(text: string | undefined): number {
  if (text === undefined) return availableParallelism();
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || Number(text) > 256) throw new InputError('jobs', text, 'an integer from 1 to 256');
  return Number(text);
}
