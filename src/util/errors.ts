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
    super(`${field}: got ${shown}; accepted: ${accepted}`);
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

function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return '(nothing)';
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return String(value);
    return json.length > 80 ? `${json.slice(0, 77)}...` : json;
  } catch {
    return String(value);
  }
}
