/** Flat-array helpers shared by the growable columns of builders, schedules and engines. */

export type TypedArray = Int8Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** A new array of the same type and `length`, holding the first min(old, new) entries of `array`. */
export function resized<T extends TypedArray>(array: T, length: number): T {
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array.subarray(0, Math.min(array.length, length)) as never);
  return next;
}
