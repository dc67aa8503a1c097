/**
 * SimGrid SMPI 3.32's collective selectors as aliases (src/collectives/smpi-names.ts): `default`, `ompi`
 * and `mpich` resolve per run to the algorithm SMPI's smpi_default_selector.cpp / smpi_openmpi_selector.cpp /
 * smpi_mpich_selector.cpp runs at that size and rank count, and the default selector's non-blocking patterns (iallgather,
 * ireduce, igather, iscatter, smpi_nbc_impl.cpp) are Meshwork variants checked byte for byte here.
 * The timings against smpirun are test/reference/simgrid/smpi-cases/*-{default,ompi,mpich}.json.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSchedule, buildTopology, estimateSchedule, executeSchedule, generateAlltoallvSizes, runCollectiveFlow, smpiSelectorChoice, type CollectiveKind, type Schedule } from '../../src/index.js';
import { NotApplicableError } from '../../src/util/errors.js';

/** Rank `rank`'s ops in program order, as their first word (send, irecv, waitall, ...). */
const kinds = (s: Schedule, rank: number): string[] =>
  Array.from({ length: s.numOps }, (_, op) => op)
    .filter((op) => s.opRank[op] === rank)
    .map((op) => s.describeOp(op).split(' ')[0]);

describe('SMPI selectors: the default selector\'s non-blocking patterns as Meshwork variants', () => {
  const variants: Array<[CollectiveKind, string, (n: number) => number]> = [
    ['allgather', 'linear', () => 24],
    ['allgather', 'linear:order=rank', () => 24],
    ['reduce', 'linear', (n) => 4 * n * 3],
    ['allreduce', 'reduce-broadcast', (n) => 4 * n * 3],
    ['gather', 'linear:recvs=preposted', () => 24],
    ['scatter', 'linear:sends=nonblocking', () => 24],
    ['reduce-scatter', 'reduce-then-scatter', (n) => 4 * n * 3],
  ];
  for (const [collective, algorithm, size] of variants) {
    it(`${collective} ${algorithm} delivers its postcondition byte for byte (1 to 13 ranks, any root)`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 13 }), fc.nat(), (n, rootSeed) => {
          const s = buildSchedule({ collective, algorithm, topology: buildTopology(`torus:${n}`), size: size(n), root: rootSeed % n });
          const r = executeSchedule(s);
          expect(r.problems).toEqual([]);
          expect(r.pass).toBe(true);
        }),
        { numRuns: 20, seed: 32 },
      );
    });
  }

  it('neighbor-exchange (ompi_neighborexchange) delivers every block for even rank counts up to 20 and refuses odd ones', () => {
    for (let n = 2; n <= 20; n += 2) {
      const r = executeSchedule(buildSchedule({ collective: 'allgather', algorithm: 'neighbor-exchange', topology: buildTopology(`torus:${n}`), size: 12 }));
      expect(r.problems, `${n} ranks`).toEqual([]);
      expect(r.pass).toBe(true);
    }
    // n/2 steps: one block with the first neighbour, then pairs alternating neighbours (rank 2 of 8: 3, 1, 3, 1).
    const s = buildSchedule({ collective: 'allgather', algorithm: 'neighbor-exchange', topology: buildTopology('torus:8'), size: 4 });
    const sends = Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opRank[op] === 2 && s.opKind[op] === 0);
    expect(sends.map((op) => [s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))])).toEqual([[3, 4], [1, 8], [3, 8], [1, 8]]);
    expect(() => buildSchedule({ collective: 'allgather', algorithm: 'neighbor-exchange', topology: buildTopology('torus:7'), size: 4 })).toThrow(/7 ranks is odd/);
  });

  it("binomial-pipelined (ompi_binomial reduce) delivers the reduction byte for byte: any rank count, root and segment", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 13 }), fc.nat(), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 70 }), (n, rootSeed, elements, segment) => {
        const s = buildSchedule({ collective: 'reduce', algorithm: `binomial-pipelined:segment=${segment}`, topology: buildTopology(`torus:${n}`), size: 4 * elements, root: rootSeed % n });
        const r = executeSchedule(s);
        expect(r.problems).toEqual([]);
        expect(r.pass).toBe(true);
      }),
      { numRuns: 60, seed: 33 },
    );
  });

  it("binomial-pipelined's segment=0 is Open MPI's rule: 1 KiB segments on 64 ranks at 64 KiB, the whole buffer at 1 KiB and 1 MiB", () => {
    const topology = buildTopology('torus:4x4x4');
    // A leaf (relative rank 63) sends its segments one by one: 64 of 1 KiB at 64 KiB, one otherwise.
    const leafSends = (size: number) => {
      const s = buildSchedule({ collective: 'reduce', algorithm: 'ompi_binomial', topology, size });
      return Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opRank[op] === 63 && s.opKind[op] === 0).map((op) => s.regionBytes(s.dataRegion(op)));
    };
    expect(leafSends(65536)).toEqual(Array(64).fill(1024));
    expect(leafSends(1024)).toEqual([1024]);
    expect(leafSends(1 << 20)).toEqual([1 << 20]);
    // 0.6016 · S / 1024 + 1.3496 >= 64 from S = 106,639 B: unsegmented again at 128 KiB.
    expect(leafSends(131072)).toEqual([131072]);
  });

  it('butterfly (ompi_butterfly reduce_scatter): every block reduced and home for 1 to 20 ranks and 27, 45, 48; halving from distance 1, then the mirror exchange', () => {
    for (const n of [...Array.from({ length: 20 }, (_, i) => i + 1), 27, 32, 45, 48]) {
      for (const elements of [1, 3]) {
        const r = executeSchedule(buildSchedule({ collective: 'reduce-scatter', algorithm: 'butterfly', topology: buildTopology(`torus:${n}`), size: 4 * n * elements }));
        expect(r.problems, `${n} ranks`).toEqual([]);
        expect(r.pass).toBe(true);
      }
    }
    // Rank 1 of 8: partners 0, 3, 5 with 4, 2, 1 blocks, then its block goes to mirror(1) = 4.
    const s = buildSchedule({ collective: 'reduce-scatter', algorithm: 'butterfly', topology: buildTopology('torus:8'), size: 4 * 8 });
    const sends = Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opRank[op] === 1 && s.opKind[op] === 0);
    expect(sends.map((op) => [s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))])).toEqual([[0, 16], [3, 8], [5, 4], [4, 4]]);
    // 6 ranks (reduce_scatter-ompi.cpp's example): ranks 0 and 2 send their vector to 1 and 3 and sit out;
    // virtual ranks 0..3 are 1, 3, 4, 5, virtual blocks 0 and 1 are real blocks 0-1 and 2-3. Rank 1 (v0):
    // 4 real blocks to 3, 2 to 4, then mirror(0) = 0 holds two blocks: the first to rank 0, its own kept.
    const six = buildSchedule({ collective: 'reduce-scatter', algorithm: 'butterfly', topology: buildTopology('torus:6'), size: 4 * 6 });
    const sendsOf = (rank: number) => Array.from({ length: six.numOps }, (_, op) => op).filter((op) => six.opRank[op] === rank && six.opKind[op] === 0).map((op) => [six.sendDests(op)[0], six.regionBytes(six.dataRegion(op))]);
    expect(sendsOf(0)).toEqual([[1, 24]]);
    expect(sendsOf(1)).toEqual([[3, 8], [4, 8], [0, 4]]);
    // Rank 4 (v2) ends with virtual block mirror(2) = 1, real blocks 2 and 3: block 2 to rank 2, block 3 to rank 3 (v1).
    expect(sendsOf(4)).toEqual([[5, 8], [1, 8], [2, 4], [3, 4]]);
  });

  it('iallgather: per other rank in rank order an isend and an irecv, then one waitall; ireduce: the root posts every receive before it waits', () => {
    const topology = buildTopology('torus:5');
    const ag = buildSchedule({ collective: 'allgather', algorithm: 'default', topology, size: 8 });
    expect(kinds(ag, 2)).toEqual(['copy', ...Array(4).fill(['isend', 'irecv']).flat(), 'waitall']);
    expect(ag.algorithmSpec).toBe('linear:order=rank');
    // SMPI's order: rank 2 sends to and receives from 0, 1, 3, 4; the default linear shifts (3, 4, 0, 1).
    const peers = (s: Schedule, rank: number) => Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opRank[op] === rank && s.opKind[op] === 0).map((op) => s.sendDests(op)[0]);
    expect(peers(ag, 2)).toEqual([0, 1, 3, 4]);
    expect(peers(buildSchedule({ collective: 'allgather', algorithm: 'linear', topology, size: 8 }), 2)).toEqual([3, 4, 0, 1]);
    const red = buildSchedule({ collective: 'reduce', algorithm: 'default', topology, size: 20, root: 3 });
    expect(kinds(red, 3)).toEqual(['copy', 'irecv', 'irecv', 'irecv', 'irecv', 'waitall', 'reduce', 'reduce', 'reduce', 'reduce']);
    expect(kinds(red, 0)).toEqual(['send']);
    // allreduce default: ireduce to rank 0, then binomial_tree from rank 0 (rank 4 receives from 0 only).
    const ar = buildSchedule({ collective: 'allreduce', algorithm: 'default', topology, size: 20 });
    expect(kinds(ar, 4)).toEqual(['send', 'recv']);
    expect(kinds(ar, 0).slice(0, 6)).toEqual(['copy', 'irecv', 'irecv', 'irecv', 'irecv', 'waitall']);
    const g = buildSchedule({ collective: 'gather', algorithm: 'default', topology, size: 8 });
    expect(kinds(g, 0)).toEqual(['copy', 'irecv', 'irecv', 'irecv', 'irecv', 'waitall']);
    const sc = buildSchedule({ collective: 'scatter', algorithm: 'default', topology, size: 8 });
    expect(kinds(sc, 0)).toEqual(['copy', 'isend', 'isend', 'isend', 'isend', 'waitall']);
    expect(kinds(sc, 1)).toEqual(['recv']);
  });
});

