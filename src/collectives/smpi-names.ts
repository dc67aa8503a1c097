/**
 * SimGrid SMPI's collective algorithm names (the values of `--cfg=smpi/<collective>:<name>` in
 * SimGrid 3.32, src/smpi/colls/smpi_coll.cpp) accepted as aliases of the exact Meshwork variant
 * that sends the same messages in the same order. Each mapping was checked against smpirun on a
 * 64-host 4x4x4 torus, the selectors also on 12 to 48 ranks (test/reference/simgrid/, docs/flow.md "SimGrid users"). A name SMPI has
 * and Meshwork does not is refused in one line saying so; the result records the alias and the
 * variant it resolved to (`workload.algorithm_alias`, `workload.algorithm_spec`). A Meshwork name
 * wins over the SMPI name it shares: `smpi:ring` is SMPI's allgather ring (ring:order=shift), `ring`
 * Meshwork's (SMPI NTSLR). SMPI's selectors `default`, `ompi`, `mpich`, `mvapich2` and `impi` resolve per run, by
 * size and rank count, to the algorithm SMPI 3.32 runs there (SMPI_SELECTORS below). SMPI's SMP-aware
 * algorithms run as on SMPI's platforms, one rank per host: intra-node communicators of one rank, the
 * leaders' algorithm over every rank, after the messages of SMPI's init_smp (the variants' `smp=true`).
 */
import { InputError, NotApplicableError } from '../util/errors.js';
import type { CollectiveKind } from './types.js';
import { floorPow2 } from './algorithms/common.js';
import { NTSB_SEGMENT, splitBintreeSegment } from './algorithms/broadcast/smpi-segments.js';

/** SMPI's SMP_linear on one rank per host: init_smp, then NTSL's chain (bcast-SMP-linear.cpp; see chain.ts). */
const SMP_LINEAR = 'chain:recvs=preposted,segment=8192,smp=true';

/** The SMPI name → the Meshwork algorithm spec, per Meshwork collective. */
export const SMPI_ALIASES: Readonly<Partial<Record<CollectiveKind, Readonly<Record<string, string>>>>> = {
  alltoall: {
    basic_linear: 'linear:sends=reverse',
    pair: 'pairwise:order=xor',
    ring: 'ring',
    bruck: 'bruck',
    // The barrier variants (alltoall-{pair,ring}-{light,mpi,one}-barrier.cpp): a 1-byte sendrecv with the
    // next step's partners, SMPI's MPI_Barrier before every step, or one barrier first.
    pair_light_barrier: 'pairwise:order=xor,sync=light',
    pair_mpi_barrier: 'pairwise:order=xor,sync=step',
    pair_one_barrier: 'pairwise:order=xor,sync=once',
    ring_light_barrier: 'ring:sync=light',
    ring_mpi_barrier: 'ring:sync=step',
    ring_one_barrier: 'ring:sync=once',
    // An allgather of the whole send buffers (MPICH's recursive doubling), then each rank keeps its blocks.
    rdb: 'recursive-doubling',
    // The ranks as SMPI's virtual grid: X × Y, or X × X × Z (alltoall-2dmesh.cpp, alltoall-3dmesh.cpp).
    '2dmesh': 'virtual-mesh:dims=2',
    '3dmesh': 'virtual-mesh:dims=3',
    // MVAPICH2's throttled exchange in rounds of 4 (alltoall-mvapich-scatter-dest.cpp): its own block is a
    // message to itself, whose route on a torus does not exist (smpirun aborts there).
    mvapich2_scatter_dest: 'linear:sends=reverse,batch=4,self=message',
  },
  alltoallv: {
    ompi_basic_linear: 'linear',
    pair: 'pairwise:order=xor',
    ring: 'pairwise',
    pair_light_barrier: 'pairwise:order=xor,sync=light',
    pair_mpi_barrier: 'pairwise:order=xor,sync=step',
    pair_one_barrier: 'pairwise:order=xor,sync=once',
    // Unlike alltoallv ring, its barrier variants shift on a power of two too.
    ring_light_barrier: 'pairwise:order=shift,sync=light',
    ring_mpi_barrier: 'pairwise:order=shift,sync=step',
    ring_one_barrier: 'pairwise:order=shift,sync=once',
    // MPICH's throttled exchange in rounds of 4 offsets (alltoallv-bruck.cpp; no Bruck in it).
    bruck: 'linear:order=shift,batch=4',
  },
  allgather: {
    NTSLR: 'ring',
    NTSLR_NB: 'ring:recvs=preposted',
    ring: 'ring:order=shift',
    rdb: 'recursive-doubling',
    bruck: 'bruck',
    ompi_neighborexchange: 'neighbor-exchange',
    pair: 'ring:order=xor',
    rhv: 'recursive-doubling:order=far-first',
    spreading_simple: 'linear:order=next,recvs=first',
    // MPI_Gather to rank 0, then MPI_Bcast, with SMPI's default gather (igather) and bcast (binomial_tree).
    GB: 'gather-broadcast',
    '2dmesh': 'mesh:dims=2',
    '3dmesh': 'mesh:dims=3',
    // The SMP algorithms on one rank per host: init_smp, then the leaders' ring or direct exchange over every rank.
    loosely_lr: 'ring:recvs=per-step,sends=at-end,smp=true',
    SMP_NTS: 'ring:recvs=preposted,sends=at-end,smp=true',
    smp_simple: 'linear:recvs=first,smp=true',
  },
  allreduce: {
    lr: 'ring:remainder=redbcast',
    rab_rdb: 'rabenseifner:order=near-first,fold=even-out',
    rdb: 'recursive-doubling:fold=even-out',
    // MPI_Reduce to rank 0 then MPI_Bcast with the reduce and bcast SMPI has selected: its defaults
    // (ireduce, binomial_tree) unless --cfg=smpi/reduce or smpi/bcast names others.
    redbcast: 'reduce-broadcast',
    // On one rank per host: init_smp, then rdb over the leaders (MV2_Allreducection's default, no mvapich2 table).
    mvapich2_two_level: 'recursive-doubling:fold=even-out,smp=true',
    // Far-first halving, then MPI_Allgather: SMPI's default allgather (iallgather) unless --cfg=smpi/allgather names another.
    rab1: 'rabenseifner:allgather=linear',
    // Open MPI's segmented ring (allreduce-ompi-ring-segmented.cpp); below n 1 MiB segments lr.
    ompi_ring_segmented: 'ring:segment=1048576,remainder=redbcast',
    // The SMP algorithms on one rank per host (intra-node communicators of one rank): init_smp, then the leaders' part over every rank.
    smp_binomial: 'reduce-broadcast:reduce=binomial,smp=true',
    smp_binomial_pipeline: 'reduce-broadcast:reduce=binomial,pipeline=4096,smp=true',
    smp_rdb: 'recursive-doubling:fold=even-out,smp=true',
    smp_rsag: 'ring:smp=true',
    smp_rsag_lr: 'ring:smp=true',
    smp_rsag_rab: 'rabenseifner:order=near-first,smp=true',
    rab: 'rabenseifner-original',
  },
  reduce: {
    binomial: 'recursive-doubling',
    scatter_gather: 'rabenseifner:order=near-first,gather=binomial',
    ompi_binomial: 'binomial-pipelined',
    ompi_binary: 'binary-pipelined',
    flat_tree: 'linear:recvs=descending',
    ompi_basic_linear: 'linear:recvs=descending',
    ompi_chain: 'chain:fanout=0,segment=65536',
    ompi_pipeline: 'chain',
    ompi_in_order_binary: 'binary-pipelined:tree=in-order,segment=0',
    NTSL: 'chain:recvs=preposted,segment=8192',
    // Radix 4 (SMPI_DEFAULT_KNOMIAL_FACTOR) when no mvapich2 selector has set MVAPICH2's factor.
    mvapich2_knomial: 'knomial:radix=4',
    rab: 'rabenseifner-original',
  },
  'reduce-scatter': {
    ompi_ring: 'ring:recvs=preposted',
    mpich_pair: 'pairwise',
    ompi_butterfly: 'butterfly',
    ompi_basic_recursivehalving: 'recursive-halving',
    mpich_rdb: 'recursive-doubling',
  },
  broadcast: {
    binomial_tree: 'binomial',
    NTSL: 'chain:recvs=preposted,segment=8192',
    scatter_LR_allgather: 'scatter-allgather',
    scatter_rdb_allgather: 'scatter-rdb-allgather',
    // The SMP algorithms on one rank per host (an intra-node communicator of one rank): init_smp, then the leaders' tree.
    SMP_binomial: 'binomial:smp=true,tree=rank0',
    mvapich2_knomial_intra_node: 'knomial:radix=4,smp=true',
    NTSB: 'binary-tree',
    // bcast-NTSL-Isend.cpp is bcast-NTSL.cpp under another name.
    NTSL_Isend: 'chain:recvs=preposted,segment=8192',
    flattree: 'linear',
    flattree_pipeline: 'linear:segment=8192',
    SMP_binary: 'binary-tree:smp=true',
    SMP_linear: SMP_LINEAR,
  },
  scatter: {
    ompi_basic_linear: 'linear',
    ompi_binomial: 'binomial:order=smallest-first',
    ompi_linear_nb: 'linear:sends=nonblocking',
    // On one rank per host: init_smp, then MVAPICH2's Direct (ompi_basic_linear) or Binomial (ompi_binomial)
    // over the leaders, every rank (scatter-mvapich-two-level.cpp; the intra-node scatter has one rank).
    mvapich2_two_level_direct: 'linear:smp=true',
    mvapich2_two_level_binomial: 'binomial:order=smallest-first,smp=true',
  },
  gather: {
    ompi_basic_linear: 'linear',
    ompi_binomial: 'binomial',
    ompi_linear_sync: 'linear:recvs=synchronized',
    // On one rank per host (gather-mvapich.cpp): init_smp, the intra-node gather of one rank (no message), then
    // MVAPICH2's Direct gather (ompi_basic_linear) over the leaders, every rank.
    mvapich2_two_level: 'linear:smp=true',
  },
  barrier: {
    ompi_basic_linear: 'linear',
    ompi_bruck: 'dissemination',
    ompi_recursivedoubling: 'recursive-doubling',
    // MVAPICH2's pairwise exchange: the same messages as Open MPI's recursive doubling (barrier-mvapich2-pair.cpp).
    mvapich2_pair: 'recursive-doubling',
    ompi_tree: 'tree',
    ompi_doublering: 'double-ring',
    // On one rank per host (barrier-mpich-smp.cpp): init_smp, then barrier__mpich (ompi_bruck) over the leaders, every rank.
    mpich_smp: 'dissemination:smp=true',
  },
};

