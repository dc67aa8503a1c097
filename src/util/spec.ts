/**
 * The one grammar for topology, algorithm and option specs:
 *
 *   family[:positional][,key=value]...      e.g. torus:8x8,bw=25Gbps,lat=100ns
 *   family:key=value,key=value               e.g. twolevel:leaves=4,hosts=8,spines=8,uplinks=8
 *
 * The first comma-separated item after the colon that has no '=' is the positional argument.
 * Values are strings until a typed accessor reads them; every accessor validates and names the field.
 */
import { InputError } from './errors.js';
import { parseBandwidth, parseSize, parseTime } from './units.js';

export class Spec {
  readonly family: string;
  readonly positional: string | undefined;
  readonly params: ReadonlyMap<string, string>;
  /** What the user wrote, for messages and result records. */
  readonly text: string;
  private readonly read = new Set<string>();
  /** Prefix for field names in messages, e.g. "topology" gives "topology.n". */
  readonly context: string;

  constructor(family: string, positional: string | undefined, params: Map<string, string>, text: string, context: string) {
    this.family = family;
    this.positional = positional;
    this.params = params;
    this.text = text;
    this.context = context;
  }

  static parse(text: string, context = 'spec'): Spec {
    const grammar = grammarOf(context);
    if (typeof text !== 'string' || text.trim() === '') {
      throw new InputError(context, text, `a spec such as ${grammar.example}`);
    }
    const trimmed = text.trim();
    const colon = trimmed.indexOf(':');
    const family = (colon < 0 ? trimmed : trimmed.slice(0, colon)).trim().toLowerCase();
    // A trailing "+" for the alias dragonfly+ (Dragonfly+), which the topology docs name; an algorithm
    // name may start with a digit (SimGrid SMPI's 2dmesh and 3dmesh).
    const first = context.startsWith('algorithm') ? '[a-z0-9]' : '[a-z]';
    if (!new RegExp(`^${first}[a-z0-9_-]*\\+?$`).test(family)) {
      throw new InputError(context, text, `${grammar.name} of letters, digits, "-" or "_"${grammar.plus}, then optionally ":" and arguments (e.g. ${grammar.example})`);
    }
    const params = new Map<string, string>();
    let positional: string | undefined;
    if (colon >= 0) {
      const rest = trimmed.slice(colon + 1);
      for (const raw of rest.split(',')) {
        const item = raw.trim();
        // An empty item is a typo (a doubled or stray comma) and would be recorded in the result's spec.
        if (item === '') throw new InputError(context, text, `comma-separated items, none empty (e.g. ${grammar.example})`);
        const eq = item.indexOf('=');
        if (eq < 0) {
          if (positional !== undefined) {
            throw new InputError(context, text, 'at most one positional argument; write the others as key=value');
          }
          positional = item;
        } else {
          const key = item.slice(0, eq).trim();
          const value = item.slice(eq + 1).trim();
          if (key === '' || value === '') throw new InputError(context, item, 'key=value with a non-empty key and value');
          if (params.has(key)) throw new InputError(`${context}.${key}`, item, 'each key at most once');
          params.set(key, value);
        }
      }
    }
    return new Spec(family, positional, params, trimmed, context);
  }

