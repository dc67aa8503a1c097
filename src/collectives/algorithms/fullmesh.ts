/**
 * Shared pieces of seed 001's full-mesh algorithms (JP 2020-046713, spec/seed001_fullmesh.md):
 * the full-mesh check, turnaround-node choice with the placement rule of [0108] ("the lower the
 * column number of a data group, the lower the number of the turnaround node it goes to"), and
 * the split of a buffer into K pieces.
 */
import type { Topology } from '../../topology/graph.js';
import { MAX_STREAMS, type ScheduleBuilder } from '../schedule.js';
import { pieceRange } from './alltoall/axis-phases.js';

/** Largest rank count the full-mesh check examines (the patent's systems reach N = 120, [0039]). */
export const FULLMESH_MAX_RANKS = 1024;

/** Undefined if every pair of compute endpoints has a direct link, else why not. */
export function fullMeshRefusal(topology: Topology): string | undefined {
  const n = topology.numEndpoints;
  if (n < 3) return `a full mesh of at least 3 nodes (claim 8), got ${n}`;
  if (n > FULLMESH_MAX_RANKS) return `at most ${FULLMESH_MAX_RANKS} ranks, got ${n}`;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j && topology.channelBetween(topology.endpoints[i], topology.endpoints[j]) < 0) {
        return `a full mesh (a direct link between every pair of ranks); ranks ${i} and ${j} have none`;
      }
    }
  }
  return undefined;
}

/** The first K ranks counting cyclically from `start`, skipping `exclude` (placement rule [0108]). */
export function turnaroundNodes(n: number, start: number, K: number, exclude: readonly number[] = []): number[] {
  const out: number[] = [];
  for (let i = 0; i < n && out.length < K; i++) {
    const r = (start + i) % n;
    if (!exclude.includes(r)) out.push(r);
  }
  return out;
}

/** Piece c of K of the `total` bytes starting at `base` in `buf`, cut on `unit`-byte boundaries. */
export function pieceRegion(b: ScheduleBuilder, buf: number, base: number, total: number, K: number, c: number, unit = 1): number {
  const { lo, len } = pieceRange(total / unit, K, c);
  return b.region(buf, base + lo * unit, len * unit);
}

/** Route hint: through turnaround rank t (cut-through, fanning out there when several receivers). */
export function viaHint(b: ScheduleBuilder, topology: Topology, t: number): number {
  return b.hint('via', [topology.endpoints[t]]);
}

/**
 * Streams for `sends` concurrent sends of one rank: the distributed switch drives its N−1 links
 * independently ([0041]), so sends over different links do not queue behind each other's α.
 */
export function linkPorts(sends: number): number {
  return Math.max(1, Math.min(sends, MAX_STREAMS));
}
