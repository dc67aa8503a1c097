/**
 * SimGrid SMPI 3.32's other allreduce and reduce algorithms as Meshwork aliases (src/collectives/smpi-names.ts):
 * each delivers its collective byte for byte, and its messages are the SMPI source's
 * (src/smpi/colls/allreduce/*.cpp, reduce/*.cpp). The timings against smpirun are the `-ar-` cases of
 * test/reference/simgrid-smpi-cases.test.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSchedule, buildTopology, executeSchedule, type Schedule } from '../../src/index.js';

/** Each rank's sends in program order as [destination, bytes]. */
function sendsOf(s: Schedule, rank: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let op = 0; op < s.numOps; op++) if (s.opRank[op] === rank && s.opKind[op] === 0) out.push([s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))]);
  return out;
}
/** Each rank's receives in program order as [source, bytes]. */
function recvsOf(s: Schedule, rank: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let op = 0; op < s.numOps; op++) if (s.opRank[op] === rank && s.opKind[op] === 1) out.push([s.opPeer[op], s.regionBytes(s.dataRegion(op))]);
  return out;
}
const isPow2 = (n: number) => (n & (n - 1)) === 0;
const build = (collective: 'allreduce' | 'reduce', algorithm: string, n: number, size: number, root = 0) =>
  buildSchedule({ collective, algorithm, topology: buildTopology(`torus:${n}`), size, root, dtype: 'int32', op: 'sum' });

const NAMES: ReadonlyArray<['allreduce' | 'reduce', string, (n: number, units: number) => boolean]> = [
  ['allreduce', 'rab1', (n, u) => isPow2(n) && u % n === 0],
  ['allreduce', 'rab2', (n, u) => u % n === 0 && n < 32],
  ['allreduce', 'lr', () => true],
  ['allreduce', 'ompi_ring_segmented', () => true],
  ['allreduce', 'smp_binomial', () => true],
  ['allreduce', 'smp_binomial_pipeline', (_n, u) => u <= 4096 || u % 4096 === 0],
  ['allreduce', 'smp_rdb', () => true],
  ['allreduce', 'smp_rsag', (n, u) => u % n === 0],
  ['allreduce', 'smp_rsag_lr', (n, u) => u % n === 0],
  ['allreduce', 'smp_rsag_rab', (n, u) => isPow2(n) && u % n === 0],
  ['reduce', 'flat_tree', () => true],
  ['reduce', 'ompi_basic_linear', () => true],
  ['reduce', 'ompi_chain', () => true],
  ['reduce', 'ompi_pipeline', () => true],
  ['reduce', 'ompi_in_order_binary', () => true],
  ['reduce', 'NTSL', () => true],
  ['reduce', 'mvapich2_knomial', () => true],
  ['reduce', 'rab', () => true],
  ['allreduce', 'rab', () => true],
];

