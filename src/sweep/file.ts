/**
 * The sweep file: one command kind, its fixed options and the axes that vary, expanded into points.
 * Option names, values, grammar and units are the CLI's: a point is exactly the options one would
 * type after `meshwork <kind>`. Each point's key hashes its fully resolved options (defaults filled
 * in, units normalised) with the Meshwork version, so the same point is never run twice.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { InputError, LimitError } from '../util/errors.js';
import { parseBandwidth, parseSize, parseTime } from '../util/units.js';
import { commandOptions, loadCommand, pointCheck, type OptionInfo } from './commands.js';
import { algorithmsText, generateText, parseAlgorithms, parseGenerate } from '../cli/workload-spec.js';
import { SWEEP_KINDS, type SweepKind } from './kinds.js';
import { MESHWORK_VERSION } from './version.js';
import { readText } from '../node/load-topology.js';
import { optionUnit } from '../sim/options-schema.js';

/** A mapping only for the options that take one (`workload`'s generate and algorithm, STRUCTURED below). */
const Value = z.union([z.string(), z.number(), z.boolean(), z.record(z.string(), z.union([z.string(), z.number()]))]);

/** The published schema (schemas/sweep.schema.json is generated from it and checked by a test). */
export const SweepFileSchema = z
  .object({
    kind: z.enum(SWEEP_KINDS).describe('the command each point runs: meshwork run | traffic | topo | collective verify | workload run'),
    name: z.string().optional().describe('a label stored with every row'),
    fixed: z.record(z.string(), Value).optional().describe('options every point shares, in CLI names and units'),
    axes: z
      .record(z.string(), z.union([z.string(), z.array(Value).min(1)]))
      .optional()
      .describe('one axis per option: a list of values, or a range "start:stop:step", "start:stop:*factor" or "start:stop:logN"; the points are their cartesian product'),
    zip: z.array(z.record(z.string(), z.array(Value).min(1))).optional().describe('groups of axes that vary together (equal lengths)'),
    repeat: z
      .object({ seeds: z.number().int().min(1).max(100_000).describe('run every point with --seed 1..N') })
      .strict()
      .optional(),
  })
  .strict();

export type SweepFile = z.infer<typeof SweepFileSchema>;
export type Params = Record<string, string | boolean>;

export interface SweepPoint {
  readonly key: string;
  readonly kind: SweepKind;
  /** Resolved options, sorted by name: the exact CLI input of this point. */
  readonly params: Params;
}

export interface Sweep {
  readonly name: string;
  readonly kind: SweepKind;
  readonly points: SweepPoint[];
  /** Every option name that appears in some point, sorted: the parameter columns. */
  readonly paramNames: string[];
}

/** Sweeps larger than this are refused before any point is built. */
export const MAX_POINTS = 1_000_000;
const MAX_RANGE = 100_000;

/** Options that write files or change only the printing: a sweep stores the Result instead (and a point is its own request: no --request, --print-request). */
const OUTPUT_OPTIONS = new Set(['json', 'csv', 'plot', 'out', 'trace', 'log-x', 'timing', 'help', 'request', 'print-request', 'links', 'booksim-output']);
/** Names of OUTPUT_OPTIONS that are a kind's input: `workload run --trace` reads the trace. */
const INPUT_OF_KIND: Partial<Record<SweepKind, ReadonlySet<string>>> = { workload: new Set(['trace']) };
const isOutput = (kind: SweepKind, name: string): boolean => OUTPUT_OPTIONS.has(name) && !INPUT_OF_KIND[kind]?.has(name);

type Mapping = Record<string, string | number>;
const itemsText = (m: Mapping): string => Object.entries(m).map(([k, v]) => `${k}=${v}`).join(',');
/**
 * Options whose value is a structure, written as a mapping or as the CLI's text and respelled one
 * way (so `{tp: 2, dp: 2}` and `dp=2,tp=2` are one point); every other option refuses a mapping.
 */
