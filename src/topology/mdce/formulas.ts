/**
 * The closed forms of seed 004 (spec/seed004_mdce.md §3), numbered as in the paper, and the rules
 * that reproduce Table 1's entries for the other networks (spec §3.5; the paper gives no formula for
 * those, the rules are the spec's inference). Mean distances average over all N² ordered pairs,
 * self-pairs included, which is the convention under which Eqs. (2), (3) and (6) are exact.
 */
import { InputError } from '../../util/errors.js';

function checkBits(n: number, field = 'n'): void {
  if (!Number.isInteger(n) || n < 1 || n > 60) throw new InputError(field, n, 'an integer from 1 to 60');
}

/** Eq. (1), diameter of a complete (B, C)-MDCE; also DCEs: c-Banyan (1, 0) → 2n−1, CCC (0, 1) → 3n−2. */
export function eq1Diameter(n: number, B: number, C: number): number {
  checkBits(n);
  if (B + C < 1) throw new InputError('B', `B=${B},C=${C}`, 'B + C >= 1');
  return B > 0 ? (B + C + 1) * n - 1 : (C + 2) * n - 2;
}

/** Eq. (2), c-Banyan mean distance, closed form 3(n−1)/2 + 1/2^n. */
export function eq2CBanyanMean(n: number): number {
  checkBits(n);
  return 1.5 * (n - 1) + 2 ** -n;
}

/** Eq. (2) as the paper's sum: (1/2^n) Σ_{j<n} (j+1)·2^j + (n−1)/2. */
export function eq2CBanyanMeanSum(n: number): number {
  checkBits(n);
  let sum = 0;
  for (let j = 0; j < n; j++) sum += (j + 1) * 2 ** j;
  return sum / 2 ** n + (n - 1) / 2;
}

/** Eq. (3), CCC mean distance, closed form 2n − 5/2 + 1/2^(n−1). */
export function eq3CccMean(n: number): number {
  checkBits(n);
  return 2 * n - 2.5 + 2 ** -(n - 1);
}

/** Eq. (3) as the paper's sum: (1/2^n) Σ_{j<n} (3j/2 + 1)·2^j + (n−1)/2. */
export function eq3CccMeanSum(n: number): number {
  checkBits(n);
  let sum = 0;
  for (let j = 0; j < n; j++) sum += (1.5 * j + 1) * 2 ** j;
  return sum / 2 ** n + (n - 1) / 2;
}

function binomial(a: number, b: number): number {
  if (b < 0 || b > a) return 0;
  let r = 1;
  for (let i = 1; i <= b; i++) r = (r * (a - b + i)) / i;
  return r;
}

/**
 * Eq. (5): patterns of the B c-Banyan coordinates' differing bits whose largest per-position count
 * is k, reached last at (1-based, source-relative) position i (spec §3.4 reading of i).
 */
export function eq5g(n: number, B: number, k: number, i: number): number {
  let atMostK = 0;
  for (let j = 0; j <= k; j++) atMostK += binomial(B, j);
  let belowK = 0;
  for (let j = 0; j <= k - 1; j++) belowK += binomial(B, j);
  return atMostK ** (i - 1) * binomial(B, k) * belowK ** (n - i);
}

/**
 * Eq. (6), (B, C)-MDCE mean distance, with the misprinted 2^{nb} read as 2^{nB} (spec §9 item 5).
 * Exact for C = 0; underestimates when C > 0 (it drops CCC hops, spec §3.4). Needs B ≥ 1.
 */
export function eq6MdceMean(n: number, B: number, C: number): number {
  checkBits(n);
  if (!Number.isInteger(B) || B < 1) throw new InputError('B', B, 'B >= 1 (Eq. (6) collapses to (n-1)/2 for B = 0)');
  if (!Number.isInteger(C) || C < 0) throw new InputError('C', C, 'an integer >= 0');
  let sum = 0;
  for (let k = 1; k <= Math.min(n, B); k++) {
    for (let i = 1; i <= n; i++) sum += ((k - 1) * n + i + (n * C) / 2) * eq5g(n, B, k, i);
  }
  return sum / 2 ** (n * B) + (n - 1) / 2;
}

/**
 * The paper's value for a DCE with one added stage (Table 1's 8×128 and 16×32768, spec §3.5): Eq. (2)
 * or (3) at the complete network's n plus exactly 1, i.e. the half-ring term becomes (n+1)/2.
 */
export function extraStageRule(n: number, delta: 0 | 1): number {
  return (delta === 1 ? eq2CBanyanMean(n) : eq3CccMean(n)) + 1;
}

/** Table 1's 2-D mesh rule (a+b)/2, generalised to Σ k_i/2 (spec §3.5; about 1.5× the exact mean). */
export function meshRule(dims: readonly number[]): number {
  return dims.reduce((s, k) => s + k / 2, 0);
}

/** Table 1's torus rule Σ k_i/4 (spec §3.5; exact for even radices over N² pairs). */
export function torusRule(dims: readonly number[]): number {
  return dims.reduce((s, k) => s + k / 4, 0);
}

/** Table 1's binary fat-tree rule 2L − 3 for L levels (switches traversed; spec §3.5). */
export function fatTreeRule(levels: number): number {
  return 2 * levels - 3;
}

/** Table 1's omega rule: log2 N stages (switches traversed). */
export function omegaRule(terminals: number): number {
  return Math.log2(terminals);
}

/** Exact mean Manhattan distance of a mesh over N² pairs: Σ (k²−1)/(3k). */
export function meshExactMean(dims: readonly number[]): number {
  return dims.reduce((s, k) => s + (k * k - 1) / (3 * k), 0);
}

/** Exact mean distance of a bidirectional torus over N² pairs: Σ k/4 (even k) or (k²−1)/(4k) (odd k). */
export function torusExactMean(dims: readonly number[]): number {
  return dims.reduce((s, k) => s + (k % 2 === 0 ? k / 4 : (k * k - 1) / (4 * k)), 0);
}

/**
 * Exact mean over N² terminal pairs of a complete binary fat tree with L switch levels, counting
 * switches traversed: a pair whose lowest common switch is at level l crosses 2l − 1 switches, and
 * each terminal has 2^(l−1) partners at level l, so the mean is 2L − 3 + 3·2^−L; self-pairs count 0.
 */
export function fatTreeExactMean(levels: number): number {
  return 2 * levels - 3 + 3 * 2 ** -levels;
}

/**
 * Exact mean over N² pairs of the omega MIN as Meshwork models it (each PE one terminal node, src/topology/omega.ts):
 * distinct PEs are log2 N switches apart, a PE is 0 from itself, so log2 N·(N−1)/N.
 */
export function omegaExactMean(terminals: number): number {
  return (Math.log2(terminals) * (terminals - 1)) / terminals;
}
