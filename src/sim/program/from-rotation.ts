/**
 * The representatives' streams of a rotation-equivariant collective (collectives/registry.ts
 * `RotationStreams`), lowered as lowerSchedule lowers the built schedule but for the given ranks
 * only: symmetry's quotient (sim/flow/symmetry.ts `declaredQuotient`) without the full schedule.
 */
import type { RotationStreams } from '../../collectives/registry.js';
import type { DeclaredRotation } from '../flow/symmetry.js';
import { FlowProgramBuilder } from './program.js';

export function rotationProgram(numRanks: number, streams: RotationStreams): DeclaredRotation {
  return {
    numRanks,
    action: streams.action ?? 'rotation',
    opsPerRank: streams.opsPerRank,
    emit(ranks) {
      const b = new FlowProgramBuilder(numRanks, ranks.length * streams.opsPerRank);
      for (const r of ranks) {
        b.beginStream(r, 0);
        streams.forEachOp(r, (kind, peer, bytes, tag) => {
          if (kind === 'send') b.send(peer, bytes, tag);
          else if (kind === 'recv') b.recv(peer, bytes, tag);
          else if (kind === 'copy') b.copy(bytes);
          else b.reduce(bytes);
        });
      }
      return b.build();
    },
  };
}