/**
 * SMPI names whose Meshwork variant depends on the size and rank count. reduce `mvapich2_two_level` on
 * one rank per host (reduce-mvapich-two-level.cpp): init_smp, then over the leaders MV2_Reduce_function,
 * reduce__mpich when no mvapich2 table set it: `binomial` below 2 KiB or fewer elements than the power
 * of two at or below the rank count, else `scatter_gather`.
 */
const SIZED_ALIASES: Readonly<Partial<Record<CollectiveKind, Readonly<Record<string, (size: number, ranks: number, elementBytes: number) => string>>>>> = {
  // allgather `mvapich2_smp` on one rank per host (allgather-mvapich-smp.cpp): init_smp, then allgather__mpich over the leaders.
  allgather: {
    mvapich2_smp: (size, ranks) => SMP_PATTERNS.allgather![`init_smp+${MPICH.allgather!(size, ranks, 1)}`],
  },
  // MPICH's allreduce (allreduce-mvapich-rs.cpp): rdb below pof2 elements, else Rabenseifner as rab_rdb.
  allreduce: {
    mvapich2_rs: (size, ranks, elementBytes) => (size / elementBytes < floorPow2(ranks) ? 'recursive-doubling:fold=even-out' : 'rabenseifner:order=near-first,fold=even-out'),
    // An alltoall of size / n blocks with SMPI's default alltoall (the ompi selector's choice for that block), then its default allgather.
    rab2: (size, ranks) => `alltoall-allgather:alltoall=${pickFromBands(OMPI_BANDS.alltoall!, size / ranks, ranks)}`,
  },
  reduce: {
    mvapich2_two_level: (size, ranks, elementBytes) =>
      size < 2048 || size / elementBytes < floorPow2(ranks) ? 'recursive-doubling:smp=true' : 'rabenseifner:order=near-first,gather=binomial,smp=true',
  },
  // Open MPI's pipeline: its chain in segments of Open MPI's rule; its split binary tree, which runs SMP_linear
  // where a half is under one segment; MVAPICH2's inter-node bcast on one rank per host: init_smp, then
  // bcast__mpich over the leaders (MV2_Bcast_function when no mvapich2 selector set it, bcast-mvapich-smp.cpp).
  broadcast: {
    ompi_pipeline: (size, ranks) => `chain:recvs=double-buffered,segment=${ompiPipelineSegment(size, ranks)}`,
    ompi_split_bintree: (size) => (Math.floor(size / 2) < splitBintreeSegment(size) ? SMP_LINEAR : 'split-binary-tree'),
    mvapich2_inter_node: (size, ranks) => SMP_PATTERNS.broadcast![`init_smp+${mpichBcastOnLeaders(size, ranks)}`],
    mvapich2_intra_node: (size, ranks) => (size === 0 ? 'binomial' : SMP_PATTERNS.broadcast![`init_smp+${mvapich2IntraNodeBcast(size, ranks)}`]),
  },
  // Open MPI's two-process barrier: one zero-byte exchange between ranks 0 and 1 (on more ranks, rank 2 waits for rank 1 forever).
  barrier: {
    ompi_two_procs: (_size, ranks) => {
      if (ranks !== 2) throw new NotApplicableError('algorithm', 'ompi_two_procs', `2 ranks: SimGrid SMPI's barrier ompi_two_procs pairs rank r with (r + 1) mod 2, which deadlocks on ${ranks} ranks`);
      return 'recursive-doubling';
    },
  },
};

/**
 * Open MPI's segment for its pipelined bcast (bcast-ompi-pipeline.cpp): 128 KiB, or by its fitted rule
 * for `ranks` ranks and `size` bytes 64 KiB or 16 KiB; the whole buffer when it is no larger.
 */
export function ompiPipelineSegment(size: number, ranks: number): number {
  let segment = 1024 << 7;
  if (ranks < 1.6134e-6 * size + 2.1102) segment = 1024 << 7;
  else if (ranks < 2.3679e-6 * size + 1.1787) segment = 1024 << 6;
  else if (ranks < 3.2118e-6 * size + 8.7936) segment = 1024 << 4;
  return Math.min(segment, Math.max(size, 1));
}

/**
 * The message patterns of SMPI's `default` selector that are no named SMPI algorithm: the
 * non-blocking collectives it calls and waits for (smpi_default_selector.cpp, smpi_nbc_impl.cpp).
 * iallgather: every rank isends its block to and irecvs from every other rank, in rank order, all at
 * once; ireduce and igather: every rank sends to the root, which has every receive posted at once;
 * iscatter: the root isends every block at once; allreduce: ireduce to rank 0, then binomial_tree;
 * reduce_scatter: ireduce to rank 0, then iscatterv (the root isends every block at once).
 */
const DEFAULT_PATTERNS: Readonly<Partial<Record<CollectiveKind, Readonly<Record<string, string>>>>> = {
  allgather: { iallgather: 'linear:order=rank' },
  reduce: { ireduce: 'linear' },
  gather: { igather: 'linear:recvs=preposted' },
  scatter: { iscatter: 'linear:sends=nonblocking' },
  allreduce: { 'ireduce+binomial_tree': 'reduce-broadcast' },
  'reduce-scatter': { 'ireduce+scatterv': 'reduce-then-scatter' },
};

/**
 * SMPI's `ompi` selector (smpi_openmpi_selector.cpp, Open MPI's fixed decision rules), commutative
 * operations: per communicator-size band (`<N`: fewer than N ranks, `=N`, `*` the rest), the
 * algorithm by total bytes as Meshwork's --size counts them (the block for alltoall, allgather,
 * gather and scatter; the whole buffer otherwise): `[band, limit1, algorithm1, limit2, ..., else]`
 * runs algorithm1 below limit1 bytes, and so on. Open MPI's numbered choices written as the SMPI
 * functions SimGrid calls for them (alltoall linear_sync and two_proc run basic_linear, reduce
 * rabenseifner ompi_basic_linear, reduce_scatter non-overlapping the default selector's ireduce+scatterv).
 */
