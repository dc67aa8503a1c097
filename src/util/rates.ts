/** Injection-rate lists as the CLI and the web app take them (platform-neutral). */
import { InputError } from './errors.js';
import { isDecimal } from './spec.js';

/** Load points of one curve, however written (a range, a list, a saved request): each is a whole simulation. */
export const MAX_RATES = 1000;

/** "a:b:step" (inclusive) or "r1,r2,..."; every rate in (0, 1]. */
export function parseRates(text: string): number[] {
  const bad = (): never => {
    throw new InputError('rates', text, 'start:stop:step or a comma list of rates in (0, 1] flits/node/cycle');
  };
  let rates: number[];
  if (text.includes(':')) {
    const parts = text.split(':').map((x) => (isDecimal(x) ? Number(x) : NaN));
    if (parts.length !== 3 || parts.some((x) => !Number.isFinite(x))) bad();
    const [a, b, s] = parts;
    if (!(s > 0) || b < a) bad();
    const n = Math.floor((b - a) / s + 1e-9) + 1;
    if (n > MAX_RATES) throw new InputError('rates', text, `at most ${MAX_RATES} load points`);
    rates = Array.from({ length: n }, (_, i) => Math.round((a + i * s) * 1e9) / 1e9);
  } else {
    rates = text.split(',').map((x) => (isDecimal(x) ? Number(x) : NaN));
    if (rates.length > MAX_RATES) throw new InputError('rates', `${rates.length} rates`, `at most ${MAX_RATES} load points`);
  }
  for (const r of rates) {
    // An entry that is not a number (NaN, "", 1e309) is shown as the list the user typed.
    if (!Number.isFinite(r)) bad();
    if (!(r > 0 && r <= 1)) throw new InputError('rates', r, 'injection rates in (0, 1] flits/node/cycle');
  }
  return rates;
}
