/**
 * The collective library's choice for one collective of a workload (issue 26): the default
 * algorithm of allreduce, allgather and reduce-scatter is what NCCL (RCCL on an AMD machine
 * preset) would run on that communicator, from the library's tuning model
 * (collectives/algorithms/library/tuning.ts, the same `tuneCollective` as `--algorithm nccl`).
 *
 * The communicator decides, not the whole machine:
 * - on a fabric topology (nodes of G accelerators) a communicator whose ranks fill g accelerators
 *   of each of its nodes, node after node, is a machine of those nodes × g accelerators, each node
 *   with its share g/G of the NICs (the other groups use the rest at the same time); the picker may
 *   take the hierarchical algorithm across nodes, and the rings follow the nodes;
 * - any other communicator (and every one on a topology without nodes) is one node of P
 *   accelerators behind a switch, at the scale-up rate of its first rank (its links out), with one
 *   channel: such a topology gives the rings no NICs or rails to spread over. Its pick is the ring
 *   or the tree with the protocol (LL, LL128, Simple) that the message size favours (a tree as tuned:
 *   `nccl-tree` has no channel count).
 * The pick's timing is applied by the lowering through sim/library.ts's `libraryTiming`, as
 * `meshwork run` applies it (the latency once at the start of each of its streams, the protocol's
 * efficiency).
 */
import { Topology } from '../topology/graph.js';
import { fullmesh } from '../topology/fullmesh.js';
import type { CollectiveKind } from '../collectives/types.js';
import { libraryMachine, tuneCollective, type LibraryName } from '../collectives/algorithms/library/tuning.js';

/** The collectives the libraries' tuning model covers. */
export const LIBRARY_COLLECTIVES: ReadonlySet<string> = new Set(['allreduce', 'allgather', 'reduce-scatter']);

/** The picker of a topology's machine: RCCL on the AMD preset, NCCL otherwise. */
export function defaultLibrary(t: Topology): LibraryName {
  return libraryMachine(t).name === 'mi300x' ? 'rccl' : 'nccl';
}

export interface CommunicatorPick {
  readonly library: LibraryName;
  readonly machine: string;
  /** What the pick depends on (collective, size, communicator shape). */
  readonly key: string;
  /** The schedule to build (channels fixed as stated above). */
  readonly spec: string;
  /** The topology to build it on: the real one for the whole machine in rank order, else the stand-in. */
  readonly topology: Topology;
}

/**
 * The library's pick for a collective of `size` (Meshwork's size) on the communicator `ranks`;
 * stand-in topologies and picks are cached, as a trace repeats the same communicators.
 */
export function communicatorPicker(t: Topology, library: LibraryName): (collective: CollectiveKind, ranks: readonly number[], size: number, identity: boolean) => CommunicatorPick {
  const machine = libraryMachine(t);
  const standIns = new Map<string, Topology>();
  const picks = new Map<string, CommunicatorPick>();
  return (collective, ranks, size, identity) => {
    const nodeLayout = communicatorLayout(t, ranks);
    const shape = nodeLayout !== undefined ? `${nodeLayout.g}x${nodeLayout.nodes}` : `bw${outBandwidth(t, ranks[0])}`;
    const key = `${collective}|${ranks.length}|${size}|${shape}|${identity}`;
    const cached = picks.get(key);
    if (cached !== undefined) return cached;
    const standInKey = `${ranks.length}|${shape}`;
    let standIn = identity && nodeLayout !== undefined ? t : standIns.get(standInKey);
    if (standIn === undefined) standIns.set(standInKey, (standIn = standInTopology(t, ranks, nodeLayout)));
    const pick = tuneCollective({ topology: standIn, collective, size, library, machine: machine.name }).pick;
    const out: CommunicatorPick = {
      library,
      machine: machine.name,
      key,
      // One channel for a ring of the stand-in; other picks (the tree) take no channel count: their spec as tuned.
      spec: nodeLayout === undefined && pick.algorithm === 'nccl-ring' ? `nccl-ring:channels=1,proto=${pick.protocol},machine=${machine.name}` : `${pick.spec},machine=${machine.name}`,
      topology: identity ? t : standIn,
    };
    picks.set(key, out);
    return out;
  };
}

function outBandwidth(t: Topology, rank: number): number {
  let out = 0;
  const v = t.endpoints[rank];
  for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) out += t.chBandwidth[t.outChannels[i]];
  return out;
}

/** g accelerators per node over the communicator's nodes, node after node; undefined when it is not a fabric or not so laid out. */
function communicatorLayout(t: Topology, ranks: readonly number[]): { g: number; nodes: number } | undefined {
  const p = t.params as { gpusPerNode?: unknown; nodes?: unknown };
  if (typeof p.gpusPerNode !== 'number' || typeof p.nodes !== 'number' || p.gpusPerNode * p.nodes !== t.numEndpoints) return undefined;
  const G = p.gpusPerNode;
  const nodeOf = (r: number): number => Math.floor(r / G);
  let g = 1;
  while (g < ranks.length && nodeOf(ranks[g]) === nodeOf(ranks[0])) g++;
  if (ranks.length % g !== 0) return undefined;
  const seen = new Set<number>();
  for (let i = 0; i < ranks.length; i += g) {
    const node = nodeOf(ranks[i]);
    if (seen.has(node)) return undefined;
    seen.add(node);
    for (let j = 1; j < g; j++) if (nodeOf(ranks[i + j]) !== node) return undefined;
    if (i + g < ranks.length && nodeOf(ranks[i + g]) === node) return undefined;
  }
  return { g, nodes: ranks.length / g };
}

/** A topology of P ranks whose params describe the communicator as the picker and the library schedules read them (layout.ts, tuning.ts). */
function standInTopology(t: Topology, ranks: readonly number[], layout: { g: number; nodes: number } | undefined): Topology {
  const base = fullmesh(Math.max(2, ranks.length));
  const p = t.params as Record<string, unknown>;
  let params: Record<string, unknown>;
  if (layout !== undefined) {
    const share = layout.g / (p.gpusPerNode as number);
    params = { ...p, gpusPerNode: layout.g, nodes: layout.nodes, nics: (p.nics as number) * share };
  } else {
    params = { machine: p.machine, gpusPerNode: ranks.length, nodes: 1, scaleUp: 'switch', scaleUpBandwidthPerGpu: outBandwidth(t, ranks[0]), nics: 0, nicBandwidth: 0 };
  }
  return new Topology({ ...base, family: 'communicator', params });
}