describe('SMPI selectors: what default and ompi choose (smpi_openmpi_selector.cpp, commutative operations)', () => {
  it("chooses as SMPI 3.32's source reads at the band edges", () => {
    // alltoall, 64 to 127 ranks: bruck below 1 KiB, basic_linear below 256 KiB, then pair; default is ompi.
    expect(smpiSelectorChoice('alltoall', 'ompi', 1023, 64)).toBe('bruck');
    expect(smpiSelectorChoice('alltoall', 'ompi', 1024, 64)).toBe('basic_linear');
    expect(smpiSelectorChoice('alltoall', 'ompi', 262143, 64)).toBe('basic_linear');
    expect(smpiSelectorChoice('alltoall', 'default', 262144, 64)).toBe('pair');
    expect(smpiSelectorChoice('alltoall', 'ompi', 1 << 20, 2)).toBe('pair'); // communicator_size == 2
    expect(smpiSelectorChoice('alltoall', 'ompi', 1 << 20, 3)).toBe('basic_linear');
    // allreduce, 64 to 127 ranks: rdb below 256 KiB, then rab_rdb; 16 to 31 ranks below 64 B: ompi_ring_segmented.
    expect(smpiSelectorChoice('allreduce', 'ompi', 262143, 64)).toBe('rdb');
    expect(smpiSelectorChoice('allreduce', 'ompi', 262144, 127)).toBe('rab_rdb');
    expect(smpiSelectorChoice('allreduce', 'ompi', 63, 16)).toBe('ompi_ring_segmented');
    expect(smpiSelectorChoice('allgather', 'ompi', 65535, 64)).toBe('ompi_neighborexchange');
    expect(smpiSelectorChoice('allgather', 'ompi', 65536, 64)).toBe('ring');
    expect(smpiSelectorChoice('allgather', 'ompi', 1 << 20, 31)).toBe('rdb');
    expect(smpiSelectorChoice('broadcast', 'ompi', 1024, 64)).toBe('mvapich2_knomial_intra_node');
    expect(smpiSelectorChoice('broadcast', 'default', 1024, 64)).toBe('binomial_tree');
    expect(smpiSelectorChoice('reduce', 'ompi', 1024, 64)).toBe('ompi_binomial');
    expect(smpiSelectorChoice('reduce-scatter', 'ompi', 1 << 20, 64)).toBe('ompi_butterfly');
    expect(smpiSelectorChoice('reduce-scatter', 'ompi', 1 << 20, 63)).toBe('ompi_ring');
    expect(smpiSelectorChoice('gather', 'ompi', 1 << 24, 64)).toBe('ompi_binomial');
    expect(smpiSelectorChoice('scatter', 'ompi', 511, 64)).toBe('ompi_binomial');
    expect(smpiSelectorChoice('scatter', 'ompi', 512, 64)).toBe('ompi_linear_nb');
    expect(smpiSelectorChoice('barrier', 'ompi', 0, 64)).toBe('ompi_bruck');
    expect(smpiSelectorChoice('barrier', 'ompi', 0, 63)).toBe('ompi_recursivedoubling');
    expect(smpiSelectorChoice('barrier', 'default', 0, 64)).toBe('ompi_basic_linear');
    expect(smpiSelectorChoice('alltoall', 'mvapich2', 1024, 64)).toBe('bruck');
    expect(smpiSelectorChoice('one-to-one', 'mvapich2', 1024, 64)).toBeUndefined();
  });

  it("mpich (smpi_mpich_selector.cpp): MPICH's thresholds, its reduce_scatter counting elements, the SMP algorithms on a world communicator", () => {
    expect(smpiSelectorChoice('alltoall', 'mpich', 255, 64)).toBe('bruck');
    expect(smpiSelectorChoice('alltoall', 'mpich', 255, 7)).toBe('mvapich2_scatter_dest');
    expect(smpiSelectorChoice('alltoall', 'mpich', 32767, 64)).toBe('mvapich2_scatter_dest');
    expect(smpiSelectorChoice('alltoall', 'mpich', 32768, 64)).toBe('ring');
    expect(smpiSelectorChoice('alltoall', 'mpich', 32768, 63)).toBe('pair');
    // allgather: the gathered total (block × ranks): rdb below 512 KiB on a power of two, bruck up to 80 KiB.
    expect(smpiSelectorChoice('allgather', 'mpich', 8191, 64)).toBe('rdb');
    expect(smpiSelectorChoice('allgather', 'mpich', 8192, 64)).toBe('ring');
    expect(smpiSelectorChoice('allgather', 'mpich', 1300, 63)).toBe('bruck'); // 81,900 B
    expect(smpiSelectorChoice('allgather', 'mpich', 1301, 63)).toBe('ring'); // 81,963 B
    // reduce_scatter: more than 524,288 elements (int32: 2 MiB) runs mpich_pair. A byte count would
    // pick mpich_pair at 1 MiB, where smpirun ran mpich_rdb (torus, 64 ranks: 0.77 ms, pair 0.20 ms).
    expect(smpiSelectorChoice('reduce-scatter', 'mpich', 2 << 20, 64)).toBe('mpich_rdb');
    expect(smpiSelectorChoice('reduce-scatter', 'mpich', (2 << 20) + 4, 64)).toBe('mpich_pair');
    expect(smpiSelectorChoice('reduce-scatter', 'mpich', 4 << 20, 64, 8)).toBe('mpich_rdb');
    for (const c of ['allreduce', 'reduce'] as const) expect(smpiSelectorChoice(c, 'mpich', 1 << 20, 64)).toBe('mvapich2_two_level');
    expect(smpiSelectorChoice('broadcast', 'mpich', 1 << 20, 64)).toBe('SMP_binomial');
    for (const c of ['gather', 'scatter'] as const) expect(smpiSelectorChoice(c, 'mpich', 1 << 20, 64)).toBe('ompi_binomial');
    expect(smpiSelectorChoice('barrier', 'mpich', 0, 64)).toBe('ompi_bruck');
    const topology = buildTopology('torus:4x4x4');
    expect(buildSchedule({ collective: 'reduce-scatter', algorithm: 'mpich', topology, size: 4 << 20 }).algorithmSpec).toBe('pairwise');
    expect(buildSchedule({ collective: 'reduce-scatter', algorithm: 'mpich', topology, size: 4 << 20, dtype: 'float64' }).algorithmSpec).toBe('recursive-doubling');
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'mpich', topology, size: 1024 }).algorithmSpec).toBe('binomial:smp=true,tree=rank0');
  });

  it('resolves per run to the chosen variant and records the choice', () => {
    const topology = buildTopology('torus:4x4x4,bw=10GBps,lat=100ns');
    const small = buildSchedule({ collective: 'alltoall', algorithm: 'ompi', topology, size: 1024 });
    expect([small.algorithmSpec, small.algorithmAlias]).toEqual(['linear:sends=reverse', 'ompi → basic_linear at 1024 B on 64 ranks (SimGrid SMPI 3.32 alltoall selector)']);
    const r = runCollectiveFlow({ topology, collective: 'alltoall', algorithm: 'default', size: 1 << 20, model: { protocol: 'smpi' } });
    expect(r.workload).toMatchObject({ algorithm: 'pairwise', algorithm_spec: 'pairwise:order=xor', algorithm_alias: 'default → pair at 1048576 B on 64 ranks (SimGrid SMPI 3.32 alltoall selector)' });
    expect(buildSchedule({ collective: 'barrier', algorithm: 'ompi', topology, size: 0 }).algorithmSpec).toBe('dissemination');
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'default', topology, size: 8 }).algorithmSpec).toBe('binomial');
  });

  it('refuses in one line naming the algorithm the selector would run where Meshwork does not model it', () => {
    const topology = buildTopology('torus:4x4x4');
    const refusal = (collective: CollectiveKind, algorithm: string, size: number, on = topology) => () => buildSchedule({ collective, algorithm, topology: on, size });
    // NTSB's bytes after its last whole 8 KiB segment go through the ompi selector again (at 3,808 B: NTSB unpipelined).
    expect(refusal('broadcast', 'ompi', 12000, buildTopology('torus:3x4'))).toThrow(/^algorithm: got "ompi"; accepted: .*broadcast ompi selector runs NTSB at 12000 B on 12 ranks, which broadcasts the last 3808 B with the ompi selector again \(not modelled; name NTSB instead\)$/);
    // Not applicable at this size (compare skips it), as an algorithm's own refusal is.
    expect(refusal('broadcast', 'ompi', 12000, buildTopology('torus:3x4'))).toThrow(NotApplicableError);
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'ompi', topology: buildTopology('torus:2'), size: 4 }).algorithmSpec).toBe('chain:recvs=double-buffered,segment=4');
    expect(buildSchedule({ collective: 'reduce-scatter', algorithm: 'ompi', topology, size: 1 << 20 }).algorithmSpec).toBe('butterfly');
    expect(buildSchedule({ collective: 'allgather', algorithm: 'ompi', topology, size: 1024 }).algorithmSpec).toBe('neighbor-exchange');
    expect(buildSchedule({ collective: 'reduce-scatter', algorithm: 'default', topology, size: 64 * 1024 }).algorithmSpec).toBe('reduce-then-scatter');
    expect(refusal('alltoall', 'ompi:x=1', 1024)).toThrow(/ompi alone: it names SMPI's alltoall selector/);
  });
});