type Band = readonly [string, ...Array<number | string>];
const OMPI_BANDS: Readonly<Partial<Record<CollectiveKind, readonly Band[]>>> = {
  allreduce: [
    ['<4', 8, 'lr', 4096, 'rdb', 8192, 'lr', 16384, 'rdb', 65536, 'lr', 262144, 'ompi_ring_segmented', 'rab_rdb'],
    ['<8', 16, 'lr', 8192, 'rdb', 'rab_rdb'],
    ['<16', 8192, 'rdb', 'rab_rdb'],
    ['<32', 64, 'ompi_ring_segmented', 4096, 'rdb', 'rab_rdb'],
    ['<64', 128, 'ompi_ring_segmented', 'rab_rdb'],
    ['<128', 262144, 'rdb', 'rab_rdb'],
    ['<256', 131072, 'redbcast', 262144, 'rdb', 'rab_rdb'],
    ['<512', 4096, 'redbcast', 'rab_rdb'],
    ['<2048', 2048, 'redbcast', 16384, 'rdb', 'rab_rdb'],
    ['<4096', 2048, 'redbcast', 4096, 'ompi_ring_segmented', 16384, 'rdb', 'rab_rdb'],
    ['*', 2048, 'redbcast', 16384, 'ompi_ring_segmented', 32768, 'rdb', 'rab_rdb'],
  ],
  alltoall: [
    ['=2', 2, 'pair', 4, 'basic_linear', 16, 'pair', 64, 'basic_linear', 256, 'pair', 4096, 'basic_linear', 32768, 'pair', 262144, 'basic_linear', 1048576, 'basic_linear', 'pair'],
    ['<8', 8192, 'basic_linear', 16384, 'basic_linear', 65536, 'basic_linear', 524288, 'basic_linear', 1048576, 'pair', 'basic_linear'],
    ['<16', 262144, 'basic_linear', 'basic_linear'],
    ['<32', 4, 'basic_linear', 512, 'bruck', 8192, 'basic_linear', 32768, 'basic_linear', 262144, 'basic_linear', 524288, 'basic_linear', 'basic_linear'],
    ['<64', 512, 'bruck', 524288, 'basic_linear', 'basic_linear'],
    ['<128', 1024, 'bruck', 2048, 'basic_linear', 4096, 'basic_linear', 262144, 'basic_linear', 'pair'],
    ['<256', 1024, 'bruck', 2048, 'basic_linear', 262144, 'basic_linear', 'pair'],
    ['<512', 1024, 'bruck', 8192, 'basic_linear', 32768, 'basic_linear', 'pair'],
    ['<1024', 512, 'bruck', 8192, 'basic_linear', 16384, 'basic_linear', 131072, 'basic_linear', 262144, 'basic_linear', 'pair'],
    ['<2048', 512, 'bruck', 1024, 'basic_linear', 2048, 'basic_linear', 16384, 'basic_linear', 262144, 'basic_linear', 'basic_linear'],
    ['<4096', 1024, 'bruck', 4096, 'basic_linear', 8192, 'basic_linear', 131072, 'basic_linear', 'basic_linear'],
    ['*', 2048, 'bruck', 8192, 'basic_linear', 16384, 'basic_linear', 32768, 'basic_linear', 65536, 'basic_linear', 'basic_linear'],
  ],
  barrier: [
    ['<4', 'ompi_recursivedoubling'],
    ['<8', 'ompi_basic_linear'],
    ['<64', 'ompi_recursivedoubling'],
    ['<256', 'ompi_bruck'],
    ['<512', 'ompi_tree'],
    ['<1024', 'ompi_bruck'],
    ['<4096', 'ompi_tree'],
    ['*', 'ompi_bruck'],
  ],
  broadcast: [
    ['<4', 32, 'ompi_pipeline', 256, 'NTSB', 512, 'ompi_pipeline', 1024, 'mvapich2_knomial_intra_node', 32768, 'NTSL', 131072, 'NTSB', 262144, 'ompi_pipeline', 524288, 'NTSL', 1048576, 'binomial_tree', 'NTSB'],
    ['<8', 64, 'NTSB', 128, 'binomial_tree', 2048, 'NTSB', 8192, 'binomial_tree', 1048576, 'NTSL', 'ompi_pipeline'],
    ['<16', 8, 'mvapich2_knomial_intra_node', 64, 'NTSB', 4096, 'mvapich2_knomial_intra_node', 16384, 'NTSB', 32768, 'binomial_tree', 'NTSL'],
    ['<32', 4096, 'mvapich2_knomial_intra_node', 1048576, 'binomial_tree', 'scatter_rdb_allgather'],
    ['<64', 2048, 'binomial_tree', 'mvapich2_knomial_intra_node'],
    ['<128', 'mvapich2_knomial_intra_node'],
    ['<256', 2, 'binomial_tree', 16384, 'NTSB', 32768, 'NTSL', 65536, 'NTSB', 'mvapich2_knomial_intra_node'],
    ['<1024', 16384, 'mvapich2_knomial_intra_node', 32768, 'ompi_split_bintree', 'mvapich2_knomial_intra_node'],
    ['<2048', 524288, 'mvapich2_knomial_intra_node', 'scatter_rdb_allgather'],
    ['<4096', 262144, 'mvapich2_knomial_intra_node', 'scatter_rdb_allgather'],
    ['*', 8192, 'mvapich2_knomial_intra_node', 16384, 'NTSB', 262144, 'mvapich2_knomial_intra_node', 'scatter_rdb_allgather'],
  ],
  reduce: [
    ['<4', 8, 'ompi_basic_linear', 16, 'ompi_binary', 32, 'ompi_pipeline', 262144, 'ompi_basic_linear', 524288, 'ompi_pipeline', 1048576, 'ompi_chain', 'ompi_pipeline'],
    ['<8', 4096, 'ompi_binary', 65536, 'ompi_chain', 262144, 'ompi_binomial', 524288, 'ompi_basic_linear', 1048576, 'ompi_binomial', 'ompi_basic_linear'],
    ['<16', 8192, 'ompi_binary', 'ompi_binomial'],
    ['<32', 4096, 'ompi_binary', 'ompi_binomial'],
    ['<256', 'ompi_binomial'],
    ['<512', 8192, 'ompi_binomial', 16384, 'ompi_in_order_binary', 'ompi_binomial'],
    ['<2048', 'ompi_binomial'],
    ['<4096', 512, 'ompi_binomial', 1024, 'ompi_in_order_binary', 8192, 'ompi_binomial', 16384, 'ompi_in_order_binary', 'ompi_binomial'],
    ['*', 16, 'ompi_binomial', 32, 'ompi_in_order_binary', 1024, 'ompi_binomial', 2048, 'ompi_in_order_binary', 8192, 'ompi_binomial', 16384, 'ompi_in_order_binary', 'ompi_binomial'],
  ],
  'reduce-scatter': [
    ['<4', 65536, 'ompi_ring', 131072, 'ompi_butterfly', 'ompi_ring'],
    ['<8', 8, 'ireduce+scatterv', 262144, 'ompi_basic_recursivehalving', 'ompi_ring'],
    ['<32', 262144, 'ompi_basic_recursivehalving', 'ompi_ring'],
    ['<64', 64, 'ireduce+scatterv', 2048, 'ompi_basic_recursivehalving', 524288, 'ompi_butterfly', 'ompi_ring'],
    ['<128', 256, 'ireduce+scatterv', 512, 'ompi_basic_recursivehalving', 2048, 'ompi_butterfly', 4096, 'ompi_basic_recursivehalving', 'ompi_butterfly'],
    ['<256', 256, 'ireduce+scatterv', 512, 'ompi_basic_recursivehalving', 'ompi_butterfly'],
    ['<512', 256, 'ireduce+scatterv', 1024, 'ompi_basic_recursivehalving', 'ompi_butterfly'],
    ['<1024', 512, 'ireduce+scatterv', 2048, 'ompi_basic_recursivehalving', 8192, 'ompi_butterfly', 16384, 'ompi_basic_recursivehalving', 'ompi_butterfly'],
    ['<2048', 512, 'ireduce+scatterv', 4096, 'ompi_basic_recursivehalving', 16384, 'ompi_butterfly', 32768, 'ompi_basic_recursivehalving', 'ompi_butterfly'],
    ['<4096', 512, 'ireduce+scatterv', 4096, 'ompi_basic_recursivehalving', 'ompi_butterfly'],
    ['*', 1024, 'ireduce+scatterv', 8192, 'ompi_basic_recursivehalving', 'ompi_butterfly'],
  ],
  allgather: [
    ['=2', 'pair'],
    ['<32', 'rdb'],
    ['<64', 1024, 'rdb', 65536, 'ompi_neighborexchange', 'ring'],
    ['<128', 512, 'rdb', 65536, 'ompi_neighborexchange', 'ring'],
    ['<256', 512, 'rdb', 131072, 'ompi_neighborexchange', 524288, 'ring', 1048576, 'ompi_neighborexchange', 'ring'],
    ['<512', 32, 'rdb', 128, 'bruck', 1024, 'rdb', 131072, 'ompi_neighborexchange', 524288, 'ring', 1048576, 'ompi_neighborexchange', 'ring'],
    ['<1024', 64, 'rdb', 256, 'bruck', 2048, 'rdb', 'ompi_neighborexchange'],
    ['<2048', 4, 'rdb', 8, 'bruck', 16, 'rdb', 32, 'bruck', 256, 'rdb', 512, 'bruck', 4096, 'rdb', 'ompi_neighborexchange'],
    ['<4096', 32, 'bruck', 128, 'rdb', 512, 'bruck', 4096, 'rdb', 'ompi_neighborexchange'],
    ['*', 2, 'rdb', 8, 'bruck', 16, 'rdb', 512, 'bruck', 4096, 'rdb', 'ompi_neighborexchange'],
  ],
  gather: [
    ['<4', 2, 'ompi_linear_sync', 4, 'ompi_basic_linear', 32768, 'ompi_binomial', 65536, 'ompi_basic_linear', 131072, 'ompi_binomial', 'ompi_linear_sync'],
    ['<8', 1024, 'ompi_binomial', 8192, 'ompi_basic_linear', 32768, 'ompi_binomial', 262144, 'ompi_basic_linear', 'ompi_linear_sync'],
    ['<256', 'ompi_binomial'],
    ['<512', 2048, 'ompi_binomial', 8192, 'ompi_basic_linear', 'ompi_binomial'],
    ['*', 'ompi_binomial'],
  ],
  scatter: [
    ['<4', 2, 'ompi_linear_nb', 131072, 'ompi_basic_linear', 262144, 'ompi_linear_nb', 'ompi_basic_linear'],
    ['<8', 2048, 'ompi_binomial', 4096, 'ompi_basic_linear', 8192, 'ompi_binomial', 32768, 'ompi_basic_linear', 1048576, 'ompi_linear_nb', 'ompi_basic_linear'],
    ['<16', 16384, 'ompi_binomial', 1048576, 'ompi_linear_nb', 'ompi_basic_linear'],
    ['<32', 16384, 'ompi_binomial', 32768, 'ompi_basic_linear', 'ompi_linear_nb'],
    ['<64', 512, 'ompi_binomial', 8192, 'ompi_linear_nb', 16384, 'ompi_binomial', 'ompi_linear_nb'],
    ['*', 512, 'ompi_binomial', 'ompi_linear_nb'],
  ],
};

