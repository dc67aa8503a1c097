/**
 * Which send queue of its rank a stream's messages wait in, under the `fifo` and `per-destination`
 * NIC models: one definition both engines use (flow/nic-queues.ts, packet/nic-queues.ts).
 *
 * A stream of ordinary ops sends from its NIC's queue (NIC = its local index mod `model.nics`), so
 * its sends leave after the earlier sends of every stream on that NIC and first link. A collective
 * library's stream (its ops marked `opLibrary`) is one of the library's channels, and NCCL's and
 * RCCL's channels are independent: each has its own thread blocks issuing its NVLink stores and its
 * own connection (queue pair) on the NIC. So a library stream gets a queue of its own, a lane, and
 * its sends wait only behind its own. With one queue, a ring channel whose step leaves the node
 * (NVLink to the rail's GPU, then that GPU's NIC, at the NIC's rate) held the NVLink queue while the
 * other channels' sends waited: an 8-channel ring allreduce on two HGX H100 nodes ran at half the
 * bus bandwidth its NICs carry (199 against 362 GB/s).
 *
 * Lanes exist only where the first link is the queue's server (no injection bandwidth modelled):
 * a modelled NIC port is one server with one queue, so there a library's channels queue on their
 * NIC as every send does (the packet engine's ports are physical, its lanes extra ports).
 */
import type { InjectionOrder } from './model.js';
import type { FlowProgram } from './program.js';

/** At most this many lanes per rank: a library stream's lane is its local index modulo it. */
export const MAX_LIBRARY_LANES = 64;

export interface SendLanes {
  /** Per stream: its lane, or −1 for a stream that sends from its NIC's queue. */
  readonly lane: Int32Array;
  /** Lanes per rank (the largest lane + 1). */
  readonly count: number;
}

/**
 * How a library's channels queue their sends (recorded as `model.library.sendQueues`): lanes of their
 * own; their NIC's queue, where an injection bandwidth models the port; none under the `shared` order,
 * where every send flows at once.
 */
export function librarySendQueues(order: InjectionOrder, injectionModelled: boolean): 'per-channel' | 'nic' | 'none' {
  return order === 'shared' ? 'none' : injectionModelled ? 'nic' : 'per-channel';
}

/** The lanes of a program's library streams, or null when it has none or they queue otherwise (librarySendQueues). */
export function librarySendLanes(program: FlowProgram, order: InjectionOrder, injectionModelled: boolean): SendLanes | null {
  const lib = program.opLibrary;
  if (lib === null || librarySendQueues(order, injectionModelled) !== 'per-channel') return null;
  const lane = new Int32Array(program.numStreams).fill(-1);
  let count = 0;
  for (let s = 0; s < program.numStreams; s++) {
    for (let op = program.opStart[s]; op < program.opStart[s + 1]; op++) {
      if (lib[op] !== 1) continue;
      lane[s] = program.streamLocal[s] % MAX_LIBRARY_LANES;
      count = Math.max(count, lane[s] + 1);
      break;
    }
  }
  return count > 0 ? { lane, count } : null;
}
