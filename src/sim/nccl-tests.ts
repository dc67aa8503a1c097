/**
 * nccl-tests' bandwidth figures (NVIDIA/nccl-tests doc/PERFORMANCE.md): algbw = S / t, with S the
 * bytes nccl-tests reports as the size (allreduce, reduce, broadcast, reduce-scatter: the whole
 * buffer; allgather, alltoall, gather, scatter: all n blocks, n × Meshwork's per-rank block), and
 * busbw = algbw × the collective's factor, which makes busbw comparable with the link rate whatever
 * the rank count: allreduce 2(n−1)/n; reduce-scatter, allgather, alltoall, gather, scatter (n−1)/n;
 * broadcast, reduce, one-to-one 1.
 */
import type { CollectiveKind } from '../collectives/types.js';

export interface NcclTestsBandwidth {
  /** nccl-tests' size: bytes the algbw refers to. */
  readonly size_bytes: number;
  readonly algbw_Bps: number;
  readonly busbw_Bps: number;
  /** busbw / algbw. */
  readonly busbw_factor: number;
  readonly definition: string;
}

/** Meshwork's --size is one block for these; nccl-tests counts all n blocks. */
const PER_BLOCK = new Set<CollectiveKind>(['allgather', 'alltoall', 'gather', 'scatter']);

export function busbwFactor(collective: CollectiveKind, ranks: number): number {
  const n = ranks;
  if (collective === 'allreduce') return (2 * (n - 1)) / n;
  if (collective === 'reduce-scatter' || PER_BLOCK.has(collective)) return (n - 1) / n;
  return 1;
}

/** nccl-tests' size for a Meshwork size of a collective on n ranks. */
export function ncclTestsSize(collective: CollectiveKind, size: number, ranks: number): number {
  return PER_BLOCK.has(collective) ? size * ranks : size;
}

export function ncclTestsBandwidth(collective: CollectiveKind, size: number, ranks: number, seconds: number): NcclTestsBandwidth | undefined {
  if (collective === 'barrier' || !(seconds > 0)) return undefined;
  const S = ncclTestsSize(collective, size, ranks);
  const factor = busbwFactor(collective, ranks);
  return {
    size_bytes: S,
    algbw_Bps: S / seconds,
    busbw_Bps: (S / seconds) * factor,
    busbw_factor: factor,
    definition: 'nccl-tests doc/PERFORMANCE.md: algbw = size / time; busbw = algbw × 2(n−1)/n (allreduce), (n−1)/n (allgather, reduce-scatter, alltoall, gather, scatter), 1 (broadcast, reduce)',
  };
}