describe('SMPI at rank counts that are not powers of two (smpi-cases on 12, 27, 45, 48 and 96 ranks)', () => {
  const sendsOf = (s: Schedule, rank: number): number[][] =>
    Array.from({ length: s.numOps }, (_, op) => op)
      .filter((op) => s.opRank[op] === rank && s.opKind[op] === 0)
      .map((op) => [s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))]);

  it("allgather recursive-doubling (SMPI rdb, ompi's choice below 32 ranks) delivers every block for 1 to 40 ranks, MPICH's tree fix-up where a partner is missing", () => {
    for (let n = 1; n <= 40; n++) {
      const r = executeSchedule(buildSchedule({ collective: 'allgather', algorithm: 'rdb', topology: buildTopology(`torus:${n}`), size: 3 }));
      expect(r.problems, `${n} ranks`).toEqual([]);
      expect(r.pass).toBe(true);
    }
    // 6 ranks, 4-byte blocks (allgather-rdb.cpp by hand): mask 1 pairs swap one block, mask 2 pairs 0-2 and
    // 1-3 swap two (4 and 5 have no partner), mask 4: 0 and 1 swap with 4 and 5 (four blocks out, two in),
    // and as 4's subtree is cut short, 0 and 1 pass blocks 4-5 on to 2 and 3.
    const s = buildSchedule({ collective: 'allgather', algorithm: 'rdb', topology: buildTopology('torus:6'), size: 4 });
    expect(sendsOf(s, 0)).toEqual([[1, 4], [2, 8], [4, 16], [2, 8]]);
    expect(sendsOf(s, 2)).toEqual([[3, 4], [0, 8]]);
    expect(sendsOf(s, 4)).toEqual([[5, 4], [0, 8]]);
  });

  it("allreduce rdb folds even ranks out (allreduce-rdb.cpp: even ranks below 2·(n − p2) send to rank + 1), unlike Meshwork's default odd-out", () => {
    const topology = buildTopology('torus:6');
    const smpi = buildSchedule({ collective: 'allreduce', algorithm: 'rdb', topology, size: 24 });
    expect(smpi.algorithmSpec).toBe('recursive-doubling:fold=even-out');
    // Rank 0 sits out: its vector to 1, nothing else sent; rank 1 (new rank 0) exchanges with 3 and 4, then returns the result to 0.
    expect(sendsOf(smpi, 0)).toEqual([[1, 24]]);
    expect(sendsOf(smpi, 1)).toEqual([[3, 24], [4, 24], [0, 24]]);
    expect(sendsOf(buildSchedule({ collective: 'allreduce', algorithm: 'recursive-doubling', topology, size: 24 }), 1)).toEqual([[0, 24]]);
    for (const n of [3, 5, 6, 7, 12, 13]) {
      const r = executeSchedule(buildSchedule({ collective: 'allreduce', algorithm: 'rdb', topology: buildTopology(`torus:${n}`), size: 4 * n }));
      expect(r.problems, `${n} ranks`).toEqual([]);
    }
  });

  it('reduce-scatter recursive-halving (ompi_basic_recursivehalving, the ompi reduce_scatter below 256 KiB from 8 to 31 ranks): every block reduced and home for 1 to 40 ranks; farthest partner first, the fold as the butterfly', () => {
    expect(smpiSelectorChoice('reduce-scatter', 'ompi', 65536, 27)).toBe('ompi_basic_recursivehalving');
    for (let n = 1; n <= 40; n++) {
      for (const elements of [1, 3]) {
        const r = executeSchedule(buildSchedule({ collective: 'reduce-scatter', algorithm: 'ompi_basic_recursivehalving', topology: buildTopology(`torus:${n}`), size: 4 * n * elements }));
        expect(r.problems, `${n} ranks`).toEqual([]);
        expect(r.pass).toBe(true);
      }
    }
    // 6 ranks, one int each (reduce_scatter-ompi.cpp by hand): rank 0 sends its vector to 1 and sits out;
    // rank 1 (virtual 0) sends virtual blocks 2-3 (real 4, 5) to 4, then virtual block 1 (real 2, 3) to 3,
    // then block 0 to rank 0; rank 4 (virtual 2) sends virtual 0-1 (real 0-3) to 1, then block 5 to 5.
    const s = buildSchedule({ collective: 'reduce-scatter', algorithm: 'ompi', topology: buildTopology('torus:6'), size: 24 });
    expect(s.algorithmSpec).toBe('recursive-halving');
    expect(sendsOf(s, 0)).toEqual([[1, 24]]);
    expect(sendsOf(s, 1)).toEqual([[4, 8], [3, 8], [0, 4]]);
    expect(sendsOf(s, 4)).toEqual([[1, 16], [5, 4]]);
  });

  it('reduce binary-pipelined (ompi_binary, the ompi reduce below 4 or 8 KiB from 8 to 31 ranks): Open MPI\'s binary tree, 32 KiB segments, the reduction byte for byte', () => {
    expect(smpiSelectorChoice('reduce', 'ompi', 1024, 12)).toBe('ompi_binary');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.nat(), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 50 }), (n, rootSeed, elements, segment) => {
        const s = buildSchedule({ collective: 'reduce', algorithm: `binary-pipelined:segment=${segment}`, topology: buildTopology(`torus:${n}`), size: 4 * elements, root: rootSeed % n });
        const r = executeSchedule(s);
        expect(r.problems).toEqual([]);
        expect(r.pass).toBe(true);
      }),
      { numRuns: 60, seed: 34 },
    );
    // coll_tuned_topo.cpp's tree on 12 ranks, root 0: 0 → 1, 2; 1 → 3, 5; 2 → 4, 6; 3 → 7, 11; 4 → 8; 5 → 9; 6 → 10.
    const s = buildSchedule({ collective: 'reduce', algorithm: 'ompi', topology: buildTopology('torus:12'), size: 1024 });
    expect(s.algorithmSpec).toBe('binary-pipelined');
    const parentOf = (rank: number) => sendsOf(s, rank).map(([to]) => to);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(parentOf)).toEqual([[0], [0], [1], [2], [1], [2], [3], [4], [5], [6], [3]]);
    // 64 KiB in two 32 KiB segments: a leaf sends two.
    expect(sendsOf(buildSchedule({ collective: 'reduce', algorithm: 'ompi_binary', topology: buildTopology('torus:12'), size: 65536 }), 11)).toEqual([[3, 32768], [3, 32768]]);
  });

  it('broadcast scatter-rdb-allgather (scatter_rdb_allgather, the ompi bcast from 1 MiB at 16 to 31 ranks): every byte everywhere for 1 to 40 ranks, any root, pieces short or empty', () => {
    expect(smpiSelectorChoice('broadcast', 'ompi', 1 << 20, 27)).toBe('scatter_rdb_allgather');
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'ompi', topology: buildTopology('torus:3x3x3'), size: 1 << 20 }).algorithmSpec).toBe('scatter-rdb-allgather');
    for (let n = 1; n <= 40; n++) {
      for (const size of [1, 5, 97, 1000]) {
        const r = executeSchedule(buildSchedule({ collective: 'broadcast', algorithm: 'scatter_rdb_allgather', topology: buildTopology(`torus:${n}`), size, root: (n * 7) % n }));
        expect(r.problems, `${n} ranks, ${size} B`).toEqual([]);
        expect(r.pass).toBe(true);
      }
    }
    // 6 ranks, 12 bytes, 2-byte pieces (bcast-scatter-rdb-allgather.cpp by hand): the root scatters 4 B to 4,
    // 4 B to 2, 2 B to 1; then swaps 2, 4 and 8 B with 1, 2 and 4, and, as 4's subtree is cut short,
    // passes bytes 8-11 to 2 (and 1 to 3).
    const six = buildSchedule({ collective: 'broadcast', algorithm: 'scatter_rdb_allgather', topology: buildTopology('torus:6'), size: 12 });
    expect(sendsOf(six, 0)).toEqual([[4, 4], [2, 4], [1, 2], [1, 2], [2, 4], [4, 8], [2, 4]]);
    expect(sendsOf(six, 1)).toEqual([[0, 2], [3, 4], [5, 8], [3, 4]]);
  });

  it('barrier recursive-doubling (ompi_recursivedoubling, the ompi barrier from 8 to 63 ranks): ranks from p2 check in with rank − p2 and are released last', () => {
    expect(smpiSelectorChoice('barrier', 'ompi', 0, 12)).toBe('ompi_recursivedoubling');
    const s = buildSchedule({ collective: 'barrier', algorithm: 'ompi', topology: buildTopology('torus:12'), size: 0 });
    expect(s.algorithmSpec).toBe('recursive-doubling');
    // 12 = 8 + 4: rank 9 checks in with 1 (and is released by it); rank 1 exchanges with 0, 3, 5, then releases 9; rank 5 only exchanges.
    expect(sendsOf(s, 9)).toEqual([[1, 0]]);
    expect(sendsOf(s, 1)).toEqual([[0, 0], [3, 0], [5, 0], [9, 0]]);
    expect(sendsOf(s, 5)).toEqual([[4, 0], [7, 0], [1, 0]]);
    for (let n = 1; n <= 20; n++) expect(executeSchedule(buildSchedule({ collective: 'barrier', algorithm: 'ompi_recursivedoubling', topology: buildTopology(`torus:${n}`), size: 0 })).problems, `${n} ranks`).toEqual([]);
  });

  it("the ompi allgather's neighbor exchange runs SMPI's ring for an odd rank count; alltoall pair on a non-power of two is refused (smpirun aborts)", () => {
    expect(smpiSelectorChoice('allgather', 'ompi', 1024, 45)).toBe('ring');
    expect(smpiSelectorChoice('allgather', 'ompi', 1024, 48)).toBe('ompi_neighborexchange');
    expect(buildSchedule({ collective: 'allgather', algorithm: 'ompi', topology: buildTopology('torus:5x3x3'), size: 1024 }).algorithmSpec).toBe('ring:order=shift');
    const odd = buildTopology('torus:5x3x3');
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'mpich', topology: odd, size: 65536 })).toThrow(/alltoall mpich selector runs pair at 65536 B on 45 ranks, which needs a power of two \(smpirun aborts/);
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'mpich', topology: odd, size: 65536 })).toThrow(NotApplicableError);
    expect(buildSchedule({ collective: 'alltoall', algorithm: 'mpich', topology: buildTopology('torus:4x4x3'), size: 65536 }).algorithmSpec).toBe('ring');
    // So does Open MPI's rule from 256 KiB on 64 to 127 ranks (smpirun on 96 ranks at 256 KiB: the same abort).
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'ompi', topology: buildTopology('torus:4x4x6'), size: 262144 })).toThrow(/alltoall ompi selector runs pair at 262144 B on 96 ranks/);
    // From 128 ranks the ompi allreduce runs redbcast below 128 KiB: MPI_Reduce then MPI_Bcast with SMPI's
    // own (default) reduce and bcast, the default selector's allreduce.
    expect(smpiSelectorChoice('allreduce', 'ompi', 65536, 128)).toBe('redbcast');
    expect(buildSchedule({ collective: 'allreduce', algorithm: 'ompi', topology: buildTopology('torus:8x4x4'), size: 65536 }).algorithmSpec).toBe('reduce-broadcast');
    // Open MPI's reduce_scatter "non-overlapping" (its first choice) is the default selector's reduce then scatterv.
    expect(smpiSelectorChoice('reduce-scatter', 'ompi', 32, 48)).toBe('ireduce+scatterv');
  });
});