/** The algorithm of `bands` for `size` bytes on `ranks` ranks. */
function pickFromBands(bands: readonly Band[], size: number, ranks: number): string {
  const band = bands.find(([rule]) => rule === '*' || (rule[0] === '=' ? ranks === Number(rule.slice(1)) : ranks < Number(rule.slice(1)))) ?? bands[bands.length - 1];
  const picks = band.slice(1);
  for (let i = 0; i + 1 < picks.length; i += 2) if (size < (picks[i] as number)) return picks[i + 1] as string;
  return picks[picks.length - 1] as string;
}

/** Whether `n` is a power of two (MPICH's pof2 tests). */
const isPow2 = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

/**
 * SMPI's `mpich` selector (smpi_mpich_selector.cpp), commutative operations on MPI_COMM_WORLD. Its
 * allreduce and reduce run mvapich2_two_level and its bcast SMP_binomial (the communicator is no SMP
 * communicator, and one rank per host is uniform); the others choose by size as MPICH does.
 */
const MPICH: Readonly<Partial<Record<CollectiveKind, (size: number, ranks: number, elementBytes: number) => string>>> = {
  alltoall: (s, n) => (s < 256 && n >= 8 ? 'bruck' : s < 32768 ? 'mvapich2_scatter_dest' : n % 2 ? 'pair' : 'ring'),
  // MPICH counts the gathered total, the block times the rank count.
  allgather: (s, n) => (isPow2(n) && s * n < 524288 ? 'rdb' : s * n <= 81920 ? 'bruck' : 'ring'),
  allreduce: () => 'mvapich2_two_level',
  reduce: () => 'mvapich2_two_level',
  // MPICH's reduce_scatter sums the receive counts: elements, not bytes.
  'reduce-scatter': (s, _n, e) => (s / e > 524288 ? 'mpich_pair' : 'mpich_rdb'),
  broadcast: () => 'SMP_binomial',
  gather: () => 'ompi_binomial',
  scatter: () => 'ompi_binomial',
  barrier: () => 'ompi_bruck',
};

/**
 * SMPI's `mvapich2` selector (smpi_mvapich2_selector.cpp with the tables of
 * smpi_mvapich2_selector_stampede.hpp; on one rank per host its 1-ppn tables), per collective:
 * `[numproc, max1, algorithm1, max2, ..., else]` rows. The first row whose numproc is at least the rank
 * count applies (the last one past them all), and in it the first algorithm whose max is at least the
 * bytes (MVAPICH2 compares `nbytes > max`; the block for alltoall and allgather, the whole buffer
 * otherwise). Choices: `mvapich2_two_level` (init_smp, then rdb over the leaders), `mvapich2_rs`
 * (MPICH's allreduce: rdb below pof2 elements, else Rabenseifner), `init_smp+rdb` and `init_smp+ring`
 * (the allgather selector builds the SMP communicators first), `ireduce+scatterv` (its Basic reduce_scatter
 * is the default selector's). Allreduce rows from 1024 ranks with a two-level Rabenseifner are named
 * `mvapich2_two_level+mvapich2_rs` (not modelled).
 */
type Mv2Row = readonly [number, ...Array<number | string>];
const MVAPICH2_TABLES: Readonly<Partial<Record<CollectiveKind, readonly Mv2Row[]>>> = {
  allreduce: [
    [16, 1024, 'mvapich2_two_level', 'mvapich2_rs'],
    [32, 1024, 'mvapich2_two_level', 16384, 'mvapich2_two_level', 'mvapich2_rs'],
    [512, 512, 'mvapich2_two_level', 16384, 'mvapich2_two_level', 'mvapich2_rs'],
    [1024, 512, 'mvapich2_two_level', 8192, 'mvapich2_two_level', 65536, 'mvapich2_two_level+mvapich2_rs', 'mvapich2_rs'],
    // 64 B to 512 B: reduce_p2p as the inter-leader function, which mvapich2_two_level runs as mvapich2_rs;
    // 512 B to 4 KiB: the multicast helper, replaced by rdb.
    [2048, 64, 'mvapich2_two_level', 512, 'mvapich2_two_level+mvapich2_rs', 4096, 'mvapich2_two_level', 16384, 'mvapich2_two_level+mvapich2_rs', 'mvapich2_rs'],
  ],
  'reduce-scatter': [
    [16, 64, 'ireduce+scatterv', 65536, 'ompi_basic_recursivehalving', 'mpich_pair'],
    [32, 64, 'ireduce+scatterv', 131072, 'ompi_basic_recursivehalving', 'mpich_pair'],
    [64, 1024, 'ireduce+scatterv', 262144, 'ompi_basic_recursivehalving', 'mpich_pair'],
    [256, 128, 'ireduce+scatterv', 'ompi_basic_recursivehalving'],
    [512, 256, 'ireduce+scatterv', 'ompi_basic_recursivehalving'],
  ],
  alltoall: [
    [2, 'pair'],
    [4, 262144, 'mvapich2_scatter_dest', 'pair'],
    [8, 8, 'rdb', 'mvapich2_scatter_dest'],
    [16, 64, 'rdb', 512, 'bruck', 'mvapich2_scatter_dest'],
    [32, 32, 'rdb', 2048, 'bruck', 'mvapich2_scatter_dest'],
    [64, 8, 'rdb', 1024, 'bruck', 'mvapich2_scatter_dest'],
  ],
  allgather: [
    [2, 'init_smp+ring'],
    [4, 262144, 'init_smp+rdb', 'init_smp+ring'],
    [16, 131072, 'init_smp+rdb', 'init_smp+ring'],
    [32, 65536, 'init_smp+rdb', 'init_smp+ring'],
    [64, 32768, 'init_smp+rdb', 'init_smp+ring'],
  ],
  barrier: [[1, 'mvapich2_pair']],
  // Builds the SMP communicators, then (1 ppn) ompi_binomial on 2 ranks, ompi_basic_linear up to 32, from 33
  // ompi_binomial up to 32 B.
  scatter: [
    [2, 'init_smp+ompi_binomial'],
    [32, 'init_smp+ompi_basic_linear'],
    [64, 32, 'init_smp+ompi_binomial', 'init_smp+ompi_basic_linear'],
  ],
  // Its SMP choices need comm->is_blocked(), which only init_smp sets and which the gather does not call:
  // on a communicator's first SMP-aware collective it runs gather__mpich (MPICH's binomial, ompi_binomial).
  gather: [[1, 'ompi_binomial']],
  // Two-level (init_smp, then over the leaders) or on the whole communicator; MVAPICH2's k-nomial reduce
  // (mvapich2_knomial) is not modelled. redscat_gather: scatter_gather from pof2 elements, else binomial.
  reduce: [
    [16, 262144, 'mvapich2_two_level+mvapich2_knomial', 1048576, 'binomial', 'redscat_gather'],
    [32, 32768, 'mvapich2_two_level+mvapich2_knomial', 65536, 'init_smp+binomial', 262144, 'mvapich2_knomial', 1048576, 'binomial', 'redscat_gather'],
    [64, 16384, 'mvapich2_two_level+mvapich2_knomial', 65536, 'init_smp+binomial', 262144, 'mvapich2_two_level+mvapich2_knomial', 'redscat_gather'],
    [128, 8192, 'mvapich2_two_level+mvapich2_knomial', 16384, 'mvapich2_knomial', 65536, 'init_smp+binomial', 262144, 'mvapich2_knomial', 1048576, 'init_smp+binomial', 'redscat_gather'],
    [256, 16384, 'mvapich2_two_level+mvapich2_knomial', 32768, 'init_smp+binomial', 65536, 'binomial', 1048576, 'init_smp+binomial', 'redscat_gather'],
    [512, 8192, 'mvapich2_two_level+mvapich2_knomial', 16384, 'mvapich2_knomial', 1048576, 'init_smp+binomial', 'redscat_gather'],
    [1024, 8192, 'mvapich2_two_level+mvapich2_knomial', 16384, 'mvapich2_knomial', 'init_smp+binomial'],
  ],
};

