import { describe, expect, it } from 'vitest';
import { bookSimRandomPermutation, BookSimRandom, KnuthRanArray, KnuthRanfArray } from '../../src/util/knuth-rng.js';
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

describe("Knuth's ranf_array (BookSim's RandomFloat)", () => {
  it("reproduces Knuth's own check value (rng-double.c main: 0.36410514377569680455 both ways)", () => {
    let rng = new KnuthRanfArray(310952);
    let a = new Float64Array(2009);
    for (let m = 0; m < 2009; m++) rng.array(a, 1009);
    expect(rng.firstWord.toFixed(20)).toBe('0.36410514377569680455');
    rng = new KnuthRanfArray(310952);
    a = new Float64Array(2009);
    for (let m = 0; m < 1009; m++) rng.array(a, 2009);
    expect(rng.firstWord.toFixed(20)).toBe('0.36410514377569680455');
  });

  it('hands out the first 100 of each 1009 as ranf_arr_next does, then refills', () => {
    const rng = new KnuthRanfArray(7);
    const reference = new KnuthRanfArray(7);
    const block = new Float64Array(1009);
    reference.array(block, 1009);
    const first = Array.from({ length: 100 }, () => rng.next());
    expect(first).toEqual(Array.from(block.subarray(0, 100)));
    reference.array(block, 1009);
    expect(rng.next()).toBe(block[0]);
  });
});

describe("BookSimRandom (BookSim's RandomSeed, RandomFloat, RandomInt)", () => {
  it('draws fractions from ranf and integers from ran, both started from the seed; a packet ends with one integer draw', () => {
    const stream = new BookSimRandom(20);
    const floats = new KnuthRanfArray(20);
    const ints = new KnuthRanArray(20);
    expect(stream.next()).toBe(floats.next());
    expect(stream.int(64)).toBe(ints.next() % 64);
    // _GeneratePacket's RandomInt(_subnets - 1) with one subnetwork: a draw whose value is unused.
    stream.endPacket();
    ints.next();
    expect(stream.int(64)).toBe(ints.next() % 64);
    expect(stream.next()).toBe(floats.next());
  });
});
