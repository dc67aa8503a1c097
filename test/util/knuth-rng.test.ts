import { describe, expect, it } from 'vitest';
import { bookSimRandomPermutation, KnuthRanArray } from '../../src/util/knuth-rng.js';
import { makePattern, torus } from '../../src/index.js';

describe("Knuth's ran_array (BookSim's RandomInt)", () => {
  it("reproduces Knuth's own check value (rng.c main: 995235265 both ways)", () => {
    let rng = new KnuthRanArray(310952);
    let a: number[] = [];
    for (let m = 0; m <= 2009; m++) a = rng.array(1009);
    expect(a[0]).toBe(995235265);
    rng = new KnuthRanArray(310952);
    for (let m = 0; m <= 1009; m++) a = rng.array(2009);
    expect(a[0]).toBe(995235265);
  });

  it("gives BookSim 2.0's randperm permutations (read from BookSim's own packet traces)", () => {
    // booksim (28f43299) on an 8×8 torus, traffic = randperm, perm_seed = 5, sim_type = batch with
    // watch_packets: dest of each source from its "Retiring packet ... src = S, dest = D" lines.
    const seed5 = [
      11, 17, 24, 63, 55, 6, 25, 16, 21, 56, 15, 12, 26, 28, 50, 4, 27, 40, 13, 43, 31, 36, 5, 30, 7, 54, 3, 1, 9, 29, 8, 59, 14, 34, 52, 0, 58, 62, 38, 45, 41, 23,
      49, 35, 19, 32, 51, 37, 42, 10, 39, 53, 57, 2, 61, 18, 46, 20, 47, 60, 44, 33, 48, 22,
    ];
    expect(Array.from(bookSimRandomPermutation(64, 5))).toEqual(seed5);
    // The same on a 4×4 mesh with BookSim's default perm_seed = 0.
    expect(Array.from(bookSimRandomPermutation(16, 0))).toEqual([2, 8, 6, 1, 0, 11, 4, 5, 3, 14, 10, 7, 15, 12, 9, 13]);
    // As a pattern: the run's seed plays no part.
    const p = makePattern('randperm', torus([8, 8]), { permSeed: 5, permutation: 'booksim' });
    expect(Array.from({ length: 64 }, (_, s) => p.dest(s, undefined as never))).toEqual(seed5);
    expect(p.params).toEqual({ permSeed: 5, permutation: 'booksim' });
  });
});