const STRUCTURED: Partial<Record<SweepKind, Record<string, (field: string, value: string | Mapping) => string>>> = {
  workload: {
    generate: (field, v) => generateText(parseGenerate(typeof v === 'string' ? v : itemsText(v), field)),
    algorithm: (field, v) => algorithmsText(parseAlgorithms(typeof v === 'string' ? v : itemsText(v), field)),
  },
};

/**
 * Options in human units (the option schema's `optionUnit`, sim/options-schema.ts) are normalised to
 * one spelling, so `1KiB` and `1024` are one point.
 */
function unitValue(name: string, text: string): number {
  const unit = optionUnit(name);
  if (unit === 'size') return parseSize(text, name);
  if (unit === 'time') return parseTime(text, name);
  if (unit === 'bandwidth') return parseBandwidth(text, name);
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new InputError(name, text, 'a number');
  return v;
}

/** Back to a string the CLI accepts: bytes, seconds and bytes per second. */
function unitText(name: string, value: number): string {
  const rounded = Number(value.toPrecision(12));
  const unit = optionUnit(name);
  if (unit === 'time') return `${rounded}s`;
  if (unit === 'bandwidth') return `${rounded}B/s`;
  return String(rounded);
}

/** "a:b:step" (inclusive), "a:b:*factor" (geometric) or "a:b:logN" (N log-spaced values). */
export function expandRange(name: string, text: string): string[] {
  const bad = (): never => {
    throw new InputError(`axes.${name}`, text, 'a list, or a range start:stop:step, start:stop:*factor or start:stop:logN (inclusive)');
  };
  const parts = text.split(':');
  if (parts.length !== 3) bad();
  const start = unitValue(name, parts[0]);
  const stop = unitValue(name, parts[1]);
  if (stop < start) bad();
  const step = parts[2].trim();
  const values: number[] = [];
  if (step.startsWith('*')) {
    const factor = Number(step.slice(1));
    if (!(factor > 1) || !(start > 0)) bad();
    const n = Math.floor(Math.log(stop / start) / Math.log(factor) + 1e-9) + 1;
    if (n > MAX_RANGE) throw new LimitError(`axes.${name}`, text, `${MAX_RANGE} values per range`);
    for (let i = 0; i < n; i++) values.push(start * factor ** i);
  } else if (step.startsWith('log')) {
    const n = Number(step.slice(3));
    if (!Number.isInteger(n) || n < 2 || !(start > 0)) bad();
    if (n > MAX_RANGE) throw new LimitError(`axes.${name}`, text, `${MAX_RANGE} values per range`);
    for (let i = 0; i < n; i++) values.push(start * (stop / start) ** (i / (n - 1)));
  } else {
    const s = unitValue(name, step);
    if (!(s > 0)) bad();
    const n = Math.floor((stop - start) / s + 1e-9) + 1;
    if (n > MAX_RANGE) throw new LimitError(`axes.${name}`, text, `${MAX_RANGE} values per range`);
    for (let i = 0; i < n; i++) values.push(start + i * s);
  }
  return values.map((v) => unitText(name, v));
}

function checkName(kind: SweepKind, options: Map<string, OptionInfo>, field: string, name: string): OptionInfo {
  const info = options.get(name);
  if (!info || isOutput(kind, name)) {
    const accepted = [...options.keys()].filter((n) => !isOutput(kind, n)).join(', ');
    throw new InputError(field, name, `an option of meshwork ${kind === 'verify' ? 'collective verify' : kind === 'workload' ? 'workload run' : kind}: ${accepted}`);
  }
  return info;
}

/** One value in CLI form, units normalised; flags take true/false. */
function normalise(kind: SweepKind, info: OptionInfo, field: string, value: string | number | boolean | Mapping): string | boolean {
  const structured = STRUCTURED[kind]?.[info.name];
  if (structured && typeof value !== 'boolean' && typeof value !== 'number') return structured(field, value);
  if (info.flag) {
    if (typeof value !== 'boolean') throw new InputError(field, value, 'true or false (a flag)');
    return value;
  }
  if (typeof value === 'boolean') throw new InputError(field, value, `a value for --${info.name}`);
  const text = String(value).trim();
  if (text === '') throw new InputError(field, value, `a value for --${info.name}`);
  if (optionUnit(info.name) === 'size') return String(parseSize(text, field));
  if (optionUnit(info.name)) return unitText(info.name, unitValue(info.name, text));
  return text;
}

