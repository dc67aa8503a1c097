/**
 * Sizes of a topology read from its spec, without building it (issue 16, item 10: a refusal of
 * torus:4096x4096 came after 29 s and 5 GB of building). Covers the Cartesian families, whose
 * size is a product of the spec's numbers; other specs return undefined and are checked after
 * building as before. Counts are exact for these families (one channel per direction per link).
 */
export interface SizeEstimate {
  readonly nodes: number;
  readonly endpoints: number;
  readonly channels: number;
}

/** Directed channels of one axis of length k over `nodes` nodes: wrap adds the closing link. */
function axisChannels(k: number, nodes: number, wrap: boolean): number {
  if (k <= 1) return 0;
  const links = wrap ? (k === 2 ? 1 : k) : k - 1;
  return (2 * links * nodes) / k;
}

/** A Cartesian family's spec split into family, the positional numbers and the key=value rest (",bw=..."). */
export interface CartesianSpec {
  readonly family: 'mesh' | 'torus' | 'ring' | 'uring' | 'hypercube';
  readonly numbers: readonly number[];
  readonly rest: string;
}

export function parseCartesianSpec(specText: string): CartesianSpec | undefined {
  const m = /^\s*(mesh|torus|ring|uring|hypercube):([0-9x]+)\s*((,.*)?)$/is.exec(specText);
  if (!m) return undefined;
  const numbers = m[2].split('x').map(Number);
  if (numbers.some((d) => !Number.isSafeInteger(d) || d < 1)) return undefined;
  return { family: m[1].toLowerCase() as CartesianSpec['family'], numbers, rest: m[3] };
}

export function estimateSpecSize(specText: string): SizeEstimate | undefined {
  const parsed = parseCartesianSpec(specText);
  if (!parsed) return undefined;
  const { family, numbers } = parsed;
  if (family === 'hypercube') {
    const d = numbers[0];
    if (numbers.length !== 1 || d > 60) return undefined;
    const nodes = 2 ** d;
    return { nodes, endpoints: nodes, channels: nodes * d };
  }
  const dims = family === 'ring' || family === 'uring' ? numbers.slice(0, 1) : numbers;
  let nodes = 1;
  for (const k of dims) nodes *= k;
  let channels = 0;
  for (const k of dims) channels += axisChannels(k, nodes, family !== 'mesh');
  if (family === 'uring') channels /= 2;
  return { nodes, endpoints: nodes, channels };
}
