/**
 * Receive matching with one stream per rank and no non-blocking op keeps each blocked receive's
 * key per stream (semantics.ts `blockedKey`) instead of in the match table's waiting lists. The
 * same program with one more, empty, stream on rank 0 takes the table: every op's start, end and
 * predecessor must be the same bit for bit, in both engines.
 */
import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildTopology, routingFor, simulateFlow, simulatePacketSchedule, type FlowProgram } from '../../../src/index.js';

const R = 16;

/** Messages that arrive before and after their receive is posted, several tags and sources per rank, out of order. */
function program(extraStream: boolean): FlowProgram {
  const b = new FlowProgramBuilder(R);
  for (let r = 0; r < R; r++) {
    b.beginStream(r);
    b.send((r + 1) % R, 4096 * (1 + (r % 3)), 1).send((r + 3) % R, 512, 2);
    // Tag 2's message (small) is received first though tag 1's was sent first.
    b.recv((r + R - 3) % R, 512, 2).recv((r + R - 1) % R, 4096 * (1 + ((r + R - 1) % 3)), 1);
    b.reduce(256).send((r + 5) % R, 64 * r, 7).recv((r + R - 5) % R, 64 * ((r + R - 5) % R), 7);
    if (r % 4 === 0) b.copy(1024);
    b.send((r + 2) % R, 100, 3).recv((r + R - 2) % R, 100, 3);
  }
  if (extraStream) b.beginStream(0, 1);
  return b.build();
}

describe('blocked receives kept per stream', () => {
  const t = buildTopology('torus:4x4');
  const model = { gammaReduce: 1e-9, gammaCopy: 5e-10 };

  it('flow engine: the same times as through the match table', () => {
    const routing = routingFor(t, 'flow');
    const sole = simulateFlow(t, routing, program(false), model);
    const table = simulateFlow(t, routing, program(true), model);
    expect(sole.opEnd.length).toBe(table.opEnd.length);
    expect(Array.from(sole.opStart)).toEqual(Array.from(table.opStart));
    expect(Array.from(sole.opEnd)).toEqual(Array.from(table.opEnd));
    expect(Array.from(sole.opPred)).toEqual(Array.from(table.opPred));
    expect(sole.makespan).toBe(table.makespan);
    expect(sole.makespan).toBeGreaterThan(0);
  });

  it('packet engine: the same times as through the match table', () => {
    const sole = simulatePacketSchedule({ topology: t, program: program(false), model });
    const table = simulatePacketSchedule({ topology: t, program: program(true), model });
    expect(sole.makespan_s).toBe(table.makespan_s);
    expect(sole.ranks.finish_s).toEqual(table.ranks.finish_s);
  });
});