/**
 * The mvapich2 bcast (its inter-leader function over the leaders, every rank, after init_smp; from 128
 * ranks at 512 KiB the same function on the whole communicator): `mpich` is bcast__mpich on the leaders'
 * SMP communicator, which chooses binomial_tree below 12,288 B or up to 8 ranks, scatter_rdb_allgather
 * below 512 KiB on an even count, else scatter_LR_allgather (smpi_mpich_selector.cpp).
 */
const MV2_BCAST: readonly Mv2Row[] = [
  [16, 8192, 'mpich', 16384, 'binomial_tree', 65536, 'mpich', 262144, 'scatter_LR_allgather', 524288, 'scatter_rdb_allgather', 'scatter_LR_allgather'],
  [64, 'mpich'],
  [128, 524288, 'mpich', 'scatter_LR_allgather'],
  [256, 131072, 'mpich', 262144, 'scatter_LR_allgather', 524288, 'mpich', 'scatter_LR_allgather'],
  [512, 262144, 'mpich', 'scatter_LR_allgather'],
  [2048, 524288, 'mpich', 'scatter_LR_allgather'],
];
function mvapich2Bcast(size: number, ranks: number): string {
  const inter = pickMv2(MV2_BCAST, size, ranks);
  return `init_smp+${inter !== 'mpich' ? inter : mpichBcastOnLeaders(size, ranks)}`;
}

/**
 * MVAPICH2's intra-node bcast on one rank per host (bcast__mvapich2_intra_node, after init_smp): up to 64 ranks
 * outside 16 KiB < size < 512 KiB, binomial_tree to 16 KiB, else scatter_LR_allgather (mv2_scatter_rd_inter_leader_bcast);
 * otherwise two-level: mvapich2_inter_node (bcast__mpich over the leaders), the intra-node part having one rank.
 */
function mvapich2IntraNodeBcast(size: number, ranks: number): string {
  if (ranks <= 64 && !(size > 16384 && size < 524288)) return size <= 16384 ? 'binomial_tree' : 'scatter_LR_allgather';
  return mpichBcastOnLeaders(size, ranks);
}

/** bcast__mpich on the leaders' SMP communicator (smpi_mpich_selector.cpp): its choice by size and rank count. */
function mpichBcastOnLeaders(size: number, ranks: number): string {
  return size < 12288 || ranks <= 8 ? 'binomial_tree' : size < 524288 && ranks % 2 === 0 ? 'scatter_rdb_allgather' : 'scatter_LR_allgather';
}

/** The choice of MVAPICH2 table `rows` for `size` bytes on `ranks` ranks. */
function pickMv2(rows: readonly Mv2Row[], size: number, ranks: number): string {
  const row = rows.find(([numproc]) => ranks <= numproc) ?? rows[rows.length - 1];
  const picks = row.slice(1);
  for (let i = 0; i + 1 < picks.length; i += 2) if (size <= (picks[i] as number)) return picks[i + 1] as string;
  return picks[picks.length - 1] as string;
}

/** The mvapich2 reduce: redscat_gather runs scatter_gather from pof2 elements, else binomial. */
function mvapich2Reduce(size: number, ranks: number, elementBytes: number): string {
  const choice = pickMv2(MVAPICH2_TABLES.reduce!, size, ranks);
  return choice !== 'redscat_gather' ? choice : size / elementBytes >= floorPow2(ranks) ? 'scatter_gather' : 'binomial';
}

/** The mvapich2 selector's choice of `collective` for `size` bytes on `ranks` ranks (MVAPICH2_TABLES). */
const mvapich2 = (collective: CollectiveKind) => (size: number, ranks: number): string => pickMv2(MVAPICH2_TABLES[collective]!, size, ranks);

/** The mvapich2 and impi selectors' choices that are no SMPI algorithm name (init_smp, then an algorithm): the Meshwork variant of each. */
const SMP_PATTERNS: Readonly<Partial<Record<CollectiveKind, Readonly<Record<string, string>>>>> = {
  allgather: { 'init_smp+rdb': 'recursive-doubling:smp=true', 'init_smp+ring': 'ring:order=shift,smp=true', 'init_smp+bruck': 'bruck:smp=true', 'init_smp+GB': 'gather-broadcast:smp=true' },
  scatter: { 'init_smp+ompi_binomial': 'binomial:order=smallest-first,smp=true', 'init_smp+ompi_basic_linear': 'linear:smp=true' },
  reduce: {
    'init_smp+binomial': 'recursive-doubling:smp=true',
    'init_smp+scatter_gather': 'rabenseifner:order=near-first,gather=binomial,smp=true',
    // The two-level reduce with MVAPICH2's k-nomial over the leaders (every rank), radix 4 in every row of its table.
    'mvapich2_two_level+mvapich2_knomial': 'knomial:radix=4,smp=true',
    'init_smp+mvapich2_knomial': 'knomial:radix=4,smp=true',
    'init_smp+rab': 'rabenseifner-original:smp=true',
  },
  // impi: the selector's init_smp, then its choice.
  alltoall: {
    'init_smp+bruck': 'bruck:smp=true',
    'init_smp+pair': 'pairwise:order=xor,smp=true',
    'init_smp+mvapich2_scatter_dest': 'linear:sends=reverse,batch=4,self=message,smp=true',
  },
  alltoallv: { 'init_smp+ompi_basic_linear': 'linear:smp=true' },
  'reduce-scatter': {
    'init_smp+ompi_basic_recursivehalving': 'recursive-halving:smp=true',
    'init_smp+mpich_pair': 'pairwise:smp=true',
    'init_smp+mpich_rdb': 'recursive-doubling:smp=true',
    'init_smp+ireduce+scatterv': 'reduce-then-scatter:smp=true',
  },
  barrier: { 'init_smp+ompi_recursivedoubling': 'recursive-doubling:smp=true', 'init_smp+ompi_basic_linear': 'linear:smp=true' },
  gather: { 'init_smp+ompi_basic_linear': 'linear:smp=true', 'init_smp+ompi_binomial': 'binomial:smp=true' },
  allreduce: {
    'init_smp+rdb': 'recursive-doubling:fold=even-out,smp=true',
    'init_smp+redbcast': 'reduce-broadcast:smp=true',
    'init_smp+rab1': 'rabenseifner:allgather=linear,smp=true',
    'init_smp+ompi_ring_segmented': 'ring:segment=1048576,remainder=redbcast,smp=true',
    // smp_binomial builds the SMP communicators itself: init_smp runs once.
    'init_smp+smp_binomial': 'reduce-broadcast:reduce=binomial,smp=true',
  },
  broadcast: {
    'init_smp+binomial_tree': 'binomial:smp=true',
    'init_smp+scatter_rdb_allgather': 'scatter-rdb-allgather:smp=true',
    'init_smp+scatter_LR_allgather': 'scatter-allgather:smp=true',
    // SMP_linear skips init_smp when the selector has run it: the same messages.
    'init_smp+SMP_linear': SMP_LINEAR,
  },
};

