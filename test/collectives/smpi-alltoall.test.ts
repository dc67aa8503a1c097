/**
 * SimGrid SMPI 3.32's other alltoall and alltoallv algorithms as Meshwork variants: the pair and ring
 * barrier variants (`sync` on pairwise and ring), rdb (alltoall `recursive-doubling`), 2dmesh and 3dmesh
 * (`virtual-mesh`), mvapich2_scatter_dest (`linear` in rounds, the own block a message) and alltoallv
 * bruck (alltoallv `linear:order=shift,batch=4`). Each delivers every block byte for byte, and sends
 * SMPI's messages in SMPI's order, worked out by hand from src/smpi/colls/alltoall{,v}/*.cpp. The
 * timings against smpirun are test/reference/simgrid/smpi-cases/*-a2a-*.json.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, executeSchedule, generateAlltoallvSizes, type CollectiveKind, type Schedule } from '../../src/index.js';
import { smpi2dMesh, smpi3dMesh } from '../../src/collectives/algorithms/common.js';

/** Rank `rank`'s ops in program order, as describeOp's first word and the peer: "send 3", "irecv 0", "barrier", "waitall". */
function program(s: Schedule, rank: number): string[] {
  return Array.from({ length: s.numOps }, (_, op) => op)
    .filter((op) => s.opRank[op] === rank)
    .map((op) => {
      const [kind, , peer] = s.describeOp(op).split(' ');
      return ['send', 'recv', 'isend', 'irecv'].includes(kind) ? `${kind} ${peer}` : kind;
    });
}

/** Rank `rank`'s sends in program order: [destination, bytes]. */
function sendsOf(s: Schedule, rank: number): Array<[number, number]> {
  return Array.from({ length: s.numOps }, (_, op) => op)
    .filter((op) => s.opRank[op] === rank && s.opKind[op] === 0)
    .map((op) => [s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))]);
}

const build = (collective: CollectiveKind, algorithm: string, n: number, size = 3) =>
  buildSchedule({ collective, algorithm, topology: buildTopology(`torus:${n}`), size, sizes: collective === 'alltoallv' ? generateAlltoallvSizes('random:max=9,seed=4', n) : undefined });