type Axis = { names: string[]; rows: Array<Array<string | number | boolean | Mapping>> };

function axesOf(file: SweepFile, options: Map<string, OptionInfo>): Axis[] {
  const axes: Axis[] = [];
  for (const [name, values] of Object.entries(file.axes ?? {})) {
    checkName(file.kind, options, `axes.${name}`, name);
    const list = typeof values === 'string' && !STRUCTURED[file.kind]?.[name] ? expandRange(name, values) : typeof values === 'string' ? [values] : values;
    axes.push({ names: [name], rows: list.map((v) => [v]) });
  }
  (file.zip ?? []).forEach((group, i) => {
    const names = Object.keys(group);
    if (names.length === 0) throw new InputError(`zip[${i}]`, group, 'at least one axis');
    const length = group[names[0]].length;
    for (const name of names) {
      checkName(file.kind, options, `zip[${i}].${name}`, name);
      if (group[name].length !== length) throw new InputError(`zip[${i}].${name}`, `${group[name].length} values`, `${length} values, as many as ${names[0]}`);
    }
    axes.push({ names, rows: Array.from({ length }, (_, r) => names.map((n) => group[n][r])) });
  });
  if (file.repeat) {
    if (!options.has('seed')) throw new InputError('repeat.seeds', file.repeat.seeds, `a kind with a --seed option (meshwork ${file.kind} has none)`);
    axes.push({ names: ['seed'], rows: Array.from({ length: file.repeat.seeds }, (_, i) => [i + 1]) });
  }
  return axes;
}

export function pointKey(kind: SweepKind, params: Params | object, files: Record<string, FileInput> = fileInputs(params)): string {
  // Points that read no file keep the key they always had.
  const material = Object.keys(files).length === 0 ? { kind, params, version: MESHWORK_VERSION } : { kind, params, files, version: MESHWORK_VERSION };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex').slice(0, 32);
}

/** A file a point reads: where it is and what it held when the point was keyed. */
export interface FileInput {
  readonly path: string;
  readonly sha256: string;
}

/**
 * The files a point's values name (a value as typed, or after a `kind:` prefix such as `file:` or
 * `simgrid:`), by option: their absolute paths and content digests go into the point's key, so the
 * same text run from another directory, or a file edited since, is another point rather than a
 * stored one whose result came from other input.
 */
export function fileInputs(params: Params | object): Record<string, FileInput> {
  const files: Record<string, FileInput> = {};
  // A request (workload points) nests its values: their names are dotted paths.
  const visit = (name: string, value: unknown): void => {
    if (Array.isArray(value)) value.forEach((v, i) => visit(`${name}[${i}]`, v));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(name === '' ? k : `${name}.${k}`, v);
    else if (typeof value === 'string' && value !== '') {
      const colon = value.indexOf(':');
      for (const candidate of colon > 0 ? [value, value.slice(colon + 1)] : [value]) {
        const path = resolve(candidate);
        if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) continue;
        files[name] = { path, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
        break;
      }
    }
  };
  visit('', params);
  return files;
}

/**
 * Options a command requires only in some forms, checked in its action rather than by commander:
 * `traffic` needs topology, pattern and rates unless a BookSim config file supplies them.
 */
const REQUIRED_UNLESS: Partial<Record<SweepKind, { readonly names: readonly string[]; readonly unless: string }>> = {
  traffic: { names: ['topology', 'pattern', 'rates'], unless: 'booksim-config' },
};

/**
 * Defaults that do not apply when another option is given: `run --schedule FILE` times the file's own
 * collective, so run's default `--collective alltoall` would be stored (and keyed) as a point's
 * collective where it ran an allgather. Left out of such points unless the file names them.
 */
const DEFAULT_UNUSED_WITH: Partial<Record<SweepKind, { readonly option: string; readonly defaults: readonly string[] }>> = {
  run: { option: 'schedule', defaults: ['collective'] },
};