/**
 * SMPI's `impi` selector (smpi_intel_mpi_selector.cpp, Intel MPI's table 3.5-2): every impi collective
 * first builds the SMP communicators (init_smp), then runs algorithm number `algo` of the 1-ppn table
 * (one rank per host): the first row whose max_num_proc is at least the rank count, in it the first
 * entry whose max_size exceeds the bytes (the block for alltoall, allgather, gather and scatter, the
 * whole buffer otherwise; 1 for the barrier and alltoallv). `[max_num_proc, max_size, algo, ...]`.
 * Entries of max_size 0 never match. The scatter's table has rows to 8 ranks only: past them
 * SMPI reads beyond the table (undefined; what it runs is not modelled).
 */
const IMPI_TABLES: Readonly<Partial<Record<CollectiveKind, ReadonlyArray<readonly number[]>>>> = {
  allreduce: [
    [2, 6, 7, 85, 1, 192, 7, 853, 1, 1279, 7, 16684, 1, 34279, 8, 1681224, 3, 2147483647, 7],
    [4, 16, 7, 47, 1, 2062, 7, 16699, 1, 33627, 7, 70732, 8, 1300705, 3, 2147483647, 8],
    [8, 118, 1, 146, 4, 16760, 1, 36364, 6, 136239, 8, 315710, 7, 3220366, 3, 2147483647, 8],
    [16, 934, 1, 1160, 6, 15505, 1, 52730, 2, 300705, 8, 563680, 7, 2147483647, 3],
    [2147483647, 5, 6, 11, 4, 182, 1, 700, 6, 1450, 4, 11146, 1, 25539, 6, 37634, 4, 93784, 6, 817658, 2, 2147483647, 3],
  ],
  alltoall: [
    [2, 2147483647, 3],
    [4, 0, 4, 2147483647, 2],
    [8, 2147483647, 2],
    [16, 0, 3, 84645, 2, 167570, 3, 413152, 4, 2147483647, 2],
    [32, 61, 1, 164, 2, 696, 1, 143254, 2, 387024, 3, 2147483647, 2],
    [64, 523, 1, 146088, 2, 488989, 4, 2147483647, 2],
    [2147483647, 270, 1, 628, 4, 2147483647, 2],
  ],
  barrier: [[2, 2147483647, 2], [4, 2147483647, 6], [8, 2147483647, 1], [64, 2147483647, 2], [2147483647, 2147483647, 6]],
  broadcast: [
    [2, 1, 2, 402, 7, 682, 5, 1433, 4, 5734, 7, 21845, 1, 95963, 6, 409897, 5, 2147483647, 1],
    [4, 2147483647, 7],
    [8, 3, 6, 4, 7, 25, 6, 256, 1, 682, 6, 1264, 1, 2234, 6, 6655, 5, 16336, 1, 3998434, 7, 2147483647, 6],
    [2147483647, 2147483647, 7],
  ],
  reduce: [[2147483647, 2147483647, 1]],
  'reduce-scatter': [
    [2, 5, 4, 522429, 2, 1375877, 5, 2932736, 2, 2147483647, 5],
    [4, 4, 4, 15, 1, 120, 3, 651, 1, 12188, 3, 33890, 1, 572117, 2, 1410202, 5, 2147483647, 2],
    [8, 4, 4, 2263, 1, 25007, 3, 34861, 1, 169625, 2, 2734000, 4, 2147483647, 2],
    [16, 4, 4, 14228, 1, 46084, 3, 522139, 2, 2147483647, 5],
    [32, 4, 4, 27516, 1, 61693, 3, 2483469, 2, 2147483647, 5],
    [64, 0, 3, 4, 4, 100396, 1, 2147483647, 2],
    [2147483647, 0, 3, 4, 4, 186926, 1, 278259, 3, 1500100, 2, 2147483647, 5],
  ],
  allgather: [
    [4, 1, 4, 384, 1, 1533, 4, 3296, 1, 10763, 4, 31816, 3, 193343, 4, 405857, 3, 597626, 4, 1844323, 3, 2147483647, 4],
    [8, 12, 4, 46, 1, 205, 4, 3422, 2, 4200, 4, 8748, 1, 24080, 3, 33244, 4, 371159, 1, 2147483647, 3],
    [16, 3, 4, 53, 1, 100, 4, 170, 1, 6077, 4, 127644, 1, 143741, 4, 2147483647, 3],
    [2147483647, 184, 1, 320, 4, 759, 1, 1219, 4, 2633, 1, 8259, 4, 123678, 1, 160801, 4, 284341, 1, 2147483647, 4],
  ],
  gather: [
    [8, 17561, 3, 44791, 2, 2147483647, 3],
    [16, 16932, 3, 84425, 2, 158363, 3, 702801, 2, 1341444, 3, 2413569, 2, 2147483647, 3],
    [2147483647, 47187, 3, 349696, 2, 2147483647, 3],
  ],
  scatter: [
    [2, 16391, 1, 2147483647, 3],
    [4, 16723, 3, 153541, 2, 425631, 3, 794142, 2, 1257027, 3, 2147483647, 2],
    // num_elems 7 with six entries: from 1,752,729 B the seventh, {0, 0}, algorithm 0 (before the table).
    [8, 2633, 3, 6144, 2, 14043, 3, 24576, 2, 107995, 3, 1752729, 2, 2147483647, 0],
  ],
  alltoallv: [[2147483647, 2147483647, 1]],
};

/**
 * The impi selector's algorithm numbers per collective, as SMPI names after init_smp: a name, or a function
 * of the size and rank count for a number SMPI runs as another selector (alltoall 4 alltoall__mvapich2, bcast 7
 * bcast__mvapich2, reduce 1 and 3 reduce__mvapich2, scatter 3 scatter__mvapich2, gather 3 gather__mvapich2).
 */
type ImpiChoice = string | ((size: number, ranks: number, elementBytes: number) => string);
const withInitSmp = (choice: string): string => (choice.startsWith('init_smp+') || choice.startsWith('mvapich2_two_level') || choice === 'SMP_binomial' ? choice : `init_smp+${choice}`);
const IMPI_ALGORITHMS: Readonly<Partial<Record<CollectiveKind, readonly ImpiChoice[]>>> = {
  allreduce: ['init_smp+rdb', 'init_smp+rab1', 'init_smp+redbcast', 'mvapich2_two_level', 'init_smp+smp_binomial', 'mvapich2_two_level', 'init_smp+ompi_ring_segmented', 'init_smp+ompi_ring_segmented'],
  alltoall: ['init_smp+bruck', 'init_smp+mvapich2_scatter_dest', 'init_smp+pair', (s, n) => withInitSmp(mvapich2('alltoall')(s, n))],
  // 5 and 6 (binomial gather + scatter) run SMPI's default barrier, ompi_basic_linear.
  barrier: ['init_smp+ompi_basic_linear', 'init_smp+ompi_recursivedoubling', 'init_smp+ompi_basic_linear', 'init_smp+ompi_recursivedoubling', 'init_smp+ompi_basic_linear', 'init_smp+ompi_basic_linear'],
  broadcast: ['init_smp+binomial_tree', 'init_smp+NTSL', 'init_smp+NTSL', 'SMP_binomial', 'init_smp+NTSL', 'init_smp+SMP_linear', (s, n) => mvapich2Bcast(s, n)],
  reduce: [(s, n, e) => withInitSmp(mvapich2Reduce(s, n, e)), 'init_smp+binomial', (s, n, e) => withInitSmp(mvapich2Reduce(s, n, e)), 'mvapich2_two_level', 'init_smp+rab', 'init_smp+rab'],
  // 1: Open MPI's recursive halving for a commutative operation; 4 and 5: the default reduce_scatter.
  'reduce-scatter': ['init_smp+ompi_basic_recursivehalving', 'init_smp+mpich_pair', 'init_smp+mpich_rdb', 'init_smp+ireduce+scatterv', 'init_smp+ireduce+scatterv'],
  allgather: ['init_smp+rdb', 'init_smp+bruck', 'init_smp+ring', 'init_smp+GB'],
  gather: ['init_smp+ompi_binomial', 'init_smp+ompi_binomial', (s, n) => withInitSmp(mvapich2GatherBlocked(s, n))],
  scatter: ['init_smp+ompi_binomial', 'init_smp+ompi_binomial', (s, n) => withInitSmp(mvapich2('scatter')(s, n))],
  alltoallv: ['init_smp+ompi_basic_linear', 'init_smp+bruck'],
};

