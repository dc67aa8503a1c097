/**
 * Vocabulary of the schedule IR: collectives, element types, reduction operators, op kinds.
 * See src/collectives/schedule.ts for the semantics and docs/collectives.md for the reference.
 */
import { InputError, requireText } from '../util/errors.js';

export const COLLECTIVES = [
  'alltoall',
  'alltoallv',
  'broadcast',
  'reduce',
  'allreduce',
  'scatter',
  'gather',
  'allgather',
  'reduce-scatter',
  'one-to-one',
  'barrier',
] as const;
export type CollectiveKind = (typeof COLLECTIVES)[number];

/** Collectives whose postcondition involves a reduction (they carry a dtype and an op). */
export function isReduction(c: CollectiveKind): boolean {
  return c === 'reduce' || c === 'allreduce' || c === 'reduce-scatter';
}

/** Collectives with a root (`--root`): broadcast, reduce, scatter, gather, one-to-one (the source). */
export function isRooted(c: CollectiveKind): boolean {
  return c === 'broadcast' || c === 'reduce' || c === 'scatter' || c === 'gather' || c === 'one-to-one';
}

/**
 * A root or peer given where the collective has none is refused (it was ignored in silence). Rank 0
 * is every collective's default root, so only another rank is taken for a mistake.
 */
export function refuseInapplicableRanks(c: CollectiveKind, root: number | undefined, peer: number | undefined): void {
  if (peer !== undefined && c !== 'one-to-one') throw new InputError('peer', String(peer), 'nothing unless --collective one-to-one (the destination of the transfer)');
  if (root !== undefined && root !== 0 && !isRooted(c)) {
    throw new InputError('root', String(root), `nothing unless a rooted collective (broadcast, reduce, scatter, gather, one-to-one): ${c} has no root`);
  }
}

/**
 * What `size` means for each collective (Meshwork's convention, stated in help and docs):
 * alltoall, allgather, gather, scatter: bytes of one block (one rank to one destination, or one
 * rank's contribution); broadcast, reduce, allreduce, reduce-scatter: the whole buffer;
 * one-to-one: the message. Barrier has no data (size 0). alltoallv: the largest block; its per-pair
 * sizes are the part's `sizes` matrix (bytes from local rank i to local rank j).
 */
export function sizeMeaning(c: CollectiveKind): 'block' | 'buffer' | 'message' | 'none' {
  if (c === 'alltoallv') return 'block';
  if (c === 'alltoall' || c === 'allgather' || c === 'gather' || c === 'scatter') return 'block';
  if (c === 'one-to-one') return 'message';
  if (c === 'barrier') return 'none';
  return 'buffer';
}

export function parseCollective(text: string, field = 'collective'): CollectiveKind {
  const t = requireText(text, field, 'a collective name').trim().toLowerCase();
  const alias: Record<string, CollectiveKind> = { '1-to-1': 'one-to-one', p2p: 'one-to-one', reducescatter: 'reduce-scatter', reduce_scatter: 'reduce-scatter', bcast: 'broadcast' };
  const c = (alias[t] ?? t) as CollectiveKind;
  if (!(COLLECTIVES as readonly string[]).includes(c)) throw new InputError(field, text, `one of ${COLLECTIVES.join(', ')} (1-to-1 = one-to-one)`);
  return c;
}

export const DTYPES = ['int32', 'float32', 'float64'] as const;
export type Dtype = (typeof DTYPES)[number];
export const DTYPE_BYTES: Record<Dtype, number> = { int32: 4, float32: 4, float64: 8 };

export const REDUCE_OPS = ['sum', 'max', 'min', 'prod', 'bxor', 'band', 'bor'] as const;
export type ReduceOp = (typeof REDUCE_OPS)[number];

/** Op kinds as stored in the `kind` column (Uint8). */
export const OpKind = {
  Send: 0,
  Recv: 1,
  Copy: 2,
  Reduce: 3,
  Barrier: 4,
  Pace: 5,
  HwCollective: 6,
  /** Wait (one request, MPI_Wait) or waitall (every request, MPI_Waitall) of the stream's non-blocking sends and receives. */
  Wait: 7,
  /** Program only (workloads, never in a schedule): the stream is busy for a duration, in seconds. */
  Compute: 8,
} as const;
export type OpKind = (typeof OpKind)[keyof typeof OpKind];
export const OP_NAMES = ['send', 'recv', 'copy', 'reduce', 'barrier', 'pace', 'hw', 'waitall', 'compute'] as const;

/** Kinds of a modelled combining-network operation (seed 002's XOR allreduce is `allreduce`). */
/**
 * `contribute`: the participant takes part in the group's combining operation with its region but
 * stores nothing (seed 002's XOR swap: each of the three allreduce results is kept by one side only).
 */
export const HW_KINDS = ['allreduce', 'contribute'] as const;
export type HwKind = (typeof HW_KINDS)[number];

/** Route hint kinds (see RouteHint). */
export const HINT_KINDS = ['direct', 'via', 'path'] as const;
export type HintKind = (typeof HINT_KINDS)[number];

/**
 * How a send should travel. Node ids are topology node ids (use `Topology.endpoints[rank]` for
 * a rank's node). Absent hint: the engine's routing function decides.
 * - direct: the destination should be reached over the minimal/direct route (a 1-hop link in a full mesh).
 * - via: route to each listed transit/turnaround node in turn with the engine's routing, then to the
 *   destination(s). With several destinations the message travels once to the last via node and is
 *   replicated there to every destination as one cut-through (pipelined) transfer (seed 001's
 *   distributed switch); nothing passes through that node's memory.
 * - path: the explicit node sequence from the source's node to the destination's node (single destination).
 * Store-and-forward through a processor is not a hint: write it as recv then send on that rank.
 */
export interface RouteHint {
  readonly kind: HintKind;
  readonly nodes: readonly number[];
}
