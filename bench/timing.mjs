// Shared by the *.bench.mjs files (bench/run.mjs loads only those, so this file is not a bench).

/** Runs fn and returns its value with the wall seconds it took. */
export function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, seconds: (performance.now() - t0) / 1000 };
}
