/**
 * Knuth's lagged-Fibonacci generator `ran_array` (The Art of Computer Programming, vol. 2,
 * Seminumerical Algorithms, 3rd edition, section 3.6, with the 9th-printing (2002) initialisation;
 * Knuth's own rng.c is in the public domain). BookSim 2.0 draws its random integers from it
 * (random_utils.hpp: `RandomInt(max) = ran_arr_next() % (max + 1)`), so reproducing one of BookSim's
 * deterministic draws — the permutation of `traffic = randperm` with its `perm_seed` — needs this
 * exact stream, not Meshwork's own generator (util/rng.ts).
 *
 * `next()` is Knuth's `ran_arr_next()` (exercise 3.6–15): each refill runs `ran_array` over
 * QUALITY = 1009 numbers and hands out the first KK = 100 of them.
 */
const KK = 100; // the long lag
const LL = 37; // the short lag
const MM = 2 ** 30; // the modulus
const TT = 70; // guaranteed separation between streams
const QUALITY = 1009;

const modDiff = (x: number, y: number): number => (x - y) & (MM - 1);

export class KnuthRanArray {
  /** The generator state (Knuth's ran_x). */
  private readonly x = new Array<number>(KK).fill(0);
  private buf: number[] = [];
  private ptr = KK; // past the usable part of buf: the next call refills

  /** Knuth's `ran_start(seed)`. */
  constructor(seed: number) {
    const x = new Array<number>(KK + KK - 1).fill(0);
    let ss = (seed + 2) & (MM - 2);
    for (let j = 0; j < KK; j++) {
      x[j] = ss; // bootstrap the buffer
      ss *= 2;
      if (ss >= MM) ss -= MM - 2; // cyclic shift 29 bits
    }
    x[1]++; // make x[1] (and only x[1]) odd
    let t = TT - 1;
    for (ss = seed & (MM - 1); t; ) {
      for (let j = KK - 1; j > 0; j--) {
        x[j + j] = x[j]; // "square"
        x[j + j - 1] = 0;
      }
      for (let j = KK + KK - 2; j >= KK; j--) {
        x[j - (KK - LL)] = modDiff(x[j - (KK - LL)], x[j]);
        x[j - KK] = modDiff(x[j - KK], x[j]);
      }
      if (ss & 1) {
        // "multiply by z": shift the buffer cyclically
        for (let j = KK; j > 0; j--) x[j] = x[j - 1];
        x[0] = x[KK];
        x[LL] = modDiff(x[LL], x[KK]);
      }
      if (ss) ss >>>= 1;
      else t--;
    }
    for (let j = 0; j < LL; j++) this.x[j + KK - LL] = x[j];
    for (let j = LL; j < KK; j++) this.x[j - LL] = x[j];
    for (let j = 0; j < 10; j++) this.array(KK + KK - 1); // warm things up
  }

  /** Knuth's `ran_array(aa, n)`: n (≥ KK) new numbers in [0, 2^30). */
  array(n: number): number[] {
    if (n < KK) throw new RangeError(`ran_array needs n >= ${KK}`);
    const a = new Array<number>(n);
    let j = 0;
    for (; j < KK; j++) a[j] = this.x[j];
    for (; j < n; j++) a[j] = modDiff(a[j - KK], a[j - LL]);
    let i = 0;
    for (; i < LL; i++, j++) this.x[i] = modDiff(a[j - KK], a[j - LL]);
    for (; i < KK; i++, j++) this.x[i] = modDiff(a[j - KK], this.x[i - LL]);
    return a;
  }

  /** Knuth's `ran_arr_next()`: the next number in [0, 2^30). */
  next(): number {
    if (this.ptr >= KK) {
      this.buf = this.array(QUALITY);
      this.ptr = 0;
    }
    return this.buf[this.ptr++];
  }

  /** BookSim's `RandomInt(max)`: an integer in [0, max]. */
  int(max: number): number {
    return this.next() % (max + 1);
  }
}

/**
 * BookSim 2.0's `randperm` permutation (traffic.cpp RandomPermutationTrafficPattern::randomize):
 * the generator restarted from `permSeed`, then node i, for i = 0, 1, ..., becomes the destination
 * of the source in the (RandomInt(N − 1 − i))-th slot still free. dest[src] for every source; it
 * depends on the node count and `permSeed` only, not on the run's seed.
 */
export function bookSimRandomPermutation(nodes: number, permSeed: number): Int32Array {
  const rng = new KnuthRanArray(permSeed);
  const dest = new Int32Array(nodes).fill(-1);
  for (let i = 0; i < nodes; i++) {
    const ind = rng.int(nodes - 1 - i);
    let j = 0;
    for (let cnt = 0; cnt < ind || dest[j] !== -1; j++) if (dest[j] === -1) cnt++;
    dest[j] = i;
  }
  return dest;
}