describe("SMPI's allreduce and reduce algorithms as aliases", () => {
  for (const [collective, name, runs] of NAMES) {
    it(`${collective} ${name} delivers its postcondition (1 to 13 ranks, any root, sizes of 1 to 40 elements and segmented ones)`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 40 }), fc.nat(), fc.constantFrom(1, 3, 2100, 8195), (n, u, rootSeed, scale) => {
          // scale 2100 and 8195: more than one 8 KiB (NTSL), 64 KiB (ompi_chain) or 4096-element segment.
          const units = scale === 1 ? u : u * scale;
          if (!runs(n, units)) return;
          const s = build(collective, name, n, units * 4, rootSeed % n);
          expect(s.algorithmAlias).toContain(name);
          const r = executeSchedule(s);
          expect(r.problems).toEqual([]);
          expect(r.pass).toBe(true);
        }),
        { numRuns: 30, seed: 32 },
      );
    });
  }

  it('ompi_ring_segmented: redbcast below n elements, lr below n MiB, then phases of 1 MiB block parts, own block first', () => {
    expect(sendsOf(build('allreduce', 'ompi_ring_segmented', 16, 32), 3)).toEqual(sendsOf(build('allreduce', 'redbcast', 16, 32), 3));
    const lr = build('allreduce', 'ompi_ring_segmented', 16, 1024);
    expect(lr.algorithmSpec).toBe('ring:segment=1048576,remainder=redbcast');
    expect(sendsOf(lr, 3)).toEqual(sendsOf(build('allreduce', 'lr', 16, 1024), 3));
    const s = build('allreduce', 'ompi_ring_segmented', 4, 8 << 20);
    // Two phases of 1 MiB parts of 2 MiB blocks: rank 1 sends its block 1's part first, then block 0's, block 3's; then phase 2.
    expect(sendsOf(s, 1).slice(0, 4)).toEqual([[2, 1 << 20], [2, 1 << 20], [2, 1 << 20], [2, 1 << 20]]);
    // The allgather: three sendrecvs of whole 2 MiB blocks.
    expect(sendsOf(s, 1).slice(6)).toEqual([[2, 2 << 20], [2, 2 << 20], [2, 2 << 20]]);
  });

  it('lr: the ring over n blocks of count / n elements, then redbcast of the rest (to rank 0, then down a binomial tree)', () => {
    // 13 int32 on 4 ranks: blocks of 3 elements, then 1 element by redbcast.
    const s = build('allreduce', 'lr', 4, 52);
    expect(s.algorithmSpec).toBe('ring:remainder=redbcast');
    expect(sendsOf(s, 3)).toEqual([[0, 12], [0, 12], [0, 12], [0, 12], [0, 12], [0, 12], [0, 4]]);
    expect(sendsOf(s, 0).slice(6)).toEqual([[2, 4], [1, 4]]);
    expect(sendsOf(build('allreduce', 'lr', 4, 12), 0)).toEqual([[2, 12], [1, 12]]);
  });

  it('rab1: far-first halving (rank XOR p/2 first), then every segment to every rank in rank order', () => {
    const s = build('allreduce', 'rab1', 8, 8 * 64);
    expect(sendsOf(s, 5)).toEqual([[1, 256], [7, 128], [4, 64], [0, 64], [1, 64], [2, 64], [3, 64], [4, 64], [6, 64], [7, 64]]);
    expect(() => build('allreduce', 'rab1', 12, 12 * 64)).toThrow(/power-of-two rank count with allgather=linear \(SMPI rab1 refuses others\), got 12/);
  });

  it("rab2: SMPI's default alltoall for the block (basic_linear: isends to r − 1, r − 2, ...; pair at 256 KiB blocks on 64 ranks; bruck refused)", () => {
    const s = build('allreduce', 'rab2', 4, 4 * 64);
    expect(s.algorithmSpec).toBe('alltoall-allgather:alltoall=basic_linear');
    expect(sendsOf(s, 1)).toEqual([[0, 64], [3, 64], [2, 64], [0, 64], [2, 64], [3, 64]]);
    expect(build('allreduce', 'rab2', 64, 16 << 20).algorithmSpec).toBe('alltoall-allgather:alltoall=pair');
    expect(() => build('allreduce', 'rab2', 64, 64 * 256)).toThrow(/SMPI's default alltoall runs bruck for 256 B blocks on 64 ranks/);
  });

  it('the SMP allreduces start with init_smp (a ring allgather of 4-byte leader ids), then the leaders algorithm over every rank', () => {
    for (const name of ['smp_binomial', 'smp_binomial_pipeline', 'smp_rdb', 'smp_rsag', 'smp_rsag_lr', 'smp_rsag_rab']) {
      expect(sendsOf(build('allreduce', name, 8, 8 * 4096), 3).slice(0, 2), name).toEqual([[4, 4], [5, 4]]);
    }
    // smp_binomial_pipeline: 4096-element segments go up the binomial tree, rank 1 sends segment 0 to 0, then 1 ...
    const p = build('allreduce', 'smp_binomial_pipeline', 2, 3 * 16384);
    expect(sendsOf(p, 1).slice(-3)).toEqual([[0, 16384], [0, 16384], [0, 16384]]);
    expect(() => build('allreduce', 'smp_binomial_pipeline', 4, 4 * 5000)).toThrow(/whole 4096-element segments/);
    expect(() => build('allreduce', 'smp_rsag', 3, 4 * 4)).toThrow(/multiple of 3 int32 elements with smp=true/);
  });

  it('flat_tree and ompi_basic_linear: the root receives from rank n − 1 first, then n − 2 down to 0', () => {
    for (const name of ['flat_tree', 'ompi_basic_linear']) {
      const s = build('reduce', name, 5, 64, 2);
      expect(s.algorithmSpec).toBe('linear:recvs=descending');
      expect(recvsOf(s, 2).map(([from]) => from)).toEqual([4, 3, 1, 0]);
    }
  });

  it("ompi_chain: n/2 chains from the root (Open MPI's build_chain); ompi_pipeline: one chain in Open MPI's segments", () => {
    // 12 ranks: six chains, five of two ranks (1 ← 2, 3 ← 4, ...) and one of rank 11 alone.
    const c = build('reduce', 'ompi_chain', 12, 1024);
    expect(recvsOf(c, 0).map(([from]) => from)).toEqual([1, 3, 5, 7, 9, 11]);
    expect(sendsOf(c, 2)).toEqual([[1, 1024]]);
    expect(sendsOf(c, 11)).toEqual([[0, 1024]]);
    // One chain, root 3: 4 → 3, 5 → 4, ...; 1 MiB on 16 ranks: 16 ≤ 0.041/1024 · 2^20 + 9.71 but 16 > 0.0033/1024 · 2^20 + 1.68, so 32 KiB segments; on 64 ranks 1 KiB.
    const p = build('reduce', 'ompi_pipeline', 16, 1 << 20, 3);
    expect(sendsOf(p, 4)).toEqual(Array.from({ length: 32 }, () => [3, 32768]));
    expect(sendsOf(build('reduce', 'ompi_pipeline', 64, 1 << 20, 3), 5)).toEqual(Array.from({ length: 1024 }, () => [4, 1024]));
  });

  it('ompi_in_order_binary: the in-order binary tree is topped by rank n − 1, which sends the result to the root', () => {
    const s = build('reduce', 'ompi_in_order_binary', 7, 64, 0);
    expect(recvsOf(s, 6).map(([from]) => from)).toEqual([5, 2]);
    expect(recvsOf(s, 5).map(([from]) => from)).toEqual([4, 3]);
    expect(sendsOf(s, 6)).toEqual([[0, 64]]);
    expect(recvsOf(build('reduce', 'ompi_in_order_binary', 7, 64, 6), 6).map(([from]) => from)).toEqual([5, 2]);
  });

  it('mvapich2_knomial: radix 4, receives posted in the reverse of MVAPICH2 list, the result to the parent', () => {
    const s = build('reduce', 'mvapich2_knomial', 20, 64, 2);
    // Relative rank 0 (rank 2): MVAPICH2 lists 16, 4, 8, 12, 1, 2, 3 and posts from the end: 3, 2, 1, 12, 8, 4, 16.
    expect(recvsOf(s, 2).map(([from]) => from)).toEqual([5, 4, 3, 14, 10, 6, 18]);
    // Relative 4 (rank 6) hears from 7, 6, 5 and sends to relative 0; relative 7 (rank 9) sends to 4.
    expect(recvsOf(s, 6).map(([from]) => from)).toEqual([9, 8, 7]);
    expect(sendsOf(s, 6)).toEqual([[2, 64]]);
    expect(sendsOf(s, 9)).toEqual([[6, 64]]);
    // The mvapich2 and impi selectors' two-level reduce: init_smp, then the same tree over every rank.
    for (const n of [1, 2, 6, 17]) {
      const two = build('reduce', 'knomial:radix=4,smp=true', n, 8 * n, n - 1);
      expect(executeSchedule(two).problems, `${n} ranks`).toEqual([]);
    }
    expect(build('reduce', 'mvapich2', 64, 1024).algorithmSpec).toBe('knomial:radix=4,smp=true');
    expect(build('reduce', 'mvapich2', 27, 131072).algorithmSpec).toBe('knomial:radix=4');
  });

  it('NTSL: root − 1 starts, 8 KiB segments each to rank − 1, the remainder by the default reduce (every rank to the root)', () => {
    const s = build('reduce', 'NTSL', 12, 65540, 0);
    expect(sendsOf(s, 11)).toEqual([...Array.from({ length: 8 }, () => [10, 8192]), [0, 4]]);
    expect(sendsOf(s, 1)).toEqual([...Array.from({ length: 8 }, () => [0, 8192]), [0, 4]]);
  });
});
