/**
 * SimGrid SMPI 3.32's bcast, barrier, gather and scatter algorithms added as Meshwork variants (h-smpi-bc):
 * each delivers its collective byte for byte at sizes that exercise its segments and remainders, and sends
 * the messages of its SMPI source file in its order (bcast-NTSB.cpp, bcast-ompi-split-bintree.cpp,
 * bcast-ompi-pipeline.cpp, barrier-ompi.cpp, gather-ompi.cpp, ...). Timings against smpirun:
 * test/reference/simgrid/smpi-cases/*-bc-*.json.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, executeSchedule, smpiSelectorChoice, type CollectiveKind, type Schedule } from '../../src/index.js';
import { ompiPipelineSegment } from '../../src/collectives/smpi-names.js';
import { linearSyncFirstSegment } from '../../src/collectives/algorithms/gather/linear.js';

/** Each rank's sends in program order as [destination, bytes]. */
function sendsOf(s: Schedule, rank: number): number[][] {
  const out: number[][] = [];
  for (let op = 0; op < s.numOps; op++) if (s.opRank[op] === rank && s.opKind[op] === 0) out.push([s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))]);
  return out;
}
/** Each rank's op kinds in program order (send, recv, isend, irecv, wait, ...). */
const kindsOf = (s: Schedule, rank: number): string[] =>
  Array.from({ length: s.numOps }, (_, op) => op)
    .filter((op) => s.opRank[op] === rank)
    .map((op) => s.describeOp(op).split(' ')[0]);

describe('SMPI bcast, barrier, gather and scatter variants deliver their postconditions', () => {
  // Small segments so that a few bytes already run the pipelines, their last short segments and remainders.
  const variants: Array<[CollectiveKind, string, number[]]> = [
    ['broadcast', 'binary-tree:segment=3', [0, 1, 2, 3, 7, 24, 25]],
    ['broadcast', 'binary-tree:segment=3,smp=true', [7, 24]],
    ['broadcast', 'linear', [0, 5, 24]],
    ['broadcast', 'linear:segment=5', [3, 5, 24, 25]],
    ['broadcast', 'chain:recvs=double-buffered,segment=5', [1, 5, 24, 25]],
    ['broadcast', 'chain:recvs=preposted,segment=5,smp=true', [1, 5, 24, 25]],
    ['broadcast', 'split-binary-tree:segment=2', [4, 5, 24, 25]],
    ['barrier', 'tree', [0]],
    ['barrier', 'double-ring', [0]],
    ['barrier', 'dissemination:smp=true', [0]],
    ['gather', 'linear:recvs=synchronized', [0, 5, 2000, 100000]],
  ];
  for (const [collective, algorithm, sizes] of variants) {
    it(`${collective} ${algorithm}: 1 to 13 ranks, roots 0, n/2 and n − 1, sizes ${sizes.join(', ')}`, () => {
      for (let n = 1; n <= 13; n++) {
        for (const size of sizes) {
          if (algorithm.startsWith('split') && (n < 2 || size < 4)) continue;
          for (const root of new Set([0, n >> 1, n - 1])) {
            const s = buildSchedule({ collective, algorithm, topology: buildTopology(`torus:${n}`), size, root });
            const r = executeSchedule(s);
            expect(r.problems, `n=${n} size=${size} root=${root}`).toEqual([]);
            expect(r.pass, `n=${n} size=${size} root=${root}`).toBe(true);
          }
        }
      }
    });
  }
});

