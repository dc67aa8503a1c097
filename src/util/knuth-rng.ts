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
import type { RandomStream } from './rng.js';

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

const modSum = (x: number, y: number): number => {
  const s = x + y;
  return s - Math.trunc(s);
};

/**
 * Knuth's floating-point lagged-Fibonacci generator `ranf_array` (rng-double.c, public domain, the
 * same section and printing as `ran_array` above): BookSim 2.0 draws every `RandomFloat()` from it —
 * its Bernoulli injection test among them — so a run that reproduces BookSim's needs this stream.
 * The refill buffer is preallocated: the injection loop draws once per node per cycle.
 */
export class KnuthRanfArray {
  /** The generator state (Knuth's ran_u). */
  private readonly u = new Float64Array(KK);
  private readonly buf = new Float64Array(QUALITY);
  private ptr = KK; // past the usable part of buf: the next call refills

  /** Knuth's `ranf_start(seed)`. */
  constructor(seed: number) {
    const u = new Float64Array(KK + KK - 1);
    const ulp = 1 / 2 ** 30 / 2 ** 22; // 2^-52
    let ss = 2 * ulp * ((seed & 0x3fffffff) + 2);
    for (let j = 0; j < KK; j++) {
      u[j] = ss; // bootstrap the buffer
      ss += ss;
      if (ss >= 1) ss -= 1 - 2 * ulp; // cyclic shift of 51 bits
    }
    u[1] += ulp; // make u[1] (and only u[1]) "odd"
    let t = TT - 1;
    for (let s = seed & 0x3fffffff; t; ) {
      for (let j = KK - 1; j > 0; j--) {
        u[j + j] = u[j]; // "square"
        u[j + j - 1] = 0;
      }
      for (let j = KK + KK - 2; j >= KK; j--) {
        u[j - (KK - LL)] = modSum(u[j - (KK - LL)], u[j]);
        u[j - KK] = modSum(u[j - KK], u[j]);
      }
      if (s & 1) {
        // "multiply by z": shift the buffer cyclically
        for (let j = KK; j > 0; j--) u[j] = u[j - 1];
        u[0] = u[KK];
        u[LL] = modSum(u[LL], u[KK]);
      }
      if (s) s >>>= 1;
      else t--;
    }
    for (let j = 0; j < LL; j++) this.u[j + KK - LL] = u[j];
    for (let j = LL; j < KK; j++) this.u[j - LL] = u[j];
    for (let j = 0; j < 10; j++) this.array(u, KK + KK - 1); // warm things up
  }

  /** Knuth's `ranf_array(aa, n)`: fills aa[0..n) (n ≥ KK) with new fractions in [0, 1). */
  array(aa: Float64Array, n: number): void {
    if (n < KK || n > aa.length) throw new RangeError(`ranf_array needs ${KK} <= n <= aa.length`);
    const u = this.u;
    let j = 0;
    for (; j < KK; j++) aa[j] = u[j];
    for (; j < n; j++) aa[j] = modSum(aa[j - KK], aa[j - LL]);
    let i = 0;
    for (; i < LL; i++, j++) u[i] = modSum(aa[j - KK], aa[j - LL]);
    for (; i < KK; i++, j++) u[i] = modSum(aa[j - KK], u[i - LL]);
  }

  /** Knuth's `ranf_arr_next()`: the next fraction in [0, 1). */
  next(): number {
    if (this.ptr >= KK) {
      this.array(this.buf, QUALITY);
      this.ptr = 0;
    }
    return this.buf[this.ptr++];
  }

  /** The state's first word (Knuth's `ran_u[0]`, which his test program prints). */
  get firstWord(): number {
    return this.u[0];
  }
}

/**
 * BookSim 2.0's random numbers (random_utils.hpp): `RandomSeed(seed)` starts both of Knuth's
 * generators from the same seed; `RandomFloat()` is the next fraction and `RandomInt(max)` the next
 * integer mod max + 1. As a RandomStream, `int(n)` is BookSim's `RandomInt(n − 1)`. A traffic source
 * that draws through it, in BookSim's order (size, destination, subnetwork), injects exactly the
 * packets BookSim's run injects.
 */
export class BookSimRandom implements RandomStream {
  private readonly floats: KnuthRanfArray;
  private readonly ints: KnuthRanArray;

  constructor(seed: number) {
    this.floats = new KnuthRanfArray(seed);
    this.ints = new KnuthRanArray(seed);
  }

  next(): number {
    return this.floats.next();
  }

  int(n: number): number {
    return this.ints.next() % n;
  }

  /** _GeneratePacket's subnetwork, `RandomInt(_subnets - 1)`: one integer drawn per packet even with one subnetwork. */
  endPacket(): void {
    this.ints.next();
  }

  /**
   * The integers BookSim draws before `RandomSeed(seed)` (trafficmanager.cpp builds its injection
   * processes first, line 232 against 309): Knuth's generator then starts itself from 314159
   * (rng.c `ran_arr_cycle`), whatever the run's seed.
   */
  setupStream(): RandomStream {
    const floats = new KnuthRanfArray(UNSEEDED_START);
    const ints = new KnuthRanArray(UNSEEDED_START);
    return { next: () => floats.next(), int: (n) => ints.next() % n };
  }
}

/** The seed Knuth's generators start from when drawn before anyone started them (rng.c, rng-double.c). */
const UNSEEDED_START = 314159;
