/**
 * What each collective must move at the very least, per rank, whatever the algorithm: the bytes a
 * rank must inject and must eject. Size conventions follow `--size` (issue 3): alltoall,
 * allgather, gather, scatter: one block; broadcast, reduce, allreduce, reduce-scatter: the whole
 * buffer; 1-to-1: the message.
 */
import type { CollectiveKind } from '../../collectives/types.js';
import type { Schedule } from '../../collectives/schedule.js';

export interface CollectiveDemand {
  readonly collective: CollectiveKind;
  /** Global ranks taking part, in part-local order. */
  readonly ranks: ArrayLike<number>;
  readonly size: number;
  /** Global rank of the root (source of one-to-one), or -1. */
  readonly root: number;
  /** Global rank of the one-to-one destination, or -1. */
  readonly peer: number;
  /** alltoallv: bytes from local rank i to local rank j at [i·n + j]. */
  readonly sizes?: Float64Array;
}

/** One demand per part (sub-communicator) of a schedule. */
export function scheduleDemands(schedule: Schedule): CollectiveDemand[] {
  return schedule.parts.map((p) => ({ collective: p.collective, ranks: p.ranks, size: p.size, root: p.root, peer: p.peer, ...(p.sizes ? { sizes: p.sizes } : {}) }));
}

/** A demand over ranks 0..n−1. */
export function demandOf(collective: CollectiveKind, n: number, size: number, root = 0, peer = n - 1): CollectiveDemand {
  return { collective, ranks: Int32Array.from({ length: n }, (_, i) => i), size, root, peer };
}

/** alltoallv: the bytes global rank r sends to (or receives from) the other ranks. */
function vBytes(d: CollectiveDemand, r: number, way: 'send' | 'recv'): number {
  const n = d.ranks.length;
  const local = Array.prototype.indexOf.call(d.ranks, r) as number;
  if (local < 0 || !d.sizes) return 0;
  let total = 0;
  for (let q = 0; q < n; q++) if (q !== local) total += way === 'send' ? d.sizes[local * n + q] : d.sizes[q * n + local];
  return total;
}

/** Bytes global rank r (a member) must send (inject) at least. */
export function mustSend(d: CollectiveDemand, r: number): number {
  const n = d.ranks.length;
  const m = d.size;
  const root = d.root;
  if (n < 2) return 0;
  switch (d.collective) {
    case 'alltoall':
      return (n - 1) * m;
    case 'alltoallv':
      return vBytes(d, r, 'send');
    case 'allgather':
      return m;
    case 'gather':
      return r === root ? 0 : m;
    case 'scatter':
      return r === root ? (n - 1) * m : 0;
    case 'broadcast':
      return r === root ? m : 0;
    case 'reduce':
      return r === root ? 0 : m;
    case 'allreduce':
      // Patarasuk & Yuan (2009): every rank sends at least 2(n−1)/n of the buffer.
      return (2 * (n - 1) * m) / n;
    case 'reduce-scatter':
      return ((n - 1) * m) / n;
    case 'one-to-one':
      return r === root ? m : 0;
    case 'barrier':
      return 0;
  }
}

/** Bytes global rank r (a member) must receive (eject) at least. */
export function mustReceive(d: CollectiveDemand, r: number): number {
  const n = d.ranks.length;
  const m = d.size;
  const root = d.root;
  if (n < 2) return 0;
  switch (d.collective) {
    case 'alltoall':
    case 'allgather':
      return (n - 1) * m;
    case 'alltoallv':
      return vBytes(d, r, 'recv');
    case 'gather':
      return r === root ? (n - 1) * m : 0;
    case 'scatter':
      return r === root ? 0 : m;
    case 'broadcast':
      return r === root ? 0 : m;
    case 'reduce':
      return r === root ? m : 0;
    case 'allreduce':
      return (2 * (n - 1) * m) / n;
    case 'reduce-scatter':
      return ((n - 1) * m) / n;
    case 'one-to-one':
      return r === d.peer ? m : 0;
    case 'barrier':
      return 0;
  }
}