describe("SMPI's SMP algorithms on one rank per host (the mpich selector's allreduce, reduce and bcast, ompi's mvapich2_knomial_intra_node) and mpich_rdb", () => {
  const opsOf = (s: Schedule, rank: number): string[] => Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opRank[op] === rank).map((op) => s.describeOp(op));
  const sendsOf = (s: Schedule, rank: number): number[][] =>
    Array.from({ length: s.numOps }, (_, op) => op)
      .filter((op) => s.opRank[op] === rank && (s.opKind[op] === 0 || s.describeOp(op).startsWith('isend')))
      .map((op) => [s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))]);

  it('each smp=true variant, knomial and reduce-scatter recursive-doubling deliver their postcondition byte for byte (1 to 20 ranks and 27, 45, 48, first and last root)', () => {
    const variants: Array<[CollectiveKind, string, (n: number) => number]> = [
      ['broadcast', 'binomial:smp=true', () => 40],
      ['broadcast', 'binomial:smp=true,tree=rank0', () => 40],
      ['broadcast', 'scatter-allgather:smp=true', () => 41],
      ['broadcast', 'scatter-rdb-allgather:smp=true', () => 41],
      ['allgather', 'recursive-doubling:smp=true', () => 12],
      ['allgather', 'ring:order=shift,smp=true', () => 12],
      ['scatter', 'linear:smp=true', () => 12],
      ['scatter', 'binomial:order=smallest-first,smp=true', () => 12],
      ['alltoall', 'linear:sends=reverse,batch=4,self=message,smp=true', () => 12],
      ['broadcast', 'knomial', () => 40],
      ['broadcast', 'knomial:radix=3,smp=true', () => 41],
      ['broadcast', 'knomial:radix=2', () => 7],
      ['allreduce', 'recursive-doubling:fold=even-out,smp=true', (n) => 8 * n],
      ['reduce', 'recursive-doubling:smp=true', (n) => 8 * n],
      ['reduce', 'rabenseifner:order=near-first,gather=binomial,smp=true', (n) => 8 * n],
      ['reduce-scatter', 'recursive-doubling', (n) => 4 * n],
      ['reduce-scatter', 'recursive-doubling', (n) => 12 * n],
    ];
    for (const [collective, algorithm, size] of variants) {
      for (const n of [...Array.from({ length: 20 }, (_, i) => i + 1), 27, 45, 48]) {
        for (const root of new Set([0, n - 1])) {
          const r = executeSchedule(buildSchedule({ collective, algorithm, topology: buildTopology(`torus:${n}`), size: size(n), root }));
          expect(r.problems, `${collective} ${algorithm} on ${n} ranks, root ${root}`).toEqual([]);
          expect(r.pass).toBe(true);
        }
      }
    }
  });

  it("init_smp's messages come first (smpi_comm.cpp): two shift-ring allgathers of 4 B, then 4 B to rank 0 and a binomial broadcast of 4 B", () => {
    const s = buildSchedule({ collective: 'broadcast', algorithm: 'SMP_binomial', topology: buildTopology('torus:5'), size: 64 });
    expect(s.algorithmSpec).toBe('binomial:smp=true,tree=rank0');
    // Rank 2 of 5: ring steps to 3, 4, 0, 1 twice; its flag to 0; the flag from 0 (binomial: 2's parent); the data from 0, on to 3.
    expect(sendsOf(s, 2)).toEqual([[3, 4], [4, 4], [0, 4], [1, 4], [3, 4], [4, 4], [0, 4], [1, 4], [0, 4], [3, 4], [3, 64]]);
    expect(opsOf(s, 0).filter((d) => d.startsWith('irecv')).length).toBe(4);
    // The ring allgather's declared size counts init_smp too (what engines refuse large requests by).
    for (const n of [5, 27]) {
      const req = { collective: 'allgather' as const, algorithm: 'ring:order=shift,smp=true', topology: buildTopology(`torus:${n}`), size: 8 };
      const built = buildSchedule(req);
      const messages = Array.from({ length: built.numOps }, (_, op) => op).filter((op) => built.opKind[op] === 0).reduce((sum, op) => sum + built.sendDests(op).length, 0);
      expect(estimateSchedule(req)).toEqual({ ops: built.numOps, messages });
    }
    // A root other than 0 sends the buffer to rank 0 first, which roots the tree (bcast-SMP-binomial.cpp).
    const rooted = buildSchedule({ collective: 'broadcast', algorithm: 'binomial:smp=true,tree=rank0', topology: buildTopology('torus:5'), size: 64, root: 3 });
    expect(sendsOf(rooted, 3).slice(-2)).toEqual([[0, 4], [0, 64]]);
    expect(sendsOf(rooted, 0).slice(-3)).toEqual([[4, 64], [2, 64], [1, 64]]);
  });

  it('knomial (mvapich2_knomial_intra_node, radix 4): rank 0 of 64 isends to 16, 32, 48, then 4, 8, 12, then 1, 2, 3, waiting after each level', () => {
    const s = buildSchedule({ collective: 'broadcast', algorithm: 'knomial', topology: buildTopology('torus:4x4x4'), size: 8 });
    expect(sendsOf(s, 0).map(([to]) => to)).toEqual([16, 32, 48, 4, 8, 12, 1, 2, 3]);
    expect(opsOf(s, 0).filter((d) => d.startsWith('waitall')).length).toBe(3);
    // Rank 20 hears from 16, then feeds 21, 22, 23.
    expect(opsOf(s, 20).filter((d) => d.startsWith('recv'))).toHaveLength(1);
    expect(sendsOf(s, 20).map(([to]) => to)).toEqual([21, 22, 23]);
    // The ompi selector's choice on 64 ranks at every size, and from 2 KiB on 33 to 63.
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'ompi', topology: buildTopology('torus:4x4x4'), size: 1024 }).algorithmSpec).toBe('knomial:radix=4,smp=true');
    expect(smpiSelectorChoice('broadcast', 'ompi', 2048, 45)).toBe('mvapich2_knomial_intra_node');
  });

  it("the mpich selector resolves its SMP algorithms to their variants: allreduce rdb, reduce binomial below 2 KiB (or fewer elements than pof2), else scatter_gather", () => {
    const on = (n: string) => buildTopology(`torus:${n}`);
    const spec = (collective: CollectiveKind, algorithm: string, size: number, topology = on('4x4x4'), dtype?: 'float64') => buildSchedule({ collective, algorithm, topology, size, dtype }).algorithmSpec;
    expect(spec('allreduce', 'mpich', 1 << 20)).toBe('recursive-doubling:fold=even-out,smp=true');
    expect(spec('allreduce', 'mvapich2_two_level', 1024, on('3x3x3'))).toBe('recursive-doubling:fold=even-out,smp=true');
    expect(spec('reduce', 'mpich', 2044)).toBe('recursive-doubling:smp=true');
    expect(spec('reduce', 'mpich', 2048)).toBe('rabenseifner:order=near-first,gather=binomial,smp=true');
    // 4 KiB of float64 is 512 elements, fewer than the 1024 ranks' pof2: binomial (reduce__mpich's count < pof2).
    expect(spec('reduce', 'mvapich2_two_level', 4096, on('16x8x8'), 'float64')).toBe('recursive-doubling:smp=true');
    expect(spec('reduce', 'mvapich2_two_level', 8192, on('8x4x4'), 'float64')).toBe('rabenseifner:order=near-first,gather=binomial,smp=true');
    expect(buildSchedule({ collective: 'reduce', algorithm: 'mpich', topology: on('4x4x4'), size: 1024 }).algorithmAlias).toBe('mpich → mvapich2_two_level at 1024 B on 64 ranks (SimGrid SMPI 3.32 reduce selector)');
    expect(() => buildSchedule({ collective: 'reduce', algorithm: 'mvapich2_two_level:x=1', topology: on('4'), size: 16 })).toThrow(/mvapich2_two_level alone/);
    expect(spec('reduce-scatter', 'mpich_rdb', 256)).toBe('recursive-doubling');
  });

  it('reduce-scatter recursive-doubling (mpich_rdb): each step all blocks but the own subtree\'s, the tree fix-up where the partner is past the last rank', () => {
    // 8 ranks, one int each: rank 0 sends 7, 6, 4 blocks to 1, 2, 4.
    const eight = buildSchedule({ collective: 'reduce-scatter', algorithm: 'recursive-doubling', topology: buildTopology('torus:8'), size: 32 });
    expect(sendsOf(eight, 0)).toEqual([[1, 28], [2, 24], [4, 16]]);
    // 6 ranks: at mask 4, ranks 2 and 3 have no partner (6, 7); 0 and 1 exchange with 4 and 5 (send blocks
    // 4-5, receive 0-3: all but 4's subtree), then 0 passes what it received on to 2, and 1 to 3 (reduce_scatter-mpich.cpp).
    const six = buildSchedule({ collective: 'reduce-scatter', algorithm: 'recursive-doubling', topology: buildTopology('torus:6'), size: 24 });
    expect(sendsOf(six, 0)).toEqual([[1, 20], [2, 16], [4, 8], [2, 16]]);
    expect(sendsOf(six, 2)).toEqual([[3, 20], [0, 16]]);
  });
});

