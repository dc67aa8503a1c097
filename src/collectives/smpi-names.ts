/**
 * SimGrid SMPI's collective algorithm names (the values of `--cfg=smpi/<collective>:<name>` in
 * SimGrid 3.32, src/smpi/colls/smpi_coll.cpp) accepted as aliases of the exact Meshwork variant
 * that sends the same messages in the same order. Each mapping was checked against smpirun on a
 * 64-host 4x4x4 torus (test/reference/simgrid/, docs/flow.md "SimGrid users"). A name SMPI has
 * and Meshwork does not is refused in one line saying so; the result records the alias and the
 * variant it resolved to (`workload.algorithm_alias`, `workload.algorithm_spec`). A Meshwork name
 * wins over the SMPI name it shares: `smpi:ring` is SMPI's allgather ring (ring:order=shift), `ring`
 * Meshwork's (SMPI NTSLR).
 */
import { InputError } from '../util/errors.js';
import type { CollectiveKind } from './types.js';

/** The SMPI name → the Meshwork algorithm spec, per Meshwork collective. */
export const SMPI_ALIASES: Readonly<Partial<Record<CollectiveKind, Readonly<Record<string, string>>>>> = {
  alltoall: {
    basic_linear: 'linear:sends=reverse',
    pair: 'pairwise:order=xor',
    ring: 'ring',
    bruck: 'bruck',
  },
  alltoallv: {
    ompi_basic_linear: 'linear',
    pair: 'pairwise:order=xor',
    ring: 'pairwise',
  },
  allgather: {
    NTSLR: 'ring',
    NTSLR_NB: 'ring:recvs=preposted',
    ring: 'ring:order=shift',
    rdb: 'recursive-doubling',
    bruck: 'bruck',
  },
  allreduce: {
    lr: 'ring',
    rab_rdb: 'rabenseifner:order=near-first,fold=even-out',
    rdb: 'recursive-doubling',
  },
  reduce: {
    binomial: 'recursive-doubling',
    scatter_gather: 'rabenseifner:order=near-first,gather=binomial',
  },
  'reduce-scatter': {
    ompi_ring: 'ring:recvs=preposted',
    mpich_pair: 'pairwise',
  },
  broadcast: {
    default: 'binomial',
    binomial_tree: 'binomial',
    NTSL: 'chain:recvs=preposted,segment=8192',
    scatter_LR_allgather: 'scatter-allgather',
  },
  scatter: {
    ompi_basic_linear: 'linear',
    ompi_binomial: 'binomial:order=smallest-first',
  },
  gather: {
    ompi_basic_linear: 'linear',
    ompi_binomial: 'binomial',
  },
  barrier: {
    default: 'linear',
    ompi_basic_linear: 'linear',
  },
};

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

/** A resolved alias: the Meshwork spec and what to record. */
export interface SmpiAlias {
  readonly spec: string;
  /** e.g. "rab_rdb (SimGrid SMPI 3.32 allreduce)". */
  readonly alias: string;
}

/**
 * The Meshwork variant of SMPI algorithm `name` for `collective`, or undefined when `name` is not an
 * SMPI name (the caller then reports an unknown algorithm). An SMPI name with no Meshwork equivalent,
 * or an alias given parameters, is refused.
 */
export function resolveSmpiAlias(collective: CollectiveKind, name: string, hasParams: boolean, explicit = false): SmpiAlias | undefined {
  // Meshwork specs are case-insensitive (NTSLR_NB arrives as ntslr_nb); record SMPI's spelling.
  const lower = name.toLowerCase();
  const aliases = SMPI_ALIASES[collective] ?? {};
  const known = Object.keys(aliases).find((k) => k.toLowerCase() === lower);
  if (known !== undefined) {
    const spec = aliases[known];
    if (hasParams) throw new InputError('algorithm', name, `${known} alone: it names SMPI's ${collective} algorithm, Meshwork ${spec} (give parameters to that instead)`);
    return { spec, alias: `${known} (SimGrid SMPI 3.32 ${collective})` };
  }
  const smpiName = SMPI_NAMES[collective]?.find((k) => k.toLowerCase() === lower);
  if (smpiName !== undefined) {
    const have = Object.keys(aliases);
    throw new InputError('algorithm', smpiName, `a Meshwork ${collective} algorithm: SimGrid SMPI's ${collective} ${smpiName} has no Meshwork equivalent (SMPI names Meshwork runs: ${have.length ? have.join(', ') : 'none'})`);
  }
  if (explicit) throw new InputError('algorithm', `smpi:${name}`, `smpi:NAME with a SimGrid SMPI 3.32 ${collective} algorithm Meshwork runs: ${Object.keys(aliases).join(', ') || 'none'}`);
  return undefined;
}

/** The SMPI names `collective` accepts as aliases (for help and error messages). */
export function smpiAliasNames(collective: CollectiveKind): string[] {
  return Object.keys(SMPI_ALIASES[collective] ?? {});
}