/** The impi selector's choice of `collective` for `size` bytes on `ranks` ranks. */
const impi = (collective: CollectiveKind) => (size: number, ranks: number, elementBytes: number): string => {
  const row = IMPI_TABLES[collective]!.find(([maxProcs]) => ranks <= maxProcs);
  if (row === undefined) return `init_smp+an entry past Intel's 1-ppn ${collective} table (which ends at ${IMPI_TABLES[collective]!.at(-1)![0]} ranks)`;
  let algo = row[row.length - 1];
  for (let i = 1; i + 1 < row.length; i += 2) {
    if (size < row[i]) {
      algo = row[i + 1];
      break;
    }
  }
  if (algo === 0) return `init_smp+algorithm 0 of Intel's ${collective} table (past its entries)`;
  const choice = IMPI_ALGORITHMS[collective]![algo - 1];
  return typeof choice === 'string' ? choice : choice(size, ranks, elementBytes);
};

/**
 * gather__mvapich2 once init_smp has run (the impi selector's number 3): the communicator is blocked, so it
 * runs the inter-leader function of MVAPICH2's gather table over every rank: Direct (ompi_basic_linear),
 * MPICH's (ompi_binomial) or mvapich2_two_level (gather `linear:smp=true` here, init_smp having run). `nbytes > max` as in MVAPICH2.
 */
const MV2_GATHER_INTER: readonly Mv2Row[] = [
  [16, 524288, 'ompi_basic_linear', 'ompi_binomial'],
  [32, 16384, 'ompi_basic_linear', 131072, 'ompi_binomial', 'mvapich2_two_level'],
  [64, 256, 'mvapich2_two_level', 16384, 'ompi_basic_linear', 'mvapich2_two_level'],
  [1024, 512, 'mvapich2_two_level', 16384, 'ompi_basic_linear', 'mvapich2_two_level'],
];
const mvapich2GatherBlocked = (size: number, ranks: number): string => pickMv2(MV2_GATHER_INTER, size, ranks);

/**
 * The ompi selector of `collective` (its OMPI_BANDS; the barrier's bands have no size limits). Open MPI's
 * neighbor exchange runs SMPI's ring for an odd rank count (allgather-ompi-neighborexchange.cpp), so
 * the choice is the ring there.
 */
const ompi = (collective: CollectiveKind) => (size: number, ranks: number): string => {
  const choice = pickFromBands(OMPI_BANDS[collective]!, size, ranks);
  return choice === 'ompi_neighborexchange' && ranks % 2 === 1 ? 'ring' : choice;
};

/** SMPI 3.32's selectors per collective: the SMPI algorithm (or DEFAULT_PATTERNS name) each runs for a size and rank count. */
const SMPI_SELECTORS: Readonly<Partial<Record<CollectiveKind, Readonly<Record<string, (size: number, ranks: number, elementBytes: number) => string>>>>> = {
  alltoall: { default: ompi('alltoall'), ompi: ompi('alltoall'), mpich: MPICH.alltoall!, mvapich2: mvapich2('alltoall'), impi: impi('alltoall') },
  // SMPI's other alltoallv selectors are not modelled.
  alltoallv: { impi: impi('alltoallv') },
  allreduce: { default: () => 'ireduce+binomial_tree', ompi: ompi('allreduce'), mpich: MPICH.allreduce!, mvapich2: mvapich2('allreduce'), impi: impi('allreduce') },
  allgather: { default: () => 'iallgather', ompi: ompi('allgather'), mpich: MPICH.allgather!, mvapich2: mvapich2('allgather'), impi: impi('allgather') },
  reduce: {
    default: () => 'ireduce',
    ompi: ompi('reduce'),
    mpich: MPICH.reduce!,
    mvapich2: mvapich2Reduce,
    impi: impi('reduce'),
  },
  // The default reduce_scatter reduces to rank 0 (ireduce) and scatters the result (scatterv).
  'reduce-scatter': { default: () => 'ireduce+scatterv', ompi: ompi('reduce-scatter'), mpich: MPICH['reduce-scatter']!, mvapich2: mvapich2('reduce-scatter'), impi: impi('reduce-scatter') },
  broadcast: { default: () => 'binomial_tree', ompi: ompi('broadcast'), mpich: MPICH.broadcast!, mvapich2: mvapich2Bcast, impi: impi('broadcast') },
  gather: { default: () => 'igather', ompi: ompi('gather'), mpich: MPICH.gather!, mvapich2: mvapich2('gather'), impi: impi('gather') },
  scatter: { default: () => 'iscatter', ompi: ompi('scatter'), mpich: MPICH.scatter!, mvapich2: mvapich2('scatter'), impi: impi('scatter') },
  barrier: { default: () => 'ompi_basic_linear', ompi: ompi('barrier'), mpich: MPICH.barrier!, mvapich2: mvapich2('barrier'), impi: impi('barrier') },
};

/**
 * The algorithm SMPI's selector `selector` (default, ompi, mpich, mvapich2, impi) runs for `collective` at `size` bytes
 * (Meshwork's --size) on `ranks` ranks of `elementBytes`-byte elements: an SMPI algorithm name, or one of the default selector's
 * non-blocking patterns (iallgather, ireduce, igather, iscatter, ireduce+binomial_tree,
 * ireduce+scatterv); undefined when `selector` is not one of this collective's selectors.
 */
export function smpiSelectorChoice(collective: CollectiveKind, selector: string, size: number, ranks: number, elementBytes = 4): string | undefined {
  const lower = selector.toLowerCase();
  const select = Object.entries(SMPI_SELECTORS[collective] ?? {}).find(([k]) => k === lower)?.[1];
  return select?.(size, ranks, elementBytes);
}

/** Every algorithm name SimGrid 3.32 SMPI has, per Meshwork collective (smpi_coll.cpp), for the refusal. */
const SMPI_NAMES: Readonly<Partial<Record<CollectiveKind, readonly string[]>>> = {
  gather: ['default', 'ompi', 'ompi_basic_linear', 'ompi_binomial', 'ompi_linear_sync', 'mpich', 'mvapich2', 'mvapich2_two_level', 'impi', 'automatic'],
  allgather: [
    'default', '2dmesh', '3dmesh', 'bruck', 'GB', 'loosely_lr', 'NTSLR', 'NTSLR_NB', 'pair', 'rdb', 'rhv', 'ring', 'SMP_NTS', 'smp_simple', 'spreading_simple',
    'ompi', 'ompi_neighborexchange', 'mvapich2', 'mvapich2_smp', 'mpich', 'impi', 'automatic',
  ],
  allreduce: [
    'default', 'lr', 'rab1', 'rab2', 'rab_rdb', 'rdb', 'smp_binomial', 'smp_binomial_pipeline', 'smp_rdb', 'smp_rsag', 'smp_rsag_lr', 'smp_rsag_rab', 'redbcast',
    'ompi', 'ompi_ring_segmented', 'mpich', 'mvapich2', 'mvapich2_rs', 'mvapich2_two_level', 'impi', 'rab', 'automatic',
  ],
  'reduce-scatter': ['default', 'ompi', 'ompi_basic_recursivehalving', 'ompi_ring', 'ompi_butterfly', 'mpich', 'mpich_pair', 'mpich_rdb', 'mpich_noncomm', 'mvapich2', 'impi', 'automatic'],
  scatter: ['default', 'ompi', 'ompi_basic_linear', 'ompi_linear_nb', 'ompi_binomial', 'mpich', 'mvapich2', 'mvapich2_two_level_binomial', 'mvapich2_two_level_direct', 'impi', 'automatic'],
  barrier: ['default', 'ompi', 'ompi_basic_linear', 'ompi_two_procs', 'ompi_tree', 'ompi_bruck', 'ompi_recursivedoubling', 'ompi_doublering', 'mpich_smp', 'mpich', 'mvapich2_pair', 'mvapich2', 'impi', 'automatic'],
  alltoall: [
    'default', '2dmesh', '3dmesh', 'basic_linear', 'bruck', 'pair', 'pair_rma', 'pair_light_barrier', 'pair_mpi_barrier', 'pair_one_barrier', 'rdb', 'ring',
    'ring_light_barrier', 'ring_mpi_barrier', 'ring_one_barrier', 'mvapich2', 'mvapich2_scatter_dest', 'ompi', 'mpich', 'impi', 'automatic',
  ],
  alltoallv: [
    'default', 'bruck', 'pair', 'pair_light_barrier', 'pair_mpi_barrier', 'pair_one_barrier', 'ring', 'ring_light_barrier', 'ring_mpi_barrier', 'ring_one_barrier',
    'ompi', 'mpich', 'ompi_basic_linear', 'mvapich2', 'impi', 'automatic',
  ],
  broadcast: [
    'default', 'arrival_pattern_aware', 'arrival_pattern_aware_wait', 'arrival_scatter', 'binomial_tree', 'flattree', 'flattree_pipeline', 'NTSB', 'NTSL', 'NTSL_Isend',
    'scatter_LR_allgather', 'scatter_rdb_allgather', 'SMP_binary', 'SMP_binomial', 'SMP_linear', 'ompi', 'ompi_split_bintree', 'ompi_pipeline', 'mpich', 'mvapich2',
    'mvapich2_inter_node', 'mvapich2_intra_node', 'mvapich2_knomial_intra_node', 'impi', 'automatic',
  ],
  reduce: [
    'default', 'arrival_pattern_aware', 'binomial', 'flat_tree', 'NTSL', 'scatter_gather', 'ompi', 'ompi_chain', 'ompi_pipeline', 'ompi_basic_linear', 'ompi_in_order_binary',
    'ompi_binary', 'ompi_binomial', 'mpich', 'mvapich2', 'mvapich2_knomial', 'mvapich2_two_level', 'impi', 'rab', 'automatic',
  ],
};