describe("SMPI's mvapich2 selector (smpi_mvapich2_selector.cpp, the 1-ppn stampede tables: one rank per host)", () => {
  it('chooses as the tables read at their edges (MVAPICH2 moves on while nbytes > max)', () => {
    // allreduce, 33 to 512 ranks: two-level rdb up to 16 KiB, then mvapich2_rs; 16 ranks: two-level up to 1 KiB.
    expect(smpiSelectorChoice('allreduce', 'mvapich2', 16384, 64)).toBe('mvapich2_two_level');
    expect(smpiSelectorChoice('allreduce', 'mvapich2', 16385, 64)).toBe('mvapich2_rs');
    expect(smpiSelectorChoice('allreduce', 'mvapich2', 1025, 16)).toBe('mvapich2_rs');
    expect(smpiSelectorChoice('allreduce', 'mvapich2', 32768, 1024)).toBe('mvapich2_two_level+mvapich2_rs');
    // reduce_scatter, 33 to 64 ranks: the default's reduce then scatterv up to 1 KiB, recursive halving up to 256 KiB, then pairwise.
    expect(smpiSelectorChoice('reduce-scatter', 'mvapich2', 1024, 64)).toBe('ireduce+scatterv');
    expect(smpiSelectorChoice('reduce-scatter', 'mvapich2', 262144, 64)).toBe('ompi_basic_recursivehalving');
    expect(smpiSelectorChoice('reduce-scatter', 'mvapich2', 262148, 64)).toBe('mpich_pair');
    expect(smpiSelectorChoice('alltoall', 'mvapich2', 1025, 64)).toBe('mvapich2_scatter_dest');
    expect(smpiSelectorChoice('alltoall', 'mvapich2', 2048, 32)).toBe('bruck');
    expect(smpiSelectorChoice('allgather', 'mvapich2', 32768, 64)).toBe('init_smp+rdb');
    expect(smpiSelectorChoice('allgather', 'mvapich2', 32769, 64)).toBe('init_smp+ring');
    expect(smpiSelectorChoice('scatter', 'mvapich2', 32, 64)).toBe('init_smp+ompi_binomial');
    expect(smpiSelectorChoice('scatter', 'mvapich2', 1 << 20, 32)).toBe('init_smp+ompi_basic_linear');
    expect(smpiSelectorChoice('gather', 'mvapich2', 1 << 20, 64)).toBe('ompi_binomial');
    expect(smpiSelectorChoice('barrier', 'mvapich2', 0, 45)).toBe('mvapich2_pair');
    // bcast: bcast__mpich over the leaders (binomial below 12,288 B, scatter_rdb_allgather below 512 KiB on an
    // even count, else scatter_LR_allgather); up to 16 ranks the table names binomial_tree from 8 to 16 KiB.
    expect(smpiSelectorChoice('broadcast', 'mvapich2', 12287, 64)).toBe('init_smp+binomial_tree');
    expect(smpiSelectorChoice('broadcast', 'mvapich2', 12288, 64)).toBe('init_smp+scatter_rdb_allgather');
    expect(smpiSelectorChoice('broadcast', 'mvapich2', 12288, 45)).toBe('init_smp+scatter_LR_allgather');
    expect(smpiSelectorChoice('broadcast', 'mvapich2', 16384, 16)).toBe('init_smp+binomial_tree');
    expect(smpiSelectorChoice('broadcast', 'mvapich2', 524288, 16)).toBe('init_smp+scatter_rdb_allgather');
  });

  it('resolves each choice to its Meshwork variant, and refuses what Meshwork does not model in one line naming it', () => {
    const topology = buildTopology('torus:4x4x4');
    const spec = (collective: CollectiveKind, size: number, on = topology) => buildSchedule({ collective, algorithm: 'mvapich2', topology: on, size }).algorithmSpec;
    expect(spec('allreduce', 1024)).toBe('recursive-doubling:fold=even-out,smp=true');
    expect(spec('allreduce', 65536)).toBe('rabenseifner:order=near-first,fold=even-out');
    expect(spec('allgather', 1024)).toBe('recursive-doubling:smp=true');
    expect(spec('allgather', 65536)).toBe('ring:order=shift,smp=true');
    expect(spec('reduce-scatter', 1024)).toBe('reduce-then-scatter');
    expect(spec('alltoall', 1024)).toBe('bruck');
    expect(spec('barrier', 0)).toBe('recursive-doubling');
    expect(spec('scatter', 1024)).toBe('linear:smp=true');
    expect(spec('gather', 1024)).toBe('binomial');
    expect(spec('broadcast', 1 << 20)).toBe('scatter-allgather:smp=true');
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'mvapich2', topology, size: 1024, root: 5 }).algorithmSpec).toBe('binomial:smp=true');
    // mvapich2_rs: rdb below pof2 elements (8 ints on 64 ranks), else as rab_rdb.
    expect(buildSchedule({ collective: 'allreduce', algorithm: 'mvapich2_rs', topology, size: 32 }).algorithmSpec).toBe('recursive-doubling:fold=even-out');
    // alltoall: rdb up to 8 B, bruck to 1 KiB, then MVAPICH2's scatter_dest (rounds of 4, the own block a message to itself).
    expect(spec('alltoall', 8)).toBe('recursive-doubling');
    expect(spec('alltoall', 65536)).toBe('linear:sends=reverse,batch=4,self=message');
    // reduce: MVAPICH2's k-nomial reduce (radix 4) over the leaders after init_smp below 16 KiB on 33 to 64 ranks; two-level binomial to 64 KiB, then scatter_gather.
    expect(spec('reduce', 1024)).toBe('knomial:radix=4,smp=true');
    expect(spec('reduce', 65536)).toBe('recursive-doubling:smp=true');
    expect(spec('reduce', 1 << 20)).toBe('rabenseifner:order=near-first,gather=binomial');
    expect(spec('reduce', 1 << 20, buildTopology('torus:3x3x3'))).toBe('recursive-doubling');
  });
});

