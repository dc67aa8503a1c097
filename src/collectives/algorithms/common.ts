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
/** The most segments a segmented algorithm cuts a buffer into (its schedule holds one message per segment per hop). */
export const MAX_SEGMENTS = 1 << 20;

/** Why a buffer of `size` bytes in `segment`-byte segments is too many (0: unsegmented), or undefined when it fits. */
export function segmentLimit(size: number, segment: number): string | undefined {
  return segment > 0 && size / segment > MAX_SEGMENTS ? `at most 2^20 segments, got size ${size} / segment ${segment}` : undefined;
}

/**
 * SimGrid SMPI's grid of n ranks for its 2dmesh algorithms (is_2dmesh, alltoall_check_is_2dmesh):
 * [X, Y] with X ≤ Y, X · Y = n, from the first divisor between ⌊√n⌋ and n / 2; undefined where it finds none.
 */
export function smpi2dMesh(n: number): [number, number] | undefined {
  for (let x = Math.floor(Math.sqrt(n)); x <= Math.floor(n / 2); x++) if (n % x === 0) return x <= n / x ? [x, n / x] : [n / x, x];
  return undefined;
}

/** SMPI's grid for its 3dmesh algorithms (is_3dmesh, alltoall_check_is_3dmesh): [X, X, Z], the first x from ⌊∛n⌋ to n / 3 whose square divides n; undefined where none does. */
export function smpi3dMesh(n: number): [number, number, number] | undefined {
  for (let x = Math.floor(Math.cbrt(n)); x <= Math.floor(n / 3); x++) if (n % (x * x) === 0) return [x, x, n / (x * x)];
  return undefined;
}

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

/**
 * MPICH's recursive-doubling allgather over n ranks (allgather_rdb; SimGrid SMPI's allgather `rdb`
 * and the allgather half of bcast `scatter_rdb_allgather`), in any unit: rank v starts holding
 * `initial[v]` units of its own piece. In step `mask` rank v swaps what it holds, the contiguous
 * pieces from its subtree root on, with v XOR mask (a partner past n is skipped); where n is not a
 * power of two, the ranks of a subtree whose partner subtree is cut short pass what they lack down
 * a binomial tree inside the subtree (tmp_mask), from those that received it. Amounts follow
 * MPICH's curr_count and last_recv_count, which size every message. `swap` and `pass` name the
 * first piece (a relative rank) of what moves and its amount.
 */
export function mpichRecursiveDoublingAllgather(
  n: number,
  initial: readonly number[],
  swap: (v: number, partner: number, ownFirst: number, ownAmount: number, partnerFirst: number, partnerAmount: number) => void,
  pass: (from: number, to: number, first: number, amount: number) => void,
): void {
  const held = initial.slice();
  const lastReceived = new Array<number>(n).fill(0);
  for (let mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    const rootOf = (v: number) => (v >> i) << i;
    const before = held.slice();
    for (let v = 0; v < n; v++) {
      const p = v ^ mask;
      if (p >= n) continue;
      swap(v, p, rootOf(v), before[v], rootOf(p), before[p]);
      lastReceived[v] = before[p];
      held[v] += before[p];
    }
    for (let tmpMask = mask >> 1, k = i; tmpMask > 0; tmpMask >>= 1, k--) {
      const moves: Array<[number, number]> = [];
      for (let v = 0; v < n; v++) {
        if (rootOf(v ^ mask) + mask <= n) continue;
        const completed = n - rootOf(v) - mask;
        const dst = v ^ tmpMask;
        const treeRoot = (v >> k) << k;
        if (dst > v && dst < n && v < treeRoot + completed && dst >= treeRoot + completed) moves.push([v, dst]);
      }
      for (const [from, to] of moves) {
        const amount = lastReceived[from];
        pass(from, to, rootOf(from) + mask, amount);
        lastReceived[to] = amount;
        held[to] += amount;
      }
    }
  }
}
