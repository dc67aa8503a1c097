/**
 * Exporting a Meshwork schedule as Chakra execution traces, so its algorithm runs in ASTRA-sim as
 * Meshwork defines it: every send of the lowered program becomes a COMM_SEND per destination and
 * every receive a COMM_RECV (comm_src, comm_dst, comm_size, comm_tag), chained by control
 * dependencies in each stream's program order; streams of one rank are independent chains.
 * Local reductions and copies are dropped: Meshwork's default γ is 0 (free), and a COMP node would
 * run on the rank's one GPU-compute lane, ordering otherwise independent streams. Pacing has no
 * Chakra form and is dropped too. A barrier over
 * every rank becomes a COMM_COLL BARRIER; a barrier over a subset and combining-network (hw)
 * operations have no Chakra form and are refused.
 */
import { InputError } from '../../util/errors.js';
import { OpKind, OP_NAMES } from '../../collectives/types.js';
import type { FlowProgram } from '../../sim/program/program.js';
import type { ChakraNodeInit } from './write.js';

export function programToChakra(program: FlowProgram): ChakraNodeInit[][] {
  const ranks: ChakraNodeInit[][] = Array.from({ length: program.numRanks }, () => []);
  const nextId = new Int32Array(program.numRanks);
  // Streams that use each barrier key, to refuse a barrier that is not over every rank.
  const keyRanks = program.keyNames.map(() => new Set<number>());
  for (let s = 0; s < program.numStreams; s++) {
    for (let o = program.opStart[s]; o < program.opStart[s + 1]; o++) if (program.opKind[o] === OpKind.Barrier) keyRanks[program.opPeer[o]].add(program.streamRank[s]);
  }
  for (let s = 0; s < program.numStreams; s++) {
    const r = program.streamRank[s];
    let prev = -1;
    const add = (n: Omit<ChakraNodeInit, 'id' | 'ctrlDeps'>): void => {
      const id = nextId[r]++;
      ranks[r].push({ ...n, id, ctrlDeps: prev >= 0 ? [prev] : [] });
      prev = id;
    };
    for (let o = program.opStart[s]; o < program.opStart[s + 1]; o++) {
      const bytes = program.opBytes[o];
      const tag = program.opTag[o];
      switch (program.opKind[o]) {
        case OpKind.Send:
          for (let i = 0; i < program.opCount[o]; i++) {
            const dst = program.dsts[program.opPeer[o] + i];
            add({ name: `send ${r}->${dst} tag ${tag}`, kind: 'send', commSrc: r, commDst: dst, commSize: bytes, commTag: tag });
          }
          break;
        case OpKind.Recv:
          add({ name: `recv ${program.opPeer[o]}->${r} tag ${tag}`, kind: 'recv', commSrc: program.opPeer[o], commDst: r, commSize: bytes, commTag: tag });
          break;
        case OpKind.Reduce:
        case OpKind.Copy:
        case OpKind.Pace:
          break;
        case OpKind.Barrier:
          if (keyRanks[program.opPeer[o]].size !== program.numRanks) {
            throw new InputError('schedule', `barrier "${program.keyNames[program.opPeer[o]]}" over ${keyRanks[program.opPeer[o]].size} of ${program.numRanks} ranks`, 'barriers over every rank (Chakra has no sub-group barrier without process groups)');
          }
          add({ name: 'barrier', kind: 'coll', collective: 'barrier', commSize: 0 });
          break;
        default:
          throw new InputError('schedule', `a ${OP_NAMES[program.opKind[o]]} operation`, 'send, recv, reduce, copy, pace and barrier operations (Chakra has no combining-network or compute-duration form here)');
      }
    }
  }
  return ranks;
}
