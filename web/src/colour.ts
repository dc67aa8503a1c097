/** Utilisation colours: a fixed ramp of buckets so a frame strokes one path per bucket, not per link. */
export const BUCKETS = 24;

/** Light grey-blue (idle) through yellow to dark red (saturated). */
export const BUCKET_COLOURS: readonly string[] = Array.from({ length: BUCKETS }, (_, i) => {
  const t = i / (BUCKETS - 1);
  const stops = [
    [0, [200, 208, 222]],
    [0.35, [254, 217, 118]],
    [0.7, [240, 59, 32]],
    [1, [128, 0, 38]],
  ] as const;
  let k = 0;
  while (k < stops.length - 2 && t > stops[k + 1][0]) k++;
  const [t0, c0] = stops[k];
  const [t1, c1] = stops[k + 1];
  const f = (t - t0) / (t1 - t0);
  const c = c0.map((v, j) => Math.round(v + (c1[j] - v) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
});

export function bucketOf(utilisation: number): number {
  if (!(utilisation > 0)) return 0;
  return Math.min(BUCKETS - 1, 1 + Math.floor(utilisation * (BUCKETS - 1)));
}