describe("SMPI's alltoall and alltoallv algorithms", () => {
  it('every new variant delivers every block byte for byte on 2 to 20 ranks (and 27, 45, 48, 64), or is refused where SMPI fails', () => {
    const variants: Array<[CollectiveKind, string, (n: number) => boolean]> = [
      ...['light', 'step', 'once'].flatMap((sync): Array<[CollectiveKind, string, (n: number) => boolean]> => [
        ['alltoall', `pairwise:order=xor,sync=${sync}`, (n) => (n & (n - 1)) === 0],
        ['alltoall', `ring:sync=${sync}`, () => true],
        ['alltoallv', `pairwise:order=xor,sync=${sync}`, (n) => (n & (n - 1)) === 0],
        ['alltoallv', `pairwise:order=shift,sync=${sync}`, () => true],
      ]),
      ['alltoall', 'recursive-doubling', () => true],
      ['alltoall', 'virtual-mesh:dims=2', (n) => smpi2dMesh(n) !== undefined],
      ['alltoall', 'virtual-mesh:dims=3', (n) => smpi3dMesh(n) !== undefined],
      ['alltoall', 'linear:sends=reverse,batch=4,self=message', () => true],
      ['alltoallv', 'linear:order=shift,batch=4', () => true],
    ];
    for (const n of [...Array.from({ length: 19 }, (_, i) => i + 2), 27, 45, 48, 64]) {
      for (const [collective, algorithm, runs] of variants) {
        if (!runs(n)) {
          expect(() => build(collective, algorithm, n), `${algorithm} on ${n}`).toThrow(/^algorithm: got .*(power-of-two|MPI_ERR_OTHER)/);
          continue;
        }
        const r = executeSchedule(build(collective, algorithm, n));
        expect(r.problems, `${collective} ${algorithm} on ${n}`).toEqual([]);
        expect(r.pass).toBe(true);
      }
    }
  });

  it('lays the grid out as SMPI does (alltoall_check_is_2dmesh, _3dmesh) and fails where it fails', () => {
    expect(smpi2dMesh(64)).toEqual([8, 8]);
    expect(smpi2dMesh(12)).toEqual([3, 4]);
    expect(smpi2dMesh(18)).toEqual([3, 6]);
    expect(smpi2dMesh(3)).toEqual([1, 3]);
    for (const n of [1, 5, 7, 13]) expect(smpi2dMesh(n), `${n}`).toBeUndefined();
    expect(smpi3dMesh(64)).toEqual([4, 4, 4]);
    expect(smpi3dMesh(48)).toEqual([4, 4, 3]);
    expect(smpi3dMesh(45)).toEqual([3, 3, 5]);
    expect(smpi3dMesh(12)).toEqual([2, 2, 3]);
    expect(smpi3dMesh(7)).toEqual([1, 1, 7]);
    for (const n of [2, 11, 10]) expect(smpi3dMesh(n), `${n}`).toBeUndefined();
    expect(() => build('alltoall', '2dmesh', 7)).toThrow(/SMPI's alltoall 2dmesh returns MPI_ERR_OTHER there/);
    expect(() => build('alltoall', '3dmesh', 10)).toThrow(/SMPI's alltoall 3dmesh returns MPI_ERR_OTHER there/);
    expect(() => build('alltoall', 'pair_light_barrier', 12)).toThrow(/order=xor needs a power-of-two rank count, got 12/);
    // Their n × n-block (rdb) and Y · n-block (2dmesh) temporaries are refused past 2^50 bytes before building.
    const big = buildTopology('torus:32x32');
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'rdb', topology: big, size: 2 ** 31 })).toThrow(
      /^size: got 2147483648; accepted: at most 1073741824 bytes = 1GiB for alltoall recursive-doubling on 1024 ranks: its temporary of 1048576 blocks per rank stays within 2\^50 bytes$/,
    );
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: '2dmesh', topology: big, size: 2 ** 36 })).toThrow(/at most 34359738368 bytes = 32GiB for alltoall virtual-mesh:dims=2 on 1024 ranks/);
  });

  it('light barriers: after each step but the last a 1-byte sendrecv, to the next step source and from its destination', () => {
    // pair_light_barrier, 8 ranks, rank 2: data with 2 XOR k, then 1 byte with 2 XOR (k + 1).
    expect(sendsOf(build('alltoall', 'pair_light_barrier', 8, 5), 2)).toEqual([[3, 5], [0, 1], [0, 5], [1, 1], [1, 5], [6, 1], [6, 5], [7, 1], [7, 5], [4, 1], [4, 5], [5, 1], [5, 5]]);
    // ring_light_barrier, 5 ranks, rank 2: data to 2 + k, the sync to 2 − (k + 1).
    const ring = build('alltoall', 'ring_light_barrier', 5, 5);
    expect(sendsOf(ring, 2)).toEqual([[3, 5], [0, 1], [4, 5], [4, 1], [0, 5], [3, 1], [1, 5]]);
    expect(program(ring, 2).filter((op) => op.startsWith('recv'))).toEqual(['recv 1', 'recv 4', 'recv 0', 'recv 0', 'recv 4', 'recv 1', 'recv 3']);
  });

  it('mpi barriers: one before every step, the own copy included (mpi_barrier), or one first (one_barrier)', () => {
    expect(program(build('alltoall', 'ring_mpi_barrier', 3), 1)).toEqual(['barrier', 'copy', 'barrier', 'send 2', 'recv 0', 'barrier', 'send 0', 'recv 2']);
    expect(program(build('alltoall', 'pair_one_barrier', 4), 1)).toEqual(['barrier', 'copy', 'send 0', 'recv 0', 'send 3', 'recv 3', 'send 2', 'recv 2']);
    // alltoallv's ring barrier variants shift on a power of two too (its plain ring swaps XOR partners).
    expect(program(build('alltoallv', 'ring_one_barrier', 4), 1).slice(2)).toEqual(['send 2', 'recv 0', 'send 3', 'recv 3', 'send 0', 'recv 2']);
    expect(program(build('alltoallv', 'ring', 4), 1).slice(1)).toEqual(['send 0', 'recv 0', 'send 3', 'recv 3', 'send 2', 'recv 2']);
  });

  it('rdb: whole send buffers by recursive doubling, the tree fix-up where a partner subtree is cut short (6 ranks, alltoall-rdb.cpp by hand)', () => {
    const s = build('alltoall', 'rdb', 6, 1);
    // Rank 0: its 6 blocks to 1, 12 to 2, 24 to 4 (which holds ranks 4 and 5 only), then the 12 it got from 4 down to 2.
    expect(sendsOf(s, 0)).toEqual([[1, 6], [2, 12], [4, 24], [2, 12]]);
    expect(sendsOf(s, 1)).toEqual([[0, 6], [3, 12], [5, 24], [3, 12]]);
    expect(sendsOf(s, 4)).toEqual([[5, 6], [0, 12]]);
  });

  it('2dmesh and 3dmesh: whole buffers along rows, then aggregated blocks (12 ranks: 3 × 4 and 2 × 2 × 3)', () => {
    // 2dmesh, rank 5 (row 4-7, column 1, 5, 9): its 12 blocks to 4, 6, 7; then 4 blocks each to 1 and 9.
    const m2 = build('alltoall', '2dmesh', 12, 1);
    expect(sendsOf(m2, 5)).toEqual([[4, 12], [6, 12], [7, 12], [1, 4], [9, 4]]);
    expect(program(m2, 5).slice(0, 7)).toEqual(['irecv 4', 'irecv 6', 'irecv 7', 'send 4', 'send 6', 'send 7', 'waitall']);
    // 3dmesh, rank 5 (plane 4-7, row 4-5, column 5, 7; z column 9, 1): 12 blocks to 4, the row's 24 to 7, the plane's 4 to 9 and 1.
    expect(sendsOf(build('alltoall', '3dmesh', 12, 1), 5)).toEqual([[4, 12], [7, 24], [9, 4], [1, 4]]);
  });

  it('mvapich2_scatter_dest and alltoallv bruck: rounds of 4 offsets, irecvs from r + i, isends to r − i, a waitall each', () => {
    // scatter_dest, 6 ranks, rank 2: the own block is a message in the first round.
    expect(program(build('alltoall', 'mvapich2_scatter_dest', 6), 2)).toEqual([
      ...['irecv 2', 'irecv 3', 'irecv 4', 'irecv 5', 'isend 2', 'isend 1', 'isend 0', 'isend 5', 'waitall'],
      ...['irecv 0', 'irecv 1', 'isend 4', 'isend 3', 'waitall'],
    ]);
    // alltoallv bruck skips the own block, which still counts in the first round.
    expect(program(build('alltoallv', 'bruck', 6), 2)).toEqual(['copy', ...['irecv 3', 'irecv 4', 'irecv 5', 'isend 1', 'isend 0', 'isend 5', 'waitall'], ...['irecv 0', 'irecv 1', 'isend 4', 'isend 3', 'waitall']]);
    expect(() => build('alltoall', 'linear:batch=4', 6)).toThrow(/batch=4 needs sends=reverse/);
  });
});