  /** Builds a Spec from a parsed YAML/JSON object: { family, arg?, ...params }. */
  static fromObject(obj: unknown, context = 'spec'): Spec {
    if (typeof obj === 'string') return Spec.parse(obj, context);
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      throw new InputError(context, obj, 'a spec string or an object with a "family" key');
    }
    const record = obj as Record<string, unknown>;
    const family = record.family;
    if (typeof family !== 'string') throw new InputError(`${context}.family`, family, 'a family name string');
    const params = new Map<string, string>();
    let positional: string | undefined;
    for (const [key, value] of Object.entries(record)) {
      if (key === 'family') continue;
      const text = Array.isArray(value) ? value.join('x') : String(value);
      if (key === 'arg' || key === 'shape') positional = text;
      else params.set(key, text);
    }
    const rendered = [positional, ...[...params].map(([k, v]) => `${k}=${v}`)].filter((x) => x !== undefined).join(',');
    return new Spec(family.toLowerCase(), positional, params, rendered ? `${family}:${rendered}` : family, context);
  }

  field(key: string): string {
    return `${this.context}.${key}`;
  }

  has(key: string): boolean {
    return this.params.has(key);
  }

  /** Raw string value, recording that the key was consumed. */
  raw(key: string): string | undefined {
    this.read.add(key);
    return this.params.get(key);
  }

  /** First present key among aliases (e.g. "B" and "b"). */
  rawAny(keys: readonly string[]): { key: string; value: string } | undefined {
    for (const key of keys) {
      this.read.add(key);
      const value = this.params.get(key);
      if (value !== undefined) return { key, value };
    }
    return undefined;
  }

  int(key: string, opts: { min?: number; max?: number; default?: number; aliases?: readonly string[] } = {}): number {
    const found = this.rawAny([key, ...(opts.aliases ?? [])]);
    if (found === undefined) {
      if (opts.default !== undefined) return opts.default;
      throw new InputError(this.field(key), undefined, `an integer${rangeText(opts)} (required)`);
    }
    return parseIntValue(found.value, this.field(found.key), opts);
  }

  number(key: string, opts: { min?: number; max?: number; default?: number; exclusiveMin?: boolean } = {}): number {
    const value = this.raw(key);
    if (value === undefined) {
      if (opts.default !== undefined) return opts.default;
      throw new InputError(this.field(key), undefined, 'a number (required)');
    }
    // Decimal only, as every option (isDecimal): Number() also read taper=0x2 and osprob=0x1.
    const x = isDecimal(value) ? Number(value) : NaN;
    const tooLow = opts.min !== undefined && (opts.exclusiveMin ? x <= opts.min : x < opts.min);
    if (!Number.isFinite(x) || tooLow || (opts.max !== undefined && x > opts.max)) {
      const range = opts.exclusiveMin ? `${opts.min === undefined ? '' : ` > ${opts.min}`}${opts.max === undefined ? '' : ` and <= ${opts.max}`}` : rangeText(opts);
      throw new InputError(this.field(key), value, `a number${range}`);
    }
    return x;
  }

  choice<T extends string>(key: string, choices: readonly T[], defaultValue?: T): T {
    const value = this.raw(key);
    if (value === undefined) {
      if (defaultValue !== undefined) return defaultValue;
      throw new InputError(this.field(key), undefined, `one of ${choices.join(', ')} (required)`);
    }
    if (!(choices as readonly string[]).includes(value)) throw new InputError(this.field(key), value, `one of ${choices.join(', ')}`);
    return value as T;
  }

  bool(key: string, defaultValue: boolean): boolean {
    const value = this.raw(key);
    if (value === undefined) return defaultValue;
    if (['on', 'true', 'yes', '1'].includes(value)) return true;
    if (['off', 'false', 'no', '0'].includes(value)) return false;
    throw new InputError(this.field(key), value, 'on/off, true/false, yes/no or 1/0');
  }

  bandwidth(key: string, defaultValue?: number): number | undefined {
    const value = this.raw(key);
    return value === undefined ? defaultValue : parseBandwidth(value, this.field(key));
  }

  time(key: string, defaultValue?: number): number | undefined {
    const value = this.raw(key);
    return value === undefined ? defaultValue : parseTime(value, this.field(key));
  }

  size(key: string, defaultValue?: number): number | undefined {
    const value = this.raw(key);
    return value === undefined ? defaultValue : parseSize(value, this.field(key));
  }

  /** Throws on any key no accessor consumed: typos must not be silently ignored. */
  assertAllRead(): void {
    for (const key of this.params.keys()) {
      if (!this.read.has(key)) {
        const known = [...this.read].sort();
        throw new InputError(this.field(key), this.params.get(key), known.length ? `keys ${known.join(', ')}` : 'no keys for this family');
      }
    }
  }
}

function rangeText(opts: { min?: number; max?: number }): string {
  if (opts.min !== undefined && opts.max !== undefined) return ` from ${opts.min} to ${opts.max}`;
  if (opts.min !== undefined) return ` >= ${opts.min}`;
  if (opts.max !== undefined) return ` <= ${opts.max}`;
  return '';
}

/** A plain decimal number (1, -2.5, 1e-12): not the 0x10, 0b11, 1_0 or Infinity that Number() also reads. */
export function isDecimal(text: string): boolean {
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text.trim());
}

export function parseIntValue(value: string, field: string, opts: { min?: number; max?: number } = {}): number {
  if (!/^-?[0-9]+$/.test(value.trim())) throw new InputError(field, value, `an integer${rangeText(opts)}`);
  const x = Number(value);
  if (!Number.isSafeInteger(x) || (opts.min !== undefined && x < opts.min) || (opts.max !== undefined && x > opts.max)) {
    throw new InputError(field, value, `an integer${rangeText(opts)}`);
  }
  return x;
}

/** Parses "8x8x8" into [8, 8, 8]. */
export function parseDims(text: string | undefined, field: string, opts: { min?: number; max?: number } = {}): number[] {
  if (text === undefined || !/^[0-9]+(x[0-9]+)*$/i.test(text.trim())) {
    throw new InputError(field, text, 'dimensions such as 8, 8x8 or 4x4x4 (positive integers joined by "x")');
  }
  return text
    .trim()
    .toLowerCase()
    .split('x')
    .map((part) => parseIntValue(part, field, { min: opts.min ?? 1, max: opts.max }));
}

/**
 * The words of a spec's refusal: the grammar is shared, but an algorithm's refusal must not offer
 * a topology as the example (--algorithm 0 was told of "dragonfly+" and torus:8x8).
 */
function grammarOf(context: string): { name: string; example: string; plus: string } {
  if (context.startsWith('algorithm')) return { name: 'an algorithm name', example: 'ring or hop-grouped:dir=shortest', plus: '' };
  return { name: 'a family name', example: 'torus:8x8 or family:key=value,...', plus: ' (or dragonfly+)' };
}
