/** alltoallv: per-pair sizes (collectives/alltoallv-sizes.ts), its algorithms, verified byte for byte. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSchedule, buildTopology, executeSchedule, generateAlltoallvSizes, parseAlltoallvSizes, runCollectiveFlow, scheduleFromJson, scheduleToJson } from '../../src/index.js';

describe('alltoallv', () => {
  it('linear and pairwise deliver every block of a random size matrix byte for byte (1 to 9 ranks), also after a JSON round trip', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 1000 }), (n, seed) => {
        const topology = buildTopology(`torus:${n}`);
        const sizes = generateAlltoallvSizes(`random:max=17,seed=${seed}`, n);
        for (const algorithm of ['linear', 'pairwise', 'pairwise:order=shift']) {
          const s = buildSchedule({ collective: 'alltoallv', algorithm, topology, size: 17, sizes });
          const r = executeSchedule(s);
          expect(r.problems).toEqual([]);
          expect(r.pass).toBe(true);
          expect(executeSchedule(scheduleFromJson(JSON.parse(scheduleToJson(s)))).pass).toBe(true);
        }
      }),
      { numRuns: 20, seed: 23 },
    );
  });

  it('the byte-for-byte check reports data that is not what each sender put in each block (it can fail)', () => {
    const topology = buildTopology('torus:3');
    const sizes = parseAlltoallvSizes('0 5 2\n3 0 4\n1 6 0', 3);
    const s = buildSchedule({ collective: 'alltoallv', algorithm: 'linear', topology, size: 6, sizes });
    // Every rank's input replaced by the same pattern: each receive buffer then holds wrong origins.
    const r = executeSchedule(s, { inputs: (_rank, slot) => slot + 1 });
    expect(r.pass).toBe(false);
  });

  it('generators: uniform is alltoall, diagonal sends only to the next rank; bad specs and files are refused in one line', () => {
    expect(Array.from(generateAlltoallvSizes('uniform:size=4KiB', 2))).toEqual([4096, 4096, 4096, 4096]);
    expect(Array.from(generateAlltoallvSizes('diagonal:size=8', 3))).toEqual([0, 8, 0, 0, 0, 8, 8, 0, 0]);
    expect(() => generateAlltoallvSizes('random:max=8,min=9', 2)).toThrow(/sizes\.min: got 9; accepted: at most max = 8/);
    expect(() => generateAlltoallvSizes('zipf:size=8', 2)).toThrow(/uniform, random, diagonal/);
    expect(() => parseAlltoallvSizes('1 2 3', 2)).toThrow(/sizes: got "3 numbers"; accepted: 2 x 2 = 4 byte counts/);
    expect(() => parseAlltoallvSizes('1 2 x 4', 2)).toThrow(/sizes\[1\]\[0\]: got "x"/);
    const topology = buildTopology('torus:2');
    expect(() => buildSchedule({ collective: 'alltoallv', algorithm: 'linear', topology, size: 1 })).toThrow(/an alltoallv size matrix of 2 x 2/);
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'linear', topology, size: 1, sizes: [1, 1, 1, 1] })).toThrow(/sizes only with alltoallv/);
  });

  it('uniform sizes time as the alltoall of the same block (same messages in the same order)', () => {
    const topology = buildTopology('torus:4x4,bw=10GBps,lat=100ns');
    const v = runCollectiveFlow({ topology, collective: 'alltoallv', algorithm: 'pairwise', size: 4096, sizes: generateAlltoallvSizes('uniform:size=4KiB', 16) });
    const a = runCollectiveFlow({ topology, collective: 'alltoall', algorithm: 'pairwise', size: 4096 });
    expect(v.makespan_s).toBeCloseTo(a.makespan_s, 12);
  });
});
