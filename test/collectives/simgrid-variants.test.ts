/**
 * The SimGrid SMPI algorithm variants (issue 17): allreduce `rabenseifner:order=near-first` (SMPI
 * rab_rdb, src/smpi/colls/allreduce/allreduce-rab-rdb.cpp: the first halving partner is rank XOR 1)
 * and allgather `ring:order=shift` (SMPI allgather ring, allgather-ring.cpp: step i sends the own
 * block to rank+i). Both deliver their postconditions, and their first messages are SMPI's.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSchedule, buildTopology, executeSchedule } from '../../src/index.js';
import type { Schedule } from '../../src/index.js';

/** Each rank's sends in program order: [destination, bytes]. */
function sendsOf(s: Schedule, rank: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let op = 0; op < s.opKind.length; op++) {
    if (s.opRank[op] === rank && s.describeOp(op).startsWith('send')) out.push([s.sendDests(op)[0], s.regionBytes(s.opA[op])]);
  }
  return out;
}

describe('SimGrid SMPI variants', () => {
  for (const [collective, algorithm] of [['allreduce', 'rabenseifner:order=near-first'], ['allgather', 'ring:order=shift']] as const) {
    it(`${collective} ${algorithm} delivers its postcondition for 1 to 13 ranks`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 9 }), (n, units) => {
          const size = collective === 'allreduce' ? units * 4 * n : units * 3;
          const r = executeSchedule(buildSchedule({ collective, algorithm, topology: buildTopology(`torus:${n}`), size, dtype: 'int32', op: 'sum' }));
          expect(r.problems).toEqual([]);
          expect(r.pass).toBe(true);
        }),
        { numRuns: 25, seed: 17 },
      );
    });
  }

  it('near-first halving sends half the buffer to rank XOR 1 first, then a quarter to rank XOR 2; far-first starts at XOR p/2', () => {
    const topology = buildTopology('torus:8');
    const near = buildSchedule({ collective: 'allreduce', algorithm: 'rabenseifner:order=near-first', topology, size: 8 * 64 });
    expect(sendsOf(near, 5).slice(0, 3)).toEqual([[4, 256], [7, 128], [1, 64]]);
    const far = buildSchedule({ collective: 'allreduce', algorithm: 'rabenseifner', topology, size: 8 * 64 });
    expect(sendsOf(far, 5).slice(0, 3)).toEqual([[1, 256], [7, 128], [4, 64]]);
  });

  it('shift allgather sends the own block to rank+1, rank+2, ...; the neighbour ring always to rank+1', () => {
    const topology = buildTopology('torus:6');
    const shift = buildSchedule({ collective: 'allgather', algorithm: 'ring:order=shift', topology, size: 10 });
    expect(sendsOf(shift, 4).map(([d]) => d)).toEqual([5, 0, 1, 2, 3]);
    const ring = buildSchedule({ collective: 'allgather', algorithm: 'ring', topology, size: 10 });
    expect(sendsOf(ring, 4).map(([d]) => d)).toEqual([5, 5, 5, 5, 5]);
  });
});