describe("SMPI's impi selector (smpi_intel_mpi_selector.cpp), allreduce: init_smp, then Intel MPI's 1-ppn table", () => {
  it('chooses by the first max_size above the bytes, and runs each choice after init_smp', () => {
    // Past 16 ranks: rdb below 182 B, two-level (4, 6) to 1450 B, rdb to 11,146 B, ..., rab1 from 93,784 B, redbcast from 817,658 B.
    expect(smpiSelectorChoice('allreduce', 'impi', 181, 64)).toBe('init_smp+rdb');
    expect(smpiSelectorChoice('allreduce', 'impi', 1449, 64)).toBe('mvapich2_two_level');
    expect(smpiSelectorChoice('allreduce', 'impi', 93784, 64)).toBe('init_smp+rab1');
    expect(smpiSelectorChoice('allreduce', 'impi', 817658, 64)).toBe('init_smp+redbcast');
    expect(smpiSelectorChoice('allreduce', 'impi', 65536, 16)).toBe('init_smp+ompi_ring_segmented');
    expect(buildSchedule({ collective: 'allreduce', algorithm: 'impi', topology: buildTopology('torus:4x4'), size: 65536 }).algorithmSpec).toBe('ring:segment=1048576,remainder=redbcast,smp=true');
    const topology = buildTopology('torus:4x4x4');
    expect(buildSchedule({ collective: 'allreduce', algorithm: 'impi', topology, size: 1 << 20 }).algorithmSpec).toBe('reduce-broadcast:smp=true');
    expect(buildSchedule({ collective: 'allreduce', algorithm: 'impi', topology, size: 100 }).algorithmSpec).toBe('recursive-doubling:fold=even-out,smp=true');
    // rab1 after init_smp (SMPI's rab1: far-first halving, then its default allgather).
    expect(buildSchedule({ collective: 'allreduce', algorithm: 'impi', topology, size: 131072 }).algorithmSpec).toBe('rabenseifner:allgather=linear,smp=true');
    for (const n of [1, 2, 5, 13]) {
      const r = executeSchedule(buildSchedule({ collective: 'allreduce', algorithm: 'reduce-broadcast:smp=true', topology: buildTopology(`torus:${n}`), size: 8 * n }));
      expect(r.problems, `${n} ranks`).toEqual([]);
      expect(r.pass).toBe(true);
    }
  });
});