describe('SMPI bcast names: their messages in their order', () => {
  const torus = (n: number) => buildTopology(`torus:${n}`);

  it('NTSB: the binary tree of rank numbers from rank 0, 8 KiB segments, every receive posted first, the remainder unpipelined after', () => {
    const s = buildSchedule({ collective: 'broadcast', algorithm: 'NTSB', topology: torus(7), size: 3 * 8192 + 100 });
    expect(s.algorithmSpec).toBe('binary-tree');
    expect(sendsOf(s, 0)).toEqual([[1, 8192], [2, 8192], [1, 8192], [2, 8192], [1, 8192], [2, 8192], [1, 100], [2, 100]]);
    expect(kindsOf(s, 1)).toEqual(['irecv', 'irecv', 'irecv', ...Array(3).fill(['wait', 'isend', 'isend']).flat(), 'waitall', 'recv', 'send', 'send']);
    expect(sendsOf(s, 2).map(([to]) => to)).toEqual([5, 6, 5, 6, 5, 6, 5, 6]);
    // A root other than 0 sends the buffer to rank 0 first; SMP_binary is the same tree after init_smp.
    expect(sendsOf(buildSchedule({ collective: 'broadcast', algorithm: 'NTSB', topology: torus(7), size: 1000, root: 4 }), 4)).toEqual([[0, 1000]]);
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'SMP_binary', topology: torus(7), size: 1000 }).algorithmSpec).toBe('binary-tree:smp=true');
  });

  it('NTSL_Isend is NTSL; SMP_linear is NTSL after init_smp; flattree isends to every rank at once, flattree_pipeline sends 8 KiB segments rank by rank', () => {
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'NTSL_Isend', topology: torus(5), size: 1 << 16 }).algorithmSpec).toBe('chain:recvs=preposted,segment=8192');
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'SMP_linear', topology: torus(5), size: 1 << 16 }).algorithmSpec).toBe('chain:recvs=preposted,segment=8192,smp=true');
    const flat = buildSchedule({ collective: 'broadcast', algorithm: 'flattree', topology: torus(5), size: 1000, root: 2 });
    expect(kindsOf(flat, 2)).toEqual(['isend', 'isend', 'isend', 'isend', 'waitall']);
    expect(sendsOf(flat, 2)).toEqual([[0, 1000], [1, 1000], [3, 1000], [4, 1000]]);
    const pipe = buildSchedule({ collective: 'broadcast', algorithm: 'flattree_pipeline', topology: torus(3), size: 2 * 8192 });
    expect(sendsOf(pipe, 0)).toEqual([[1, 8192], [1, 8192], [2, 8192], [2, 8192]]);
    expect(kindsOf(pipe, 2)).toEqual(['irecv', 'irecv', 'waitall']);
    // Below one segment it is flattree.
    expect(kindsOf(buildSchedule({ collective: 'broadcast', algorithm: 'flattree_pipeline', topology: torus(3), size: 100 }), 0)).toEqual(['isend', 'isend', 'waitall']);
  });

  it("ompi_pipeline: Open MPI's segment rule by rank count and size; the chain from the root, two receives posted, each send waited for", () => {
    expect(ompiPipelineSegment(1 << 20, 64)).toBe(131072);
    expect(ompiPipelineSegment(20_000_000, 64)).toBe(16384); // 17.2 MB < size <= 26.5 MB on 64 ranks
    expect(ompiPipelineSegment(30_000_000, 64)).toBe(65536);
    expect(ompiPipelineSegment(40_000_000, 64)).toBe(131072);
    expect(ompiPipelineSegment(4_000_000, 16)).toBe(16384);
    expect(ompiPipelineSegment(8_000_000, 16)).toBe(65536);
    expect(ompiPipelineSegment(1000, 16)).toBe(1000);
    // On 4 ranks 16 KiB segments from 1.1 KB (4 < 3.2118e-6 · size + 8.7936 always).
    const s = buildSchedule({ collective: 'broadcast', algorithm: 'ompi_pipeline', topology: torus(4), size: 3 * 16384, root: 1 });
    expect(s.algorithmSpec).toBe('chain:recvs=double-buffered,segment=16384');
    expect(kindsOf(s, 1)).toEqual(['isend', 'wait', 'isend', 'wait', 'isend', 'wait']);
    expect(sendsOf(s, 2).map(([to]) => to)).toEqual([3, 3, 3]);
    expect(kindsOf(s, 2)).toEqual(['irecv', 'irecv', 'wait', 'isend', 'wait', 'irecv', 'wait', 'isend', 'wait', 'wait', 'isend', 'wait']);
    expect(kindsOf(s, 0)).toEqual(['irecv', 'irecv', 'wait', 'irecv', 'wait', 'wait']);
  });

  it('ompi_split_bintree: each half down one subtree in 1 KiB segments, then pairs swap halves; the last rank of an even count gets the second half from the root; below 2 KiB SMP_linear', () => {
    const s = buildSchedule({ collective: 'broadcast', algorithm: 'ompi_split_bintree', topology: torus(6), size: 4096 });
    expect(s.algorithmSpec).toBe('split-binary-tree');
    expect(sendsOf(s, 0)).toEqual([[1, 1024], [2, 1024], [1, 1024], [2, 1024], [5, 2048]]);
    expect(sendsOf(s, 1)).toEqual([[3, 1024], [5, 1024], [3, 1024], [5, 1024], [2, 2048]]);
    expect(sendsOf(s, 2)).toEqual([[4, 1024], [4, 1024], [1, 2048]]);
    expect(sendsOf(s, 5)).toEqual([]);
    // Odd rank count: the root takes no part in the swap, relative ranks 1..n−1 pair up.
    expect(sendsOf(buildSchedule({ collective: 'broadcast', algorithm: 'ompi_split_bintree', topology: torus(5), size: 4097 }), 4)).toEqual([[3, 2048]]);
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'ompi_split_bintree', topology: torus(6), size: 2047 }).algorithmSpec).toBe('chain:recvs=preposted,segment=8192,smp=true');
    // From 370,728 B the segments are 8 KiB.
    expect(sendsOf(buildSchedule({ collective: 'broadcast', algorithm: 'ompi_split_bintree', topology: torus(3), size: 1 << 20 }), 0).slice(0, 2)).toEqual([[1, 8192], [2, 8192]]);
  });

  it('mvapich2_inter_node and mvapich2_intra_node: init_smp, then bcast__mpich over the leaders, or on up to 64 ranks binomial_tree / scatter_LR_allgather outside 16 KiB to 512 KiB', () => {
    const spec = (name: string, n: string, size: number) => buildSchedule({ collective: 'broadcast', algorithm: name, topology: buildTopology(`torus:${n}`), size }).algorithmSpec;
    expect(spec('mvapich2_inter_node', '4x4x4', 1024)).toBe('binomial:smp=true');
    expect(spec('mvapich2_inter_node', '4x4x4', 65536)).toBe('scatter-rdb-allgather:smp=true');
    expect(spec('mvapich2_inter_node', '5x3x3', 65536)).toBe('scatter-allgather:smp=true');
    expect(spec('mvapich2_intra_node', '4x4x4', 1024)).toBe('binomial:smp=true');
    expect(spec('mvapich2_intra_node', '4x4x4', 65536)).toBe('scatter-rdb-allgather:smp=true');
    expect(spec('mvapich2_intra_node', '4x4x4', 1 << 20)).toBe('scatter-allgather:smp=true');
    expect(spec('mvapich2_intra_node', '4x4x6', 1024)).toBe('binomial:smp=true');
  });

  it('the ompi selector now runs NTSB (12 ranks, 4 to 16 KiB) and ompi_pipeline (2 ranks), and refuses NTSB where its remainder would run the selector again', () => {
    expect(smpiSelectorChoice('broadcast', 'ompi', 4096, 12)).toBe('NTSB');
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'ompi', topology: buildTopology('torus:3x4'), size: 8192 }).algorithmSpec).toBe('binary-tree');
    expect(() => buildSchedule({ collective: 'broadcast', algorithm: 'ompi', topology: buildTopology('torus:3x4'), size: 12000 })).toThrow(/runs NTSB at 12000 B on 12 ranks, which broadcasts the last 3808 B with the ompi selector again/);
    expect(buildSchedule({ collective: 'broadcast', algorithm: 'ompi', topology: torus(2), size: 300 }).algorithmSpec).toBe('chain:recvs=double-buffered,segment=300');
  });

  it('arrival_* stay refused in one line with the reason: their messages depend on which ranks have arrived', () => {
    for (const name of ['arrival_pattern_aware', 'arrival_pattern_aware_wait', 'arrival_scatter']) {
      expect(() => buildSchedule({ collective: 'broadcast', algorithm: name, topology: torus(4), size: 1024 })).toThrow(new RegExp(`^algorithm: got "${name}"; accepted: a Meshwork broadcast algorithm: .*poll with MPI_Iprobe .* \\(SMPI names Meshwork runs: .*NTSB.*\\)$`));
    }
  });
});

