/**
 * Array helpers that never spread an array into call arguments: `f(...xs)` puts every element on
 * the stack and throws "Maximum call stack size exceeded" somewhere above ~100K elements, which a
 * 40x40x40 torus reaches. The lint rule `no-restricted-syntax` (SpreadElement in a call) keeps
 * spreads out of src/; these loops replace them.
 */

/** Appends every item of `items` to `target` (bounded stack, unlike `target.push(...items)`). */
export function appendAll<T>(target: T[], items: ArrayLike<T>): T[] {
  for (let i = 0; i < items.length; i++) target.push(items[i]);
  return target;
}

/** The largest value, or `empty` for no values (Math.max() of nothing is -Infinity). */
export function maxOf(values: ArrayLike<number>, empty = -Infinity): number {
  let best = values.length === 0 ? empty : -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i] > best) best = values[i];
  return best;
}

/** The smallest value, or `empty` for no values. */
export function minOf(values: ArrayLike<number>, empty = Infinity): number {
  let best = values.length === 0 ? empty : Infinity;
  for (let i = 0; i < values.length; i++) if (values[i] < best) best = values[i];
  return best;
}

/**
 * Orders strings by UTF-16 code units, the same on every machine: `localeCompare` follows the
 * user's locale (Danish sorts "aa" after "z"), so a table or a tie-break sorted by it changed with LANG.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
