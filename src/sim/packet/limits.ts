/**
 * Size limits of packet-level runs, estimated from the request alone so a refusal comes before the
 * schedule, the program or the network is built (issue 16, item 1: `--size 1TiB` on torus:4x4 grew
 * memory ~70 MB/s until killed).
 */
import { demandOf, mustReceive } from '../bounds/demand.js';
import type { CollectiveKind } from '../../collectives/types.js';
import { LimitError } from '../../util/errors.js';

/** Flit size of schedule runs unless the caller sets one (used by schedule-run.ts and by the limit below). */
export const SCHEDULE_FLIT_BYTES = 32;

/**
 * Most flits a packet-level schedule run delivers. Measured: 7.9 M flits (alltoall pairwise 1 MiB
 * on torus:4x4) take 13 s of CPU, so 2^26 flits (2 GiB of payload) is about two minutes: the
 * largest run worth waiting for; the flow engine times larger ones in seconds.
 */
export const MAX_PACKET_FLITS = 2 ** 26;

export interface PacketRunRequest {
  readonly collective: CollectiveKind;
  readonly ranks: number;
  /** Bytes, in the collective's size meaning (block, buffer or message). */
  readonly size: number;
  readonly root?: number;
  readonly flitBytes?: number;
}

/**
 * A lower bound on the flits a run delivers, whatever the algorithm: the bytes every rank must
 * receive (Σ mustReceive), in flits. O(ranks), no allocation beyond the rank list.
 */
export function packetFlitLowerBound(req: PacketRunRequest): number {
  const demand = demandOf(req.collective, req.ranks, req.size, req.root ?? 0);
  let bytes = 0;
  for (let r = 0; r < req.ranks; r++) bytes += mustReceive(demand, r);
  return Math.ceil(bytes / (req.flitBytes ?? SCHEDULE_FLIT_BYTES));
}

/** Throws LimitError naming the flit limit when even the lower bound exceeds it. */
export function checkPacketRunSize(req: PacketRunRequest): void {
  const flits = packetFlitLowerBound(req);
  if (flits > MAX_PACKET_FLITS) {
    throw new LimitError(
      'size',
      `${flits} flits`,
      `${MAX_PACKET_FLITS} flits (2^26, about 2 GiB, two minutes) at packet level, counting what ${req.ranks} ranks must receive in this ${req.collective} in ${req.flitBytes ?? SCHEDULE_FLIT_BYTES}-byte flits; time it with --engine flow`,
    );
  }
}

/** Most nodes of a packet-level network: per-node router state is ~1-4 KB, so 2^20 nodes is GBs. */
export const MAX_PACKET_NODES = 1 << 20;

export function checkPacketNodes(nodes: number, spec: string): void {
  if (nodes > MAX_PACKET_NODES) throw new LimitError('topology', `${spec} (${nodes} nodes)`, `${MAX_PACKET_NODES} nodes (2^20) for packet-level simulation`);
}