describe('SMPI barrier, gather and scatter names: their messages in their order', () => {
  const torus = (n: number) => buildTopology(`torus:${n}`);

  it('ompi_tree: up a binomial tree to rank 0, back down it; ompi_doublering: the token twice round; ompi_two_procs: 2 ranks only; mpich_smp: init_smp, then bruck', () => {
    const tree = buildSchedule({ collective: 'barrier', algorithm: 'ompi_tree', topology: torus(6), size: 0 });
    expect(tree.algorithmSpec).toBe('tree');
    expect(sendsOf(tree, 0).map(([to]) => to)).toEqual([4, 2, 1]);
    expect(sendsOf(tree, 5).map(([to]) => to)).toEqual([4]);
    expect(kindsOf(tree, 4)).toEqual(['recv', 'send', 'recv', 'send']);
    const ring = buildSchedule({ collective: 'barrier', algorithm: 'ompi_doublering', topology: torus(4), size: 0 });
    expect(kindsOf(ring, 0)).toEqual(['send', 'recv', 'send', 'recv']);
    expect(kindsOf(ring, 3)).toEqual(['recv', 'send', 'recv', 'send']);
    expect(sendsOf(ring, 3).map(([to]) => to)).toEqual([0, 0]);
    expect(buildSchedule({ collective: 'barrier', algorithm: 'ompi_two_procs', topology: torus(2), size: 0 }).algorithmSpec).toBe('recursive-doubling');
    expect(() => buildSchedule({ collective: 'barrier', algorithm: 'ompi_two_procs', topology: torus(3), size: 0 })).toThrow(/2 ranks: .*deadlocks on 3 ranks/);
    expect(buildSchedule({ collective: 'barrier', algorithm: 'mpich_smp', topology: torus(4), size: 0 }).algorithmSpec).toBe('dissemination:smp=true');
  });

  it('ompi_linear_sync: a go-ahead to each rank in turn, then its block in a first segment (1 KiB, 32 KiB above 92,160 B) and the rest', () => {
    expect([500, 1024, 65536, 92160, 92161].map(linearSyncFirstSegment)).toEqual([500, 1024, 1024, 1024, 32768]);
    const s = buildSchedule({ collective: 'gather', algorithm: 'ompi_linear_sync', topology: torus(4), size: 65536, root: 1 });
    expect(s.algorithmSpec).toBe('linear:recvs=synchronized');
    expect(sendsOf(s, 3)).toEqual([[1, 1024], [1, 64512]]);
    expect(kindsOf(s, 3)).toEqual(['recv', 'send', 'send']);
    expect(sendsOf(s, 1)).toEqual([[0, 0], [2, 0], [3, 0]]);
    expect(kindsOf(s, 1)).toEqual([...Array(3).fill(['irecv', 'send', 'irecv', 'wait']).flat(), 'copy', 'waitall']);
  });

  it('the two-level gather and scatters on one rank per host: init_smp, then the Direct or Binomial algorithm over every rank', () => {
    const spec = (collective: CollectiveKind, name: string) => buildSchedule({ collective, algorithm: name, topology: torus(8), size: 64 }).algorithmSpec;
    expect(spec('gather', 'mvapich2_two_level')).toBe('linear:smp=true');
    expect(spec('scatter', 'mvapich2_two_level_direct')).toBe('linear:smp=true');
    expect(spec('scatter', 'mvapich2_two_level_binomial')).toBe('binomial:order=smallest-first,smp=true');
    // The impi gather's MVAPICH2 choice mvapich2_two_level (64 ranks, 128 B) now runs too.
    expect(buildSchedule({ collective: 'gather', algorithm: 'impi', topology: buildTopology('torus:4x4x4'), size: 128 }).algorithmSpec).toBe('linear:smp=true');
  });
});
