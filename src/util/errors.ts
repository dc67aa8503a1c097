/**
 * Errors that come from what a user typed or supplied. The CLI turns these into one line
 * ("error: <field>: got <value>; accepted: <accepted>") and exit code 2; anything else is a bug.
 */
export class InputError extends Error {
  readonly field: string;
  readonly value: string;
  readonly accepted: string;

  constructor(field: string, value: unknown, accepted: string) {
    const shown = formatValue(value);
    super(`${cut(field)}: got ${shown}; accepted: ${accepted}`);
    this.name = 'InputError';
    this.field = field;
    this.value = shown;
    this.accepted = accepted;
  }
}

/** A request that is well-formed but larger than Meshwork will attempt; names the limit. */
export class LimitError extends InputError {
  constructor(field: string, value: unknown, limit: string) {
    super(field, value, `at most ${limit}`);
    this.name = 'LimitError';
  }
}

/**
 * A valid request that one algorithm does not support (its topology, rank count or size): the
 * algorithm's own refusal (`Algorithm.supports`). `compare` skips that algorithm with the reason;
 * every other InputError is the request's and refuses the whole comparison.
 */
export class NotApplicableError extends InputError {
  constructor(field: string, value: unknown, accepted: string) {
    super(field, value, accepted);
    this.name = 'NotApplicableError';
  }
}

/**
 * A valid input the model cannot run to completion: a schedule that deadlocks under the chosen
 * protocol (a linear alltoall whose blocking rendezvous sends wait for receives posted after
 * them). Not bad input: the CLI exits 3, not 2 (issue 28 item 1), and `compare` lists the
 * algorithm as failed beside the others.
 */
export class UnrunnableError extends InputError {
  constructor(field: string, value: unknown, accepted: string) {
    super(field, value, accepted);
    this.name = 'UnrunnableError';
  }
}

/**
 * An optional package a feature needs is not installed (issue 28 item 22: the sweep store, the
 * queue and the plots load DuckDB, BullMQ and Vega on use, so a library user installs none of them).
 */
export class MissingDependencyError extends Error {
  constructor(
    readonly packages: readonly string[],
    readonly feature: string,
  ) {
    super(`${feature} needs the optional package${packages.length > 1 ? 's' : ''} ${packages.join(' and ')}, which ${packages.length > 1 ? 'are' : 'is'} not installed: npm install ${packages.join(' ')}`);
    this.name = 'MissingDependencyError';
  }
}

/** Values are cut at about 80 characters: a 100,000-character key must not fill the terminal. */
const MAX_SHOWN = 80;

function cut(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 3)}...` : text;
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(cut(value));
  if (value === undefined) return '(nothing)';
  // JSON.stringify writes NaN and ±Infinity as null, which is not what the user typed.
  if (typeof value === 'number') return String(value);
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
    if (json === undefined) return String(value);
    return cut(json);
  } catch {
    // JSON.stringify and String both recurse: a value nested 100,000 deep overflows the stack in
    // either, and the error message must still be built (issue 28 item 3).
    try {
      return cut(String(value));
    } catch {
      return Array.isArray(value) ? '(an array nested too deeply to show)' : `(a ${typeof value} too deeply nested to show)`;
    }
  }
}

/**
 * The text a parser reads, from a library caller who may pass anything: one refusal naming the
 * field instead of a TypeError from deep inside the parser.
 */
export function requireText(value: unknown, field: string, what: string): string {
  if (typeof value !== 'string') throw new InputError(field, value, `${what} (a string)`);
  return value;
}

/** An options object from a library caller: refused in one line unless it is a plain object. */
export function requireRecord<T>(value: T, field: string, what: string): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError(field, value, what);
  return value;
}

/**
 * Refuses, in one line naming the field, a registry entry a JavaScript caller built wrong: not an
 * object, a name that is not a plain word (specs split on ':' and ','), or a missing function.
 */
export function checkRegistryEntry(kind: string, entry: unknown, functions: readonly string[]): void {
  if (typeof entry !== 'object' || entry === null) throw new InputError(kind, entry, `an object { name, ${functions.join(', ')}, ... }`);
  const e = entry as Record<string, unknown>;
  if (typeof e.name !== 'string' || !/^[A-Za-z0-9_.+-]+$/.test(e.name)) throw new InputError(`${kind}.name`, e.name, 'a name of letters, digits and _ . + - (no spaces, colons or commas: specs split on them)');
  for (const f of functions) if (typeof e[f] !== 'function') throw new InputError(`${kind}.${f}`, e[f], 'a function');
}