/** Why an SMPI name has no Meshwork equivalent, where the reason is more than "not modelled yet". */
const NO_EQUIVALENT: Readonly<Partial<Record<CollectiveKind, Readonly<Record<string, string>>>>> = {
  broadcast: Object.fromEntries(
    ['arrival_pattern_aware', 'arrival_pattern_aware_wait', 'arrival_scatter'].map((name) => [
      name,
      'its ranks poll with MPI_Iprobe which others have arrived and serve those first, so its messages depend on timing a schedule fixed before the run cannot know',
    ]),
  ),
};

/** A resolved alias: the Meshwork spec and what to record. */
export interface SmpiAlias {
  readonly spec: string;
  /** e.g. "rab_rdb (SimGrid SMPI 3.32 allreduce)". */
  readonly alias: string;
}

/** Where a selector chooses: the request's size (Meshwork's --size) and rank count. */
export interface SmpiSelectorContext {
  readonly size: number;
  readonly ranks: number;
  /** Bytes of one element (DTYPE_BYTES; 4 when not given): MPICH's reduce_scatter counts elements. */
  readonly elementBytes?: number;
}

/**
 * The Meshwork variant of SMPI algorithm `name` for `collective`, or undefined when `name` is not an
 * SMPI name (the caller then reports an unknown algorithm). An SMPI name with no Meshwork equivalent,
 * or an alias given parameters, is refused. A selector (`default`, `ompi`, `mpich`, `mvapich2`, `impi`) resolves to the algorithm
 * it runs at `at`'s size and rank count, refused when Meshwork does not model that algorithm.
 */
export function resolveSmpiAlias(collective: CollectiveKind, name: string, hasParams: boolean, explicit = false, at?: SmpiSelectorContext): SmpiAlias | undefined {
  // Meshwork specs are case-insensitive (NTSLR_NB arrives as ntslr_nb); record SMPI's spelling.
  const lower = name.toLowerCase();
  const aliases = SMPI_ALIASES[collective] ?? {};
  const known = Object.keys(aliases).find((k) => k.toLowerCase() === lower);
  if (known !== undefined) {
    const spec = aliases[known];
    if (hasParams) throw new InputError('algorithm', name, `${known} alone: it names SMPI's ${collective} algorithm, Meshwork ${spec} (give parameters to that instead)`);
    return { spec, alias: `${known} (SimGrid SMPI 3.32 ${collective})` };
  }
  const sized = Object.keys(SIZED_ALIASES[collective] ?? {}).find((k) => k.toLowerCase() === lower);
  if (sized !== undefined) {
    if (hasParams) throw new InputError('algorithm', name, `${sized} alone: it names SMPI's ${collective} algorithm (give parameters to the Meshwork variant it runs instead)`);
    if (at === undefined) throw new InputError('algorithm', name, `a size and rank count for SMPI's ${collective} ${sized}, whose messages depend on them`);
    const spec = sizedAlias(collective, sized, at)!;
    return { spec, alias: `${sized} → ${spec} at ${at.size} B on ${at.ranks} ranks (SimGrid SMPI 3.32 ${collective})` };
  }
  const selector = Object.keys(SMPI_SELECTORS[collective] ?? {}).find((k) => k === lower);
  if (selector !== undefined) {
    if (hasParams) throw new InputError('algorithm', name, `${selector} alone: it names SMPI's ${collective} selector (it takes no parameters)`);
    if (at === undefined) throw new InputError('algorithm', name, `a size and rank count for SMPI's ${collective} ${selector} selector, which chooses by them`);
    const choice = smpiSelectorChoice(collective, selector, at.size, at.ranks, at.elementBytes)!;
    const spec = aliases[choice] ?? sizedAlias(collective, choice, at) ?? DEFAULT_PATTERNS[collective]?.[choice] ?? SMP_PATTERNS[collective]?.[choice];
    const where = `${at.size} B on ${at.ranks} ranks`;
    if (collective === 'alltoall' && choice.replace(/^init_smp\+/, '') === 'pair' && !isPow2(at.ranks)) {
      // MPICH's rule picks pair for an odd rank count, and SMPI's pair throws there: smpirun aborts.
      throw new NotApplicableError('algorithm', selector, `a rank count SMPI runs: SimGrid SMPI 3.32's alltoall ${selector} selector runs pair at ${where}, which needs a power of two (smpirun aborts: "alltoall pair algorithm can't be used with non power of two number of processes")`);
    }
    if (collective === 'broadcast' && choice === 'NTSB' && at.size > NTSB_SEGMENT && at.size % NTSB_SEGMENT !== 0) {
      // NTSB broadcasts the bytes after its last whole segment with SMPI's bcast, here the selector again at their size.
      throw new NotApplicableError('algorithm', selector, `a size NTSB cuts into whole ${NTSB_SEGMENT}-byte segments: SimGrid SMPI 3.32's broadcast ${selector} selector runs NTSB at ${where}, which broadcasts the last ${at.size % NTSB_SEGMENT} B with the ${selector} selector again (not modelled; name NTSB instead)`);
    }
    if (spec === undefined) {
      // Not the request's fault: at another size or rank count the selector may choose a modelled algorithm (compare skips it).
      throw new NotApplicableError('algorithm', selector, `a selector choice Meshwork models: SimGrid SMPI 3.32's ${collective} ${selector} selector runs ${choice} at ${where}, which Meshwork does not model (name an algorithm instead)`);
    }
    return { spec, alias: `${selector} → ${choice} at ${where} (SimGrid SMPI 3.32 ${collective} selector)` };
  }
  const smpiName = SMPI_NAMES[collective]?.find((k) => k.toLowerCase() === lower);
  if (smpiName !== undefined) {
    const have = smpiAliasNames(collective);
    const why = NO_EQUIVALENT[collective]?.[smpiName];
    throw new InputError('algorithm', smpiName, `a Meshwork ${collective} algorithm: SimGrid SMPI's ${collective} ${smpiName} has no Meshwork equivalent${why ? `: ${why}` : ''} (SMPI names Meshwork runs: ${have.length ? have.join(', ') : 'none'})`);
  }
  if (explicit) throw new InputError('algorithm', `smpi:${name}`, `smpi:NAME with a SimGrid SMPI 3.32 ${collective} algorithm Meshwork runs: ${smpiAliasNames(collective).join(', ') || 'none'}`);
  return undefined;
}

/** The Meshwork spec of SIZED_ALIASES' `name` for `collective` at `at`, or undefined when it is none of them. */
function sizedAlias(collective: CollectiveKind, name: string, at: SmpiSelectorContext): string | undefined {
  return SIZED_ALIASES[collective]?.[name]?.(at.size, at.ranks, at.elementBytes ?? 4);
}

/** The SMPI names `collective` accepts as aliases, its selectors last (for help and error messages). */
export function smpiAliasNames(collective: CollectiveKind): string[] {
  return [...Object.keys(SMPI_ALIASES[collective] ?? {}), ...Object.keys(SIZED_ALIASES[collective] ?? {}), ...Object.keys(SMPI_SELECTORS[collective] ?? {})];
}
