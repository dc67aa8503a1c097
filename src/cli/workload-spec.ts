/**
 * The two structured values of `workload run` written as one text each: `--algorithm` (an
 * algorithm per collective type) and `--generate` (a transformer step's parameters). Apart from the
 * command so that a sweep file's parser reads and respells them without loading the Chakra reader.
 */
import { InputError } from '../util/errors.js';
import { parseIntValue } from '../util/spec.js';
import { CHAKRA_COLLECTIVES, type ChakraCollective } from '../workload/chakra/names.js';

/**
 * A comma starts a new item only before a collective's name and `=`: an algorithm's own parameters
 * (`nccl-ring:channels=4,proto=LL128`) stay with it.
 */
const ITEM_BOUNDARY = new RegExp(`,(?=\\s*(?:${[...CHAKRA_COLLECTIVES].sort((a, b) => b.length - a.length).join('|')})=)`);

/** `allreduce=ring,alltoall=bruck` → the algorithm of each named collective type (`;` separates items too). */
export function parseAlgorithms(text: string | undefined, field = 'algorithm'): Partial<Record<ChakraCollective, string>> {
  if (text === undefined) return {};
  const out: Partial<Record<ChakraCollective, string>> = {};
  for (const item of text.split(';').flatMap((s) => s.split(ITEM_BOUNDARY))) {
    const eq = item.indexOf('=');
    const name = item.slice(0, eq).trim() as ChakraCollective;
    if (eq < 0 || !CHAKRA_COLLECTIVES.includes(name)) throw new InputError(field, item, `collective=algorithm items, collective one of ${CHAKRA_COLLECTIVES.join(', ')} (e.g. allreduce=ring,alltoall=bruck)`);
    out[name] = item.slice(eq + 1).trim();
  }
  return out;
}

/** One spelling of a set of algorithms: items in CHAKRA_COLLECTIVES order, `;`-free. */
export function algorithmsText(algorithms: Partial<Record<ChakraCollective, string>>): string {
  return CHAKRA_COLLECTIVES.filter((c) => algorithms[c] !== undefined).map((c) => `${c}=${algorithms[c]}`).join(',');
}

/**
 * The generator's parameters (the request's `workload.generate`, sim/request.ts; the names of
 * `workload generate`'s options) and the least value each takes. A test keeps the keys equal to the
 * request schema's.
 */
export const GENERATE_FIELDS: Readonly<Record<string, number>> = { tp: 1, pp: 1, dp: 1, ep: 0, layers: 1, hidden: 1, sequence: 1, microbatch: 1, microbatches: 1, bytesPerElement: 1 };

export type GenerateParams = Record<string, number>;

/** `tp=2,dp=2,layers=1` → `{ tp: 2, dp: 2, layers: 1 }`; each value a whole number in range, each key once. */
export function parseGenerate(text: string, field = 'generate'): GenerateParams {
  const out: GenerateParams = {};
  for (const item of text.split(',')) {
    const eq = item.indexOf('=');
    const key = item.slice(0, eq).trim();
    if (eq < 0 || !(key in GENERATE_FIELDS)) throw new InputError(field, item.trim(), `name=value items, names ${Object.keys(GENERATE_FIELDS).join(', ')} (e.g. tp=2,dp=2,layers=1)`);
    if (key in out) throw new InputError(`${field}.${key}`, item.trim(), 'each name once');
    out[key] = parseIntValue(item.slice(eq + 1), `${field}.${key}`, { min: GENERATE_FIELDS[key], max: 2 ** 31 - 1 });
  }
  return out;
}

/** One spelling of a generator's parameters: GENERATE_FIELDS order. */
export function generateText(params: GenerateParams): string {
  return Object.keys(GENERATE_FIELDS).filter((k) => params[k] !== undefined).map((k) => `${k}=${params[k]}`).join(',');
}
