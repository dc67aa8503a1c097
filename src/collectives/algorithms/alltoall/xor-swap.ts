/**
 * alltoall `xor-swap` (seed 002, US 8,775,698; spec/seed002_003_ibm.md part A): an in-place
 * transpose with no second buffer. For every pair j < i (0-based), element i of buffer j (x, on
 * rank j) and element j of buffer i (y, on rank i) are exchanged by the XOR swap x ^= y; y ^= x;
 * x ^= y, each XOR being one bitwise-XOR allreduce over the whole group on the combining network
 * (A1 "three bitwise XOR allreduce operations"; A3.4). Ranks j and i contribute x and y; all others
 * contribute the identity (region −1). Only the rank that stores the result (j, i, j: A3.4
 * "stored by") receives it; the other contributes without storing (result region −1).
 * 3·n(n−1)/2 group-wide allreduces: refused above 256 ranks.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, ScheduleBuilder } from '../../schedule.js';

export const XOR_SWAP_MAX_RANKS = 256;

/** Swap pairs (i, j), i > j, in the order the schedule performs them: (1,0), (2,0), (2,1), ... */
export function xorSwapPairs(n: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) out.push([i, j]);
  return out;
}

/**
 * The XOR swap of element i of buffer j (on rank j) with element j of buffer i (on rank i), as the
 * first `allreduces` (default all 3) of its bitwise-XOR allreduces over `group` (every rank).
 */
export function emitXorSwapPair(b: ScheduleBuilder, i: number, j: number, group: number, allreduces = 3): void {
  const x = b.block(RECV, i); // element i of buffer j, on rank j
  const y = b.block(RECV, j); // element j of buffer i, on rank i
  // Who stores each of the three results: x, y, x (A3.4 "stored by").
  for (const storeAtJ of [true, false, true].slice(0, allreduces)) {
    for (let r = 0; r < b.numRanks; r++) {
      // Contribute the element; store the result in it, or discard it (result region -1).
      if (r === j) b.hw(r, 'allreduce', 'bxor', x, group, 0, storeAtJ ? x : -1);
      else if (r === i) b.hw(r, 'allreduce', 'bxor', y, group, 0, storeAtJ ? -1 : y);
      else b.hw(r, 'allreduce', 'bxor', -1, group, 0, -1);
    }
  }
}

registerAlgorithm({
  name: 'xor-swap',
  collective: 'alltoall',
  description: 'seed 002: in place, three XOR allreduces on the combining network per pair (no second buffer)',
  supportsText: `any topology, at most ${XOR_SWAP_MAX_RANKS} ranks (3·n(n−1)/2 group-wide allreduces)`,
  source: 'seed 002 (US 8,775,698)',
  params: [],
  supports(ctx) {
    if (ctx.ranks > XOR_SWAP_MAX_RANKS) return `${ctx.ranks} ranks need ${(3 * ctx.ranks * (ctx.ranks - 1)) / 2} allreduces; the limit is ${XOR_SWAP_MAX_RANKS} ranks`;
    return undefined;
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ inPlace: true, expectedOps: 3 * n * ((n * (n - 1)) / 2) + 1 });
    const all = b.group(Array.from({ length: n }, (_, r) => r));
    for (const [i, j] of xorSwapPairs(n)) emitXorSwapPair(b, i, j, all);
    return b.finish();
  },
});
