/**
 * What each collective must move at the very least, per rank, whatever the algorithm: the bytes a
 * rank must inject and must eject. Size conventions follow `--size` (issue 3): alltoall,
 * allgather, gather, scatter: one block; broadcast, reduce, allreduce, reduce-scatter: the whole
 * buffer; 1-to-1: the message.
 */
import { InputError } from '../../util/errors.js';

export const BOUND_COLLECTIVES = ['alltoall', 'allgather', 'gather', 'scatter', 'broadcast', 'multicast', 'reduce', 'allreduce', 'reduce-scatter', '1-to-1', 'barrier'] as const;
export type BoundCollective = (typeof BOUND_COLLECTIVES)[number];

export interface CollectiveDemand {
  readonly collective: BoundCollective;
  readonly ranks: number;
  readonly size: number;
  readonly root: number;
  /** For 1-to-1: the destination rank. */
  readonly peer: number;
}

/** Bytes rank r must send (inject) at least. */
export function mustSend(d: CollectiveDemand, r: number): number {
  const { ranks: n, size: m, root } = d;
  if (n < 2) return 0;
  switch (d.collective) {
    case 'alltoall':
      return (n - 1) * m;
    case 'allgather':
      return m;
    case 'gather':
      return r === root ? 0 : m;
    case 'scatter':
      return r === root ? (n - 1) * m : 0;
    case 'broadcast':
    case 'multicast':
      return r === root ? m : 0;
    case 'reduce':
      return r === root ? 0 : m;
    case 'allreduce':
      // Patarasuk & Yuan (2009): every rank sends at least 2(n−1)/n of the buffer.
      return (2 * (n - 1) * m) / n;
    case 'reduce-scatter':
      return ((n - 1) * m) / n;
    case '1-to-1':
      return r === root ? m : 0;
    case 'barrier':
      return 0;
  }
}

/** Bytes rank r must receive (eject) at least. */
export function mustReceive(d: CollectiveDemand, r: number): number {
  const { ranks: n, size: m, root } = d;
  if (n < 2) return 0;
  switch (d.collective) {
    case 'alltoall':
    case 'allgather':
      return (n - 1) * m;
    case 'gather':
      return r === root ? (n - 1) * m : 0;
    case 'scatter':
      return r === root ? 0 : m;
    case 'broadcast':
    case 'multicast':
      return r === root ? 0 : m;
    case 'reduce':
      return r === root ? m : 0;
    case 'allreduce':
      return (2 * (n - 1) * m) / n;
    case 'reduce-scatter':
      return ((n - 1) * m) / n;
    case '1-to-1':
      return r === d.peer ? m : 0;
    case 'barrier':
      return 0;
  }
}

export function checkBoundCollective(name: string): BoundCollective {
  if (!(BOUND_COLLECTIVES as readonly string[]).includes(name)) throw new InputError('collective', name, BOUND_COLLECTIVES.join(', '));
  return name as BoundCollective;
}
