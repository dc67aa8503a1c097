/** Small helpers shared by the classic algorithms (rank arithmetic and segmenting). */
import { DTYPE_BYTES } from '../types.js';
import type { Algorithm, AlgorithmContext } from '../registry.js';

/** Registration fields of an algorithm that takes no parameters and runs on any rank count and topology. */
export const UNRESTRICTED = {
  supportsText: 'any rank count and topology',
  params: [],
  supports: () => undefined,
} as const satisfies Pick<Algorithm, 'supportsText' | 'params' | 'supports'>;

/** Boundaries of `parts` nearly equal segments of `bytes`, cut on `unit`-byte boundaries: segment i is [b[i], b[i+1]). */
export function segmentBounds(bytes: number, parts: number, unit = 1): number[] {
  const units = Math.floor(bytes / unit);
  const base = Math.floor(units / parts);
  const extra = units % parts;
  const b = [0];
  for (let i = 0; i < parts; i++) b.push(b[i] + (base + (i < extra ? 1 : 0)) * unit);
  return b;
}

/** Element size for reductions (1 byte for data movement). */
export function unitOf(ctx: AlgorithmContext): number {
  return ['reduce', 'allreduce', 'reduce-scatter'].includes(ctx.collective) ? DTYPE_BYTES[ctx.dtype] : 1;
}

export function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

/** Maps rank v relative to `root` (v = 0 is the root) to the global rank. */
export function rootRelative(root: number, n: number): (v: number) => number {
  return (v) => mod(v + root, n);
}

/** Blocks r, r+1, ..., n-1, 0, ..., r-1 of `buf` as extents: the buffer rotated to start at block r (at most two pieces). */
export function rotatedBlocks(buf: number, r: number, n: number, B: number): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [[buf, r * B, (n - r) * B]];
  if (r > 0) out.push([buf, 0, r * B]);
  return out;
}

export function lowBit(v: number): number {
  return v & -v;
}

/** Steps of a Bruck algorithm over n ranks: k = 1, 2, 4, ... below n (ceil(log2 n)). */
export function bruckSteps(n: number): number {
  let steps = 0;
  for (let k = 1; k < n; k <<= 1) steps++;
  return steps;
}

/** Largest power of two <= n. */
export function floorPow2(n: number): number {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

/**
 * Open MPI's reduce-scatter fold of n ranks onto p2 = floorPow2(n) virtual ones (butterfly, basic
 * recursive halving): the first 2·rem ranks pair up, the odd one of each pair carries on. Virtual
 * block v's first real block (v < rem: blocks 2v and 2v + 1), and a virtual rank's real rank.
 */
export function openMpiFold(n: number): { p2: number; rem: number; realBlock: (v: number) => number; realRank: (v: number) => number } {
  const p2 = floorPow2(n);
  const rem = n - p2;
  return { p2, rem, realBlock: (v) => (v < rem ? 2 * v : rem + v), realRank: (v) => (v < rem ? 2 * v + 1 : v + rem) };
}

/** Smallest power of two >= n. */
export function ceilPow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
