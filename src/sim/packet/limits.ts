/**
 * Size limits of packet-level runs, estimated from the request alone so a refusal comes before the
 * schedule, the program or the network is built (issue 16, item 1: `--size 1TiB` on torus:4x4 grew
 * memory ~70 MB/s until killed). A run's refusals are prepare()'s (sim/prepare.ts `refuseOversized`);
 * the network also refuses its own state before allocating it (`checkPacketNetworkSize`).
 */
import { demandOf, mustReceive } from '../bounds/demand.js';
import type { CollectiveKind } from '../../collectives/types.js';
import { InputError, LimitError } from '../../util/errors.js';
import type { Topology } from '../../topology/graph.js';

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

/** Most nodes of a packet-level network: per-node router state is ~1-4 KB, so 2^20 nodes is GBs. */
export const MAX_PACKET_NODES = 1 << 20;

export function checkPacketNodes(nodes: number, spec: string): void {
  if (nodes > MAX_PACKET_NODES) throw new LimitError('topology', `${spec} (${nodes} nodes)`, `${MAX_PACKET_NODES} nodes (2^20) for packet-level simulation`);
}

/**
 * Ranks sharing a host (an SMPI hostfile that lists it twice) send each other messages over the host's
 * route to itself (a loopback, or up and down its link), which the packet network has no channel for.
 */
export function refusePacketSharedHosts(t: Topology): void {
  if (t.ranksShareHosts) throw new InputError('engine', 'packet', `the flow engine for ${t.spec} with ${t.params.mapping ?? 'this mapping'}: several ranks share a host, and their messages to each other take its route to itself, which the packet network has no channel for`);
}

/**
 * Most memory a packet network may take before it is built: 2^31 bytes (2 GiB). What grows is
 * counted, not guessed from the node count: router state per input VC (buffers of vcBuf flits and
 * about ten words of VC state) and the initial packet pool, whose route columns hold `maxHops`
 * channel ids and VC classes per packet, so a large-diameter network (torus:512x512 under dimension
 * order: 512 hops) needs gigabytes of route buffers although it has only 2^18 routers.
 */
export const MAX_PACKET_NETWORK_BYTES = 2 ** 31;

export interface PacketNetworkShape {
  readonly numNodes: number;
  readonly numChannels: number;
  /** Largest out-degree of a node (per-link injection queues). */
  readonly maxOutDegree: number;
  readonly maxInDegree: number;
  readonly maxHops: number;
  readonly vcs: number;
  readonly vcBuf: number;
  readonly injectionPorts: number;
  readonly ejectionPorts: number;
  readonly perLinkInjection: boolean;
  readonly perLinkEjection: boolean;
}

/** Bytes PacketNetwork allocates for this shape when it is built (its constructor's arrays and initial packet pool). */
export function packetNetworkBytes(s: PacketNetworkShape): number {
  const nInj = s.injectionPorts * (s.perLinkInjection ? s.maxOutDegree : 1);
  const nEj = s.ejectionPorts * (s.perLinkEjection ? s.maxInDegree : 1);
  const inPorts = s.numChannels + s.numNodes * nInj;
  const ports = inPorts + s.numNodes * nEj;
  const ivcs = inPorts * s.vcs;
  const pool = Math.max(1024, 2 * ivcs + 2 * s.numNodes * nInj);
  // Per input VC: 10 Int32 columns plus 3 words per buffer slot; per output VC: owner and credits;
  // per packet: 14 columns plus its route (Int32 channel + Uint8 class per hop).
  return ivcs * (40 + 12 * s.vcBuf) + ports * s.vcs * 8 + ports * 16 + pool * (60 + 5 * Math.max(1, s.maxHops));
}

/** Refuses, before any allocation, a packet network larger than MAX_PACKET_NETWORK_BYTES, naming the limit and what grew. */
export function checkPacketNetworkSize(s: PacketNetworkShape, spec: string): void {
  checkPacketNodes(s.numNodes, spec);
  const bytes = packetNetworkBytes(s);
  if (bytes > MAX_PACKET_NETWORK_BYTES) {
    throw new LimitError(
      'topology',
      `${spec} (${(bytes / 2 ** 30).toFixed(1)} GiB at packet level)`,
      `${MAX_PACKET_NETWORK_BYTES / 2 ** 30} GiB of packet-network state (2^31 bytes; here ${s.numChannels} channels × ${s.vcs} VCs of ${s.vcBuf} flits and route buffers of ${s.maxHops} hops); time it with --engine flow`,
    );
  }
}
