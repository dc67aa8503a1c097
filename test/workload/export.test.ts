import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { buildSchedule } from '../../src/collectives/registry.js';
import '../../src/collectives/algorithms/classic.js';
import { lowerSchedule } from '../../src/sim/program/from-schedule.js';
import { simulate } from '../../src/sim/simulate.js';
import { OpKind } from '../../src/collectives/types.js';
import { programToChakra } from '../../src/workload/chakra/export.js';
import { decodeChakraRank } from '../../src/workload/chakra/read.js';
import { encodeChakraRank } from '../../src/workload/chakra/write.js';
import { assembleTrace } from '../../src/workload/chakra/trace.js';
import { runWorkload } from '../../src/workload/run.js';

describe('a Meshwork schedule exported as Chakra ET', () => {
  const topology = buildTopology('ring:8,bw=50GBps,lat=500ns');
  const schedule = buildSchedule({ topology, collective: 'allreduce', algorithm: 'ring', size: 1 << 20 });
  const program = lowerSchedule(schedule, topology);
  const exported = programToChakra(program);

  it('ring allreduce: every send and receive of every rank, in program order, reads back identically', () => {
    const back = exported.map((nodes, r) => decodeChakraRank(encodeChakraRank(nodes), `ring.${r}.et`, r).nodes);
    for (let r = 0; r < 8; r++) {
      expect(back[r]).toHaveLength(exported[r].length);
      back[r].forEach((n, i) => expect(n).toMatchObject({ ...exported[r][i], dataDeps: [], durationMicros: 0, isCpu: false }));
    }
    // The exported messages are the schedule's: per rank (kind, peer, bytes, tag) in program order.
    for (let r = 0; r < 8; r++) {
      const fromProgram: string[] = [];
      for (let s = 0; s < program.numStreams; s++) {
        if (program.streamRank[s] !== r) continue;
        for (let o = program.opStart[s]; o < program.opStart[s + 1]; o++) {
          if (program.opKind[o] === OpKind.Send) fromProgram.push(`send ${program.dsts[program.opPeer[o]]} ${program.opBytes[o]} ${program.opTag[o]}`);
          if (program.opKind[o] === OpKind.Recv) fromProgram.push(`recv ${program.opPeer[o]} ${program.opBytes[o]} ${program.opTag[o]}`);
        }
      }
      expect(back[r].map((n) => `${n.kind} ${n.kind === 'send' ? n.commDst : n.commSrc} ${n.commSize} ${n.commTag}`)).toEqual(fromProgram);
      // 2(P − 1) = 14 steps, each a send and a receive of 1 MiB / 8.
      expect(fromProgram).toHaveLength(28);
    }
  });

  it('the read-back trace times exactly as the schedule itself, at flow and packet level', () => {
    const trace = assembleTrace(exported.map((nodes, r) => decodeChakraRank(encodeChakraRank(nodes), `ring.${r}.et`, r)));
    for (const engine of ['flow', 'packet'] as const) {
      const direct = simulate({ topology, schedule, engine });
      const { report } = runWorkload({ topology, trace, engine });
      expect(report.step_time_s).toBeCloseTo(direct.makespan_s, 12);
    }
  });
});
