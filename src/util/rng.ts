/**
 * Seeded pseudo-random numbers. Hand-written rather than a dependency because the hot loops of both
 * engines call it per packet and need an allocation-free, inlinable generator whose stream is fixed
 * by the seed forever (results must be byte-identical across versions of any library).
 *
 * Algorithm: xoshiro128** seeded through splitmix32.
 */
/** What a traffic pattern or source draws from: Meshwork's Rng or BookSim's generators (util/knuth-rng.ts). */
export interface RandomStream {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** The draws a generator makes after each packet's destination, if any (BookSim's subnetwork). */
  endPacket?(): void;
  /**
   * Where draws made while the run is set up come from, if not this stream: BookSim builds its
   * injection processes before it seeds its generators, so on/off's initial states come from
   * Knuth's default start.
   */
  setupStream?(): RandomStream;
}

export class Rng implements RandomStream {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    let x = this.seed;
    const next = (): number => {
      x = (x + 0x9e3779b9) | 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Bernoulli trial with probability p. */
  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  /** A new independent generator derived from this one (for per-component streams). */
  fork(): Rng {
    return new Rng(this.nextU32());
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * Stateless 32-bit hash, for per-flow choices (ECMP, per-packet tie-breaks) that must not depend on
 * call order. Its last input only meets the final multiply: draws that differ in it alone are
 * correlated (the low bits of hash32(x, s, 0) and hash32(x, s, 1) agree 16 % of the time, not
 * 50 %), so several draws per packet take `independentDraw`.
 */
export function hash32(a: number, b = 0, c = 0): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2d);
  return (h ^ (h >>> 15)) >>> 0;
}

/** Draw `index` of a packet's (salt's) independent draws: the hash mixed once more, so draws of consecutive indices are independent. */
export function independentDraw(salt: number, seed: number, index: number): number {
  return hash32(hash32(salt, seed, index));
}
