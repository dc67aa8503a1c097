/**
 * results.json, the machine-readable record of a reproduction: its shape, its text, and reading
 * one back (Meshwork Studio's Seeds view opens a file a user wrote with `meshwork reproduce --out`).
 * No seed module is imported here, so a reader pays only for this file.
 */
import { CLAIM_SOURCES, VERDICTS, type Claim, type Verdict } from '../../report/checklist.js';
import type { Plot } from '../../report/plot.js';
import type { Table } from '../../report/table.js';
import { InputError } from '../../util/errors.js';
import { SEED_IDS, type SeedId } from './types.js';

export const RESULTS_FORMAT = 'meshwork-reproduce';
export const RESULTS_VERSION = 1;

/** One seed as results.json records it; `file` is set when the plot's SVG was written beside it. */
export interface SeedResultsJson {
  readonly id: SeedId;
  readonly title: string;
  readonly document: string;
  readonly error?: string;
  readonly unavailable: readonly string[];
  readonly summary: Record<Verdict, number>;
  readonly meshworkSummary: Record<Verdict, number>;
  readonly claims: readonly Claim[];
  readonly params: Record<string, unknown>;
  readonly notes: readonly string[];
  readonly tables: readonly Table[];
  readonly plots: ReadonlyArray<{ id: string; title: string; figure: string; caption?: string; file?: string; vegaLite: Plot['spec'] }>;
}

/** results.json's content: what `reproduce --out` writes and Meshwork Studio's Seeds view reads. */
export interface ResultsJson {
  readonly format: typeof RESULTS_FORMAT;
  readonly version: typeof RESULTS_VERSION;
  readonly meshwork: string;
  readonly command: string;
  readonly quick: boolean;
  readonly summary: Record<Verdict, number>;
  readonly seeds: readonly SeedResultsJson[];
}

/** results.json's text: non-finite numbers as strings (JSON has none). */
export function resultsJsonText(doc: ResultsJson): string {
  return `${JSON.stringify(doc, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value), 2)}\n`;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Reads results.json's text, checking what a viewer relies on (format, version, seed ids, each
 * claim's verdict and source, plots and tables as lists); anything else is one InputError line.
 */
export function parseResultsJson(text: string, name: string, field = 'results'): ResultsJson {
  const accepted = (detail: string): string => `a results.json written by meshwork reproduce --out (format ${RESULTS_FORMAT}, version ${RESULTS_VERSION}): ${detail}`;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new InputError(field, name, accepted(`well-formed JSON (${(err as Error).message.split('\n')[0]})`));
  }
  if (!isObject(doc) || doc.format !== RESULTS_FORMAT) throw new InputError(field, name, accepted(`"format": "${RESULTS_FORMAT}"`));
  if (doc.version !== RESULTS_VERSION) throw new InputError(`${field}.version`, doc.version, accepted(`version ${RESULTS_VERSION}`));
  if (!Array.isArray(doc.seeds)) throw new InputError(`${field}.seeds`, typeof doc.seeds, accepted('a list of seeds'));
  doc.seeds.forEach((seed: unknown, i) => {
    const where = `${field}.seeds[${i}]`;
    if (!isObject(seed) || !(SEED_IDS as readonly unknown[]).includes(seed.id)) throw new InputError(`${where}.id`, isObject(seed) ? seed.id : seed, SEED_IDS.join(', '));
    for (const list of ['claims', 'plots', 'tables', 'unavailable', 'notes'] as const) {
      if (!Array.isArray(seed[list])) throw new InputError(`${where}.${list}`, typeof seed[list], 'a list');
    }
    (seed.claims as unknown[]).forEach((claim, j) => {
      const c = isObject(claim) ? claim : {};
      if (typeof c.id !== 'string' || typeof c.where !== 'string') throw new InputError(`${where}.claims[${j}]`, JSON.stringify(claim)?.slice(0, 60), 'a claim with id and where');
      if (!(VERDICTS as readonly unknown[]).includes(c.verdict)) throw new InputError(`${where}.claims[${j}].verdict`, c.verdict, VERDICTS.join(', '));
      if (!(CLAIM_SOURCES as readonly unknown[]).includes(c.source)) throw new InputError(`${where}.claims[${j}].source`, c.source, CLAIM_SOURCES.join(', '));
    });
  });
  return doc as unknown as ResultsJson;
}