const VALUE = 'a string, a number or true/false';
const VALUES = `a list of at least one value (${VALUE})`;

/**
 * What a sweep file accepts at `path`, in our words: the schema library's own ("Invalid input",
 * "Too big: expected number to be <=100000") named no field's meaning (issue 28 item 11).
 */
function sweepAccepted(path: readonly PropertyKey[], unknownKey: boolean): string {
  const [section, , inner] = path;
  if (unknownKey) return section === 'repeat' ? 'only the key seeds in repeat' : 'only the keys kind, name, fixed, axes, zip and repeat';
  switch (section) {
    case undefined:
      return 'a YAML or JSON object with kind and fixed, axes, zip or repeat';
    case 'kind':
      return SWEEP_KINDS.join(' | ');
    case 'name':
      return 'a string';
    case 'fixed':
      return path.length === 1 ? `an object of option: value (${VALUE})` : VALUE;
    case 'axes':
      return path.length === 1 ? 'an object of option: values' : `${VALUES}, or a range "start:stop:step", "start:stop:*factor" or "start:stop:logN"`;
    case 'zip':
      return path.length === 1 ? 'a list of groups, each an object of option: values' : inner === undefined ? 'an object of option: values' : VALUES;
    case 'repeat':
      return path.length === 1 ? 'an object {seeds: N}' : 'a whole number of seeds from 1 to 100000';
    default:
      return 'a key of a sweep file';
  }
}

/**
 * A mapping is a value only of the options that take one (STRUCTURED); anywhere else it is refused
 * as the schema refused it before mappings were values, naming the same field.
 */
function refuseMappings(file: SweepFile): void {
  const structured = STRUCTURED[file.kind] ?? {};
  const refuse = (path: Array<string | number>, got: unknown): never => {
    const field = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i > 0 ? `.${p}` : p)).join('');
    throw new InputError(field, got, `${sweepAccepted(path, false)} (see schemas/sweep.schema.json)`);
  };
  const isMapping = (v: unknown): boolean => typeof v === 'object' && v !== null;
  for (const [name, v] of Object.entries(file.fixed ?? {})) if (!structured[name] && isMapping(v)) refuse(['fixed', name], v);
  for (const [name, v] of Object.entries(file.axes ?? {})) if (!structured[name] && Array.isArray(v) && v.some(isMapping)) refuse(['axes', name], v);
  (file.zip ?? []).forEach((group, i) => {
    for (const [name, v] of Object.entries(group)) if (!structured[name] && v.some(isMapping)) refuse(['zip', i, name], v);
  });
}

/**
 * Validates the file and expands it into points; throws InputError (one line) on anything wrong.
 * The kind's command must be loaded (`loadCommand`; `loadSweepFile` does it).
 */
