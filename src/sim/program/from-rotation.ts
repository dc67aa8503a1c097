/**
 * The representatives' streams of an equivariant collective (collectives/registry.ts
 * `RotationStreams`), lowered as lowerSchedule lowers the built schedule but for the given ranks
 * only: symmetry's quotient (sim/flow/symmetry.ts `declaredQuotient`) without the full schedule.
 */
import type { RotationStreams } from '../../collectives/registry.js';
import type { Topology } from '../../topology/graph.js';
import { pathToPorts } from '../../routing/hints.js';
import type { DeclaredRotation } from '../flow/symmetry.js';
import { FlowProgramBuilder } from './program.js';
import { groupKey } from './from-schedule.js';

export function rotationProgram(topology: Topology, streams: RotationStreams): DeclaredRotation {
  const numRanks = topology.numEndpoints;
  return {
    numRanks,
    action: streams.action ?? 'rotation',
    opsPerRank: streams.opsPerRank,
    emit(ranks) {
      const b = new FlowProgramBuilder(numRanks, ranks.length * streams.opsPerRank);
      // A send's node path becomes a port walk shared by every send that walks the same way, as
      // lowerSchedule makes it; a path that cannot (no such channel, or it does not run from the
      // sender's node to the destination's) stays a node path, which the quotient refuses.
      const walks = new Map<string, number>();
      const hintOf = (rank: number, to: number, path: ArrayLike<number>): number => {
        const ports = path[0] === topology.endpoints[rank] && path[path.length - 1] === topology.endpoints[to] ? pathToPorts(topology, path) : undefined;
        if (!ports || ports.length === 0) return b.addHint({ kind: 'path', nodes: Array.from(path) });
        const key = ports.join(',');
        let id = walks.get(key);
        if (id === undefined) walks.set(key, (id = b.addHint({ kind: 'ports', ports })));
        return id;
      };
      for (const r of ranks) {
        let begun = false;
        streams.forEachOp(r, (kind, peer, bytes, tag, path) => {
          if (kind === 'stream') {
            b.beginStream(r, peer);
            begun = true;
            return;
          }
          if (!begun) {
            b.beginStream(r, 0);
            begun = true;
          }
          if (kind === 'send') b.send(peer, bytes, tag, path === undefined ? undefined : hintOf(r, peer, path));
          else if (kind === 'recv') b.recv(peer, bytes, tag);
          else if (kind === 'isend') b.isend(peer, bytes, tag, path === undefined ? undefined : hintOf(r, peer, path));
          else if (kind === 'irecv') b.irecv(peer, bytes, tag);
          else if (kind === 'waitall') b.waitall();
          else if (kind === 'copy') b.copy(bytes);
          else if (kind === 'reduce') b.reduce(bytes);
          else if (kind === 'barrier') b.barrier(groupKey(peer));
          else b.pace(bytes);
        });
      }
      return b.build();
    },
  };
}