describe("SMPI's impi selector, the other collectives: init_smp, then Intel MPI's 1-ppn tables (smpi_intel_mpi_selector.cpp)", () => {
  const choice = (c: CollectiveKind, size: number, ranks: number) => smpiSelectorChoice(c, 'impi', size, ranks);
  it('chooses at the table edges, through the mvapich2 selector where Intel names it', () => {
    // alltoall (the block): bruck below 523 B from 33 ranks, then scatter_dest; pair from 84,645 B on 9 to 16 ranks.
    expect(choice('alltoall', 522, 64)).toBe('init_smp+bruck');
    expect(choice('alltoall', 523, 64)).toBe('init_smp+mvapich2_scatter_dest');
    expect(choice('alltoall', 146088, 64)).toBe('init_smp+mvapich2_scatter_dest'); // 4: alltoall__mvapich2
    expect(choice('alltoall', 84645, 16)).toBe('init_smp+pair');
    expect(choice('alltoall', 167570, 16)).toBe('init_smp+mvapich2_scatter_dest'); // 4: mvapich2's, scatter_dest past 512 B
    expect(choice('alltoall', 160, 32)).toBe('init_smp+mvapich2_scatter_dest');
    // barrier: ompi_recursivedoubling on 9 to 64 ranks, basic_linear on 5 to 8; 5 and 6 (3-4 ranks, past 64) the default's basic_linear.
    for (const n of [12, 45, 64]) expect(choice('barrier', 0, n)).toBe('init_smp+ompi_recursivedoubling');
    for (const n of [3, 8, 65]) expect(choice('barrier', 0, n)).toBe('init_smp+ompi_basic_linear');
    // bcast: past 8 ranks always 7 (bcast__mvapich2, which finds init_smp done); on 5 to 8 ranks the table's own.
    for (const n of [9, 16, 27, 45, 64]) for (const s of [1024, 16384, 65536, 1 << 20, 1 << 24]) expect(choice('broadcast', s, n)).toBe(smpiSelectorChoice('broadcast', 'mvapich2', s, n));
    expect(choice('broadcast', 255, 8)).toBe('init_smp+binomial_tree');
    expect(choice('broadcast', 300, 8)).toBe('init_smp+SMP_linear');
    // reduce: always 1 (reduce__mvapich2) after init_smp: its one-level binomial too.
    expect(smpiSelectorChoice('reduce', 'mvapich2', 1 << 20, 16)).toBe('binomial');
    expect(choice('reduce', 1 << 20, 16)).toBe('init_smp+binomial');
    expect(choice('reduce', 1 << 24, 64)).toBe('init_smp+scatter_gather');
    expect(choice('reduce', 1024, 64)).toBe('mvapich2_two_level+mvapich2_knomial');
    // reduce_scatter (the whole buffer): recursive halving to 100,396 B on 33 to 64 ranks, then pair; on 9 to 16 also rdb and reduce+scatterv.
    expect(choice('reduce-scatter', 100395, 64)).toBe('init_smp+ompi_basic_recursivehalving');
    expect(choice('reduce-scatter', 100396, 64)).toBe('init_smp+mpich_pair');
    expect(choice('reduce-scatter', 14228, 16)).toBe('init_smp+mpich_rdb');
    expect(choice('reduce-scatter', 522139, 16)).toBe('init_smp+ireduce+scatterv');
    expect(choice('reduce-scatter', 3, 64)).toBe('init_smp+ireduce+scatterv');
    // allgather (the block): past 16 ranks rdb and GB alternate; on 9 to 16 the ring from 143,741 B.
    expect(choice('allgather', 183, 64)).toBe('init_smp+rdb');
    expect(choice('allgather', 184, 64)).toBe('init_smp+GB');
    expect(choice('allgather', 123677, 64)).toBe('init_smp+rdb');
    expect(choice('allgather', 143741, 16)).toBe('init_smp+ring');
    // gather: 3 is gather__mvapich2 on a blocked communicator (init_smp done): its inter-leader function over every rank.
    expect(choice('gather', 16384, 64)).toBe('init_smp+ompi_basic_linear');
    expect(choice('gather', 16385, 64)).toBe('mvapich2_two_level');
    expect(choice('gather', 16385, 32)).toBe('init_smp+ompi_binomial');
    expect(choice('gather', 47187, 64)).toBe('init_smp+ompi_binomial');
    expect(choice('gather', 349696, 64)).toBe('mvapich2_two_level');
    expect(choice('gather', 1 << 20, 16)).toBe('init_smp+ompi_binomial');
    expect(choice('gather', 1024, 16)).toBe('init_smp+ompi_basic_linear');
    // scatter: the 1-ppn table ends at 8 ranks (SMPI reads past it); its 8-rank row's seventh entry is {0, 0}.
    expect(choice('scatter', 1024, 9)).toMatch(/past Intel's 1-ppn scatter table \(which ends at 8 ranks\)/);
    expect(choice('scatter', 2000000, 8)).toMatch(/algorithm 0/);
    expect(choice('scatter', 1024, 8)).toBe('init_smp+ompi_basic_linear');
    expect(smpiSelectorChoice('alltoallv', 'impi', 0, 64)).toBe('init_smp+ompi_basic_linear');
  });

  it('runs each choice as its smp=true variant and refuses, in one line naming it, what Meshwork does not model', () => {
    const topology = buildTopology('torus:4x4x4');
    const spec = (collective: CollectiveKind, size: number, t = topology) => buildSchedule({ collective, algorithm: 'impi', topology: t, size }).algorithmSpec;
    expect(spec('alltoall', 512)).toBe('bruck:smp=true');
    expect(spec('alltoall', 131072, buildTopology('torus:4x4'))).toBe('pairwise:order=xor,smp=true');
    expect(spec('barrier', 0)).toBe('recursive-doubling:smp=true');
    expect(spec('broadcast', 1 << 20)).toBe('scatter-allgather:smp=true');
    expect(spec('reduce', 65536)).toBe('recursive-doubling:smp=true');
    expect(spec('reduce', 1 << 24)).toBe('rabenseifner:order=near-first,gather=binomial,smp=true');
    expect(spec('reduce-scatter', 65536)).toBe('recursive-halving:smp=true');
    expect(spec('reduce-scatter', 1 << 20)).toBe('pairwise:smp=true');
    expect(spec('reduce-scatter', 16384, buildTopology('torus:4x4'))).toBe('recursive-doubling:smp=true');
    expect(spec('reduce-scatter', 1 << 20, buildTopology('torus:4x4'))).toBe('reduce-then-scatter:smp=true');
    expect(spec('allgather', 65536)).toBe('recursive-doubling:smp=true');
    expect(spec('allgather', 262144, buildTopology('torus:4x4'))).toBe('ring:order=shift,smp=true');
    expect(spec('gather', 1024)).toBe('linear:smp=true');
    expect(spec('gather', 65536)).toBe('binomial:smp=true');
    // Intel's scatter_dest after init_smp (smpi-cases flat-16-a2a-smp-alltoall-impi: within 0.1 % of smpirun).
    expect(spec('alltoall', 65536)).toBe('linear:sends=reverse,batch=4,self=message,smp=true');
    expect(() => spec('alltoall', 200000, buildTopology('torus:3x3x3'))).toThrow(/alltoall impi selector runs pair at 200000 B on 27 ranks, which needs a power of two/);
    expect(spec('allgather', 1024)).toBe('gather-broadcast:smp=true');
    // MVAPICH2's two-level gather (init_smp done, then ompi_basic_linear over every rank; smpi-cases torus-4x4x4-bc-smp-gather-impi).
    expect(spec('gather', 1 << 20)).toBe('linear:smp=true');
    expect(spec('reduce', 1024)).toBe('knomial:radix=4,smp=true');
    expect(() => spec('scatter', 1024)).toThrow(/scatter impi selector runs init_smp\+an entry past Intel's 1-ppn scatter table \(which ends at 8 ranks\) at 1024 B on 64 ranks/);
  });

  it("each new smp=true variant is init_smp's messages, then the plain variant's, byte for byte", () => {
    // Rank 2 of 5 in init_smp: two shift rings (to 3, 4, 0, 1), its flag to 0, the flag on to 3 (binomial from 0).
    const prelude = [[3, 4], [4, 4], [0, 4], [1, 4], [3, 4], [4, 4], [0, 4], [1, 4], [0, 4], [3, 4]];
    const variants: Array<[CollectiveKind, string, (n: number) => number]> = [
      ['alltoall', 'bruck', () => 8],
      ['alltoall', 'pairwise:order=shift', () => 8],
      ['reduce-scatter', 'recursive-halving', (n) => 8 * n],
      ['reduce-scatter', 'recursive-doubling', (n) => 8 * n],
      ['reduce-scatter', 'pairwise', (n) => 8 * n],
      ['reduce-scatter', 'reduce-then-scatter', (n) => 8 * n],
      ['barrier', 'recursive-doubling', () => 0],
      ['barrier', 'linear', () => 0],
      ['gather', 'linear', () => 8],
      ['gather', 'binomial', () => 8],
    ];
    for (const [collective, plain, size] of variants) {
      const smp = `${plain}${plain.includes(':') ? ',' : ':'}smp=true`;
      for (const n of [1, 2, 5, 13]) {
        const built = buildSchedule({ collective, algorithm: smp, topology: buildTopology(`torus:${n}`), size: size(n), root: n > 2 ? 2 : 0 });
        const r = executeSchedule(built);
        expect(r.problems, `${collective} ${smp} on ${n}`).toEqual([]);
        expect(r.pass).toBe(true);
      }
      const at5 = (algorithm: string) => buildSchedule({ collective, algorithm, topology: buildTopology('torus:5'), size: size(5), root: 2 });
      const sends = (s: Schedule) => Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opRank[op] === 2 && s.opKind[op] === 0).map((op) => [s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))]);
      expect(sends(at5(smp)), `${collective} ${smp}`).toEqual([...prelude, ...sends(at5(plain))]);
    }
    // alltoallv: the impi selector's ompi_basic_linear after init_smp, with any sizes.
    for (const n of [1, 2, 5, 13]) {
      const s = buildSchedule({ collective: 'alltoallv', algorithm: 'impi', topology: buildTopology(`torus:${n}`), size: 0, sizes: generateAlltoallvSizes('random:max=9,seed=4', n) });
      expect(s.algorithmSpec).toBe('linear:smp=true');
      const r = executeSchedule(s);
      expect(r.problems, `alltoallv on ${n}`).toEqual([]);
      expect(r.pass).toBe(true);
    }
    // The bruck alltoall's declared size counts init_smp too (what engines refuse large requests by).
    const req = { collective: 'alltoall' as const, algorithm: 'bruck:smp=true', topology: buildTopology('torus:5'), size: 8 };
    const built = buildSchedule(req);
    const messages = Array.from({ length: built.numOps }, (_, op) => op).filter((op) => built.opKind[op] === 0).reduce((sum, op) => sum + built.sendDests(op).length, 0);
    expect(estimateSchedule(req)).toEqual({ ops: built.numOps, messages });
  });
});