export function expandSweep(raw: unknown, fallbackName = 'sweep'): Sweep {
  const parsed = SweepFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
    // zip[0].vcs, as the other messages of this file name fields.
    const field = path.length ? path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i > 0 ? `.${String(p)}` : String(p))).join('') : 'sweep';
    let got: unknown = raw;
    for (const p of path) got = got && typeof got === 'object' ? (got as Record<PropertyKey, unknown>)[p as PropertyKey] : undefined;
    throw new InputError(field, got, `${sweepAccepted(issue.path, issue.code === 'unrecognized_keys')} (see schemas/sweep.schema.json)`);
  }
  const file = parsed.data;
  refuseMappings(file);
  const options = commandOptions(file.kind);
  const base: Params = {};
  for (const info of options.values()) if (info.defaultValue !== undefined && !isOutput(file.kind, info.name)) base[info.name] = info.defaultValue;
  for (const [name, value] of Object.entries(file.fixed ?? {})) base[name] = normalise(file.kind, checkName(file.kind, options, `fixed.${name}`, name), `fixed.${name}`, value);
  const axes = axesOf(file, options);
  const seen = new Set(Object.keys(file.fixed ?? {}));
  for (const axis of axes) {
    for (const name of axis.names) {
      if (seen.has(name)) throw new InputError(name, name, 'each option in one place only: fixed, one axis, one zip group or repeat.seeds');
      seen.add(name);
    }
  }
  const total = axes.reduce((n, a) => n * a.rows.length, 1);
  if (total > MAX_POINTS) throw new LimitError('sweep', `${total} points`, `${MAX_POINTS.toLocaleString('en-US')} points per sweep`);
  const normalisedAxes = axes.map((a) => ({
    names: a.names,
    rows: a.rows.map((row) => row.map((v, j) => normalise(file.kind, options.get(a.names[j])!, `${a.names[j]}`, v))),
  }));
  const given = (name: string): boolean => seen.has(name) || base[name] !== undefined;
  const conditional = REQUIRED_UNLESS[file.kind];
  for (const info of options.values()) {
    if (given(info.name)) continue;
    if (info.required) throw new InputError(`fixed.${info.name}`, undefined, `a value (required by meshwork ${file.kind})`);
    if (conditional?.names.includes(info.name) && !given(conditional.unless)) {
      throw new InputError(`fixed.${info.name}`, undefined, `a value (required by meshwork ${file.kind} unless ${conditional.unless} is given)`);
    }
  }
  const points: SweepPoint[] = [];
  const keys = new Set<string>();
  // A kind whose points are RunRequests built from their options (workload) checks every point
  // here, so a bad combination (trace and generate, no topology) is refused before any point runs,
  // and keys the request itself: its defaults filled (engine, seed) and units the library's.
  const check = pointCheck(file.kind);
  const checked = new Set<string>();
  const index = new Array<number>(normalisedAxes.length).fill(0);
  for (let p = 0; p < total; p++) {
    const params: Params = { ...base };
    normalisedAxes.forEach((a, i) => a.names.forEach((n, j) => (params[n] = a.rows[index[i]][j])));
    const unused = DEFAULT_UNUSED_WITH[file.kind];
    if (unused && params[unused.option] !== undefined) for (const name of unused.defaults) if (!seen.has(name)) delete params[name];
    const sorted = Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)));
    const key = pointKey(file.kind, check ? check(sorted, checked) : sorted);
    if (!keys.has(key)) {
      keys.add(key);
      points.push({ key, kind: file.kind, params: sorted });
    }
    // Odometer over the axes, last axis fastest.
    for (let i = normalisedAxes.length - 1; i >= 0; i--) {
      if (++index[i] < normalisedAxes[i].rows.length) break;
      index[i] = 0;
    }
  }
  const paramNames = [...new Set(points.flatMap((p) => Object.keys(p.params)))].sort();
  return { name: file.name ?? fallbackName, kind: file.kind, points, paramNames };
}

/** Reads a YAML or JSON sweep file (YAML is a superset of JSON). */
/** Reads, validates and expands a sweep file, loading the command its kind runs (expandSweep needs it). */
/**
 * `onKind` is called as soon as the file names a valid kind, before the kind's command loads and
 * the points expand: `sweep run` starts its pool threads there, so they load beside the main thread.
 */
export async function loadSweepFile(path: string, onKind?: (kind: SweepKind) => void): Promise<Sweep> {
  const text = readText(path, 'sweep');
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new InputError('sweep', path, `YAML or JSON (${(err as Error).message.split('\n')[0]})`);
  }
  const base = path.replace(/^.*[/\\]/, '').replace(/\.(ya?ml|json)$/i, '');
  const kind = (raw as { kind?: unknown } | null)?.kind;
  // An unknown kind is refused by expandSweep's schema check, with the accepted ones.
  if ((SWEEP_KINDS as readonly unknown[]).includes(kind)) {
    onKind?.(kind as SweepKind);
    await loadCommand(kind as SweepKind);
  }
  return expandSweep(raw, base);
}


/** schemas/sweep.schema.json, generated from the validator so the two never disagree (a test compares them). */
export function sweepJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(SweepFileSchema) as Record<string, unknown>;
  return {
    $schema,
    $id: 'https://meshwork.dev/schemas/sweep.schema.json',
    title: 'Meshwork sweep file',
    description: 'One command kind, its fixed options and the axes that vary (docs/sweeps.md). Option names, values and units are the CLI\'s.',
    ...rest,
  };
}
