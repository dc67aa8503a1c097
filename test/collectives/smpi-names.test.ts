/**
 * SimGrid SMPI algorithm names as aliases (src/collectives/smpi-names.ts) and the SMPI variants they
 * resolve to. The timings against smpirun are in test/reference/simgrid.test.ts; here: every alias
 * builds its exact variant, delivers the collective byte for byte, and is recorded in the result.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SMPI_ALIASES, buildSchedule, generateAlltoallvSizes, buildTopology, executeSchedule, runCollectiveFlow, type CollectiveKind, type Schedule } from '../../src/index.js';
import { smpi2dMesh, smpi3dMesh } from '../../src/collectives/algorithms/common.js';

const sizeFor = (c: CollectiveKind, n: number): number => (c === 'barrier' ? 0 : c === 'alltoallv' ? 9 : c === 'reduce-scatter' ? 4 * n * 5 : ['reduce', 'allreduce'].includes(c) ? 4 * n * 3 : 24);

/** Each rank's sends in program order as [destination, bytes]. */
function sendsOf(s: Schedule, rank: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let op = 0; op < s.numOps; op++) if (s.opRank[op] === rank && s.opKind[op] === 0) out.push([s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))]);
  return out;
}

describe('SimGrid SMPI names', () => {
  const entries = Object.entries(SMPI_ALIASES).flatMap(([c, m]) => Object.entries(m!).map(([name, spec]) => ({ collective: c as CollectiveKind, name, spec })));

  it('covers the names the issue lists and every collective Meshwork shares with SMPI', () => {
    const names = new Set(entries.map((e) => e.name));
    for (const n of ['rab_rdb', 'lr', 'NTSLR_NB', 'ompi_ring', 'basic_linear', 'scatter_gather', 'NTSL', 'ompi_binomial']) expect(names.has(n), n).toBe(true);
    expect(new Set(entries.map((e) => e.collective)).size).toBe(10);
  });

  for (const { collective, name, spec } of entries) {
    it(`${collective} ${name} builds ${spec} and delivers its postcondition (1 to 13 ranks)`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 13 }), (n) => {
          // SMPI's alltoall and allgather pair and its allgather rhv need a power of two too.
          if ((spec.startsWith('pairwise:order=xor') || ['ring:order=xor', 'recursive-doubling:order=far-first'].includes(spec)) && (n & (n - 1)) !== 0) return;
          // The rank counts SMPI's is_2dmesh and is_3dmesh cannot factor (smpirun aborts; smpi-allgather.test.ts checks the refusals).
          if (spec === 'mesh:dims=2' && [1, 5, 7, 11, 13].includes(n)) return;
          if (spec === 'mesh:dims=3' && [1, 2, 10, 11, 13].includes(n)) return;
          if (spec.startsWith('virtual-mesh') && (spec.endsWith('dims=3') ? smpi3dMesh(n) : smpi2dMesh(n)) === undefined) return; // SMPI's grid layout fails there too
          if (spec === 'neighbor-exchange' && n % 2 !== 0) return; // even rank counts (SMPI runs its ring otherwise)
          if ((name === 'rab1' || name === 'smp_rsag_rab') && (n & (n - 1)) !== 0) return; // SMPI rab1 and smp_rsag_rab throw on other rank counts
          const topology = buildTopology(`torus:${n}`);
          const sizes = collective === 'alltoallv' ? generateAlltoallvSizes('random:max=9,seed=4', n) : undefined;
          const s = buildSchedule({ collective, algorithm: `smpi:${name}`, topology, size: sizeFor(collective, n), sizes });
          expect(s.algorithmSpec).toBe(spec);
          expect(s.algorithmAlias).toBe(`${name} (SimGrid SMPI 3.32 ${collective})`);
          const r = executeSchedule(s);
          expect(r.problems).toEqual([]);
          expect(r.pass).toBe(true);
        }),
        { numRuns: 13, seed: 23 },
      );
    });
  }

  it('a bare SMPI name works unless Meshwork has the name too: allgather ring is Meshwork ring (SMPI NTSLR), smpi:ring is SMPI ring', () => {
    const topology = buildTopology('torus:6');
    expect(buildSchedule({ collective: 'allgather', algorithm: 'ring', topology, size: 8 }).algorithmSpec).toBe('ring');
    expect(buildSchedule({ collective: 'allgather', algorithm: 'smpi:ring', topology, size: 8 }).algorithmSpec).toBe('ring:order=shift');
    expect(buildSchedule({ collective: 'allreduce', algorithm: 'rab_rdb', topology, size: 48 }).algorithmSpec).toBe('rabenseifner:order=near-first,fold=even-out');
    expect(() => buildSchedule({ collective: 'allreduce', algorithm: 'smpi:nosuch', topology, size: 48 })).toThrow(/smpi:NAME with a SimGrid SMPI 3.32 allreduce algorithm Meshwork runs: lr, rab_rdb, rdb/);
  });

  it('is case-insensitive (specs are) and records the alias and the variant in the result', () => {
    const topology = buildTopology('torus:4x4,bw=10GBps,lat=100ns');
    const r = runCollectiveFlow({ topology, collective: 'allgather', algorithm: 'ntslr_nb', size: 1024, model: { protocol: 'smpi' } });
    expect(r.workload).toMatchObject({ algorithm: 'ring', algorithm_spec: 'ring:recvs=preposted', algorithm_alias: 'NTSLR_NB (SimGrid SMPI 3.32 allgather)' });
  });

  it('refuses an SMPI name with no Meshwork equivalent in one line saying so, and an alias with parameters', () => {
    const topology = buildTopology('torus:4x4');
    expect(() => buildSchedule({ collective: 'reduce', algorithm: 'arrival_pattern_aware', topology, size: 1024 })).toThrow(
      /^algorithm: got "arrival_pattern_aware"; accepted: .*SimGrid SMPI's reduce arrival_pattern_aware has no Meshwork equivalent \(SMPI names Meshwork runs: binomial, scatter_gather, ompi_binomial, ompi_binary, flat_tree, ompi_basic_linear, ompi_chain, ompi_pipeline, ompi_in_order_binary, NTSL, mvapich2_knomial, rab, mvapich2_two_level, default, ompi, mpich, mvapich2, impi\)$/,
    );
    // alltoallv: impi is its one selector Meshwork runs (init_smp, then ompi_basic_linear).
    expect(() => buildSchedule({ collective: 'alltoallv', algorithm: 'mvapich2', topology, size: 0, sizes: generateAlltoallvSizes('random:max=9,seed=4', 16) })).toThrow(/SimGrid SMPI's alltoallv mvapich2 has no Meshwork equivalent \(SMPI names Meshwork runs: ompi_basic_linear, pair, ring, pair_light_barrier, .*, bruck, impi\)$/);
    // alltoall pair_rma: one-sided puts between fences, no Meshwork equivalent.
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'pair_rma', topology, size: 1024 })).toThrow(/SimGrid SMPI's alltoall pair_rma has no Meshwork equivalent/);
    expect(() => buildSchedule({ collective: 'allreduce', algorithm: 'rab_rdb:order=far-first', topology, size: 1024 })).toThrow(/rab_rdb alone: .*rabenseifner:order=near-first,fold=even-out/);
    expect(() => buildSchedule({ collective: 'allreduce', algorithm: 'nosuch', topology, size: 1024 })).toThrow(/or SimGrid SMPI's lr, rab_rdb, rdb/);
  });

  it("NTSLR_NB posts every receive before its first send; ompi_ring posts the next receive before it waits for the current one", () => {
    const topology = buildTopology('torus:5');
    const ag = buildSchedule({ collective: 'allgather', algorithm: 'NTSLR_NB', topology, size: 8 });
    const kinds = (s: Schedule, rank: number) => Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opRank[op] === rank).map((op) => s.describeOp(op).split(' ')[0]);
    expect(kinds(ag, 2)).toEqual(['copy', 'irecv', 'irecv', 'irecv', 'irecv', ...Array(4).fill(['isend', 'wait', 'wait']).flat()]);
    const rs = buildSchedule({ collective: 'reduce-scatter', algorithm: 'ompi_ring', topology, size: 4 * 5 });
    expect(kinds(rs, 2).slice(1, 8)).toEqual(['irecv', 'send', 'irecv', 'wait', 'reduce', 'send', 'irecv']);
  });

  it('NTSL sends 8 KiB segments down the chain from rank 0; ompi_binomial sends the smallest subtree first; basic_linear sends to r-1, r-2, ...', () => {
    const topology = buildTopology('torus:8');
    const ntsl = buildSchedule({ collective: 'broadcast', algorithm: 'NTSL', topology, size: 3 * 8192 + 100 });
    expect(sendsOf(ntsl, 0)).toEqual([[1, 8192], [1, 8192], [1, 8192], [1, 100]]);
    expect(sendsOf(ntsl, 7)).toEqual([]);
    const scatter = buildSchedule({ collective: 'scatter', algorithm: 'ompi_binomial', topology, size: 10 });
    expect(sendsOf(scatter, 0)).toEqual([[1, 10], [2, 20], [4, 40]]);
    const largest = buildSchedule({ collective: 'scatter', algorithm: 'binomial', topology, size: 10 });
    expect(sendsOf(largest, 0)).toEqual([[4, 40], [2, 20], [1, 10]]);
    const linear = buildSchedule({ collective: 'alltoall', algorithm: 'basic_linear', topology, size: 4 });
    expect(sendsOf(linear, 3).map(([d]) => d)).toEqual([2, 1, 0, 7, 6, 5, 4]);
  });

  it('scatter_gather halves with rank XOR 1 first, then gathers up a binomial tree to the root (log2 p messages into the root)', () => {
    const topology = buildTopology('torus:8');
    const s = buildSchedule({ collective: 'reduce', algorithm: 'scatter_gather', topology, size: 8 * 16 });
    expect(sendsOf(s, 5)[0]).toEqual([4, 64]);
    const intoRoot = Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opKind[op] === 0 && s.sendDests(op)[0] === 0 && s.describeOp(op).includes('tag 9'));
    expect(intoRoot.map((op) => s.opRank[op]).sort()).toEqual([1, 2, 4]);
  });
});
