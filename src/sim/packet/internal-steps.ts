/**
 * How many internal steps a router takes in each cycle under an internal speedup S: BookSim's
 * Router::Evaluate adds S to a double each cycle and takes a step while it is at least 1,
 * subtracting 1 each time. For a speedup with a short binary fraction (2, 1.5, 1.25) every value is
 * exact and the steps before cycle c are floor(c·S). Otherwise the rounding of the additions and
 * subtractions moves a step across the boundary wherever c·S is an integer: at S = 1.7, cycle 9
 * takes one step and cycle 10 two, where floor(c·S) gives two and one. So the steps are counted as
 * BookSim counts them, cycle by cycle, in a window that moves with the queries (the engine only
 * asks about cycles near the current one); a query behind the window counts again from cycle 0.
 */

/** Cycles kept: far more than any pipeline delay the engine looks ahead or back over. */
const WINDOW = 1 << 12;

export class InternalStepClock {
  /** floor(c·S) is exact: S is a multiple of 2^-16 (and small), so the double additions are exact. */
  private readonly dyadic: boolean;
  /** Steps before cycle c for c in [lo, hi), at index c mod WINDOW. */
  private readonly before = new Float64Array(WINDOW);
  private lo = 0;
  private hi = 1;
  /** The accumulator after cycle hi − 1's steps (BookSim's _partial_internal_cycles). */
  private partial = 0;

  constructor(readonly speedup: number) {
    this.dyadic = Number.isInteger(speedup * 65536);
    this.before[0] = 0;
  }

  /** Internal steps before cycle c. */
  ticksBefore(c: number): number {
    if (this.dyadic) return Math.floor(c * this.speedup);
    if (c < this.lo) this.restart();
    while (this.hi <= c) this.extend();
    return this.before[c % WINDOW];
  }

  /** The cycle internal step t belongs to. */
  cycleOfTick(t: number): number {
    let c = Math.ceil((t + 1) / this.speedup) - 1;
    while (this.ticksBefore(c + 1) <= t) c++;
    while (c > 0 && this.ticksBefore(c) > t) c--;
    return c;
  }

  /** Counts cycle hi's steps. */
  private extend(): void {
    let p = this.partial + this.speedup;
    let steps = 0;
    while (p >= 1.0) {
      steps++;
      p -= 1.0;
    }
    this.partial = p;
    this.before[this.hi % WINDOW] = this.before[(this.hi - 1) % WINDOW] + steps;
    this.hi++;
    if (this.hi - this.lo > WINDOW) this.lo = this.hi - WINDOW;
  }

  private restart(): void {
    this.lo = 0;
    this.hi = 1;
    this.partial = 0;
    this.before[0] = 0;
  }
}
