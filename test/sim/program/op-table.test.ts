/**
 * The run's op table (program.ts `OpTable`) stores a program's hot op fields and the run's times as
 * step-major records from OP_RECORD_STREAMS streams and as columns below: both layouts must give
 * back every field of every op and every time written, by op id, exactly.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, FlowProgramBuilder, lowerSchedule, type FlowProgram } from '../../../src/index.js';
import { OP_RECORD_MAX_BYTES, OP_RECORD_STREAMS, OpTable } from '../../../src/sim/program/program.js';

/** Every accessor against the program's columns, and times written through the table read back by op id. */
function roundTrip(p: FlowProgram, recordStreams: number, recordMaxBytes?: number): { records: boolean; wrong: string[] } {
  const ops = new OpTable(p, recordStreams, recordMaxBytes);
  const wrong: string[] = [];
  const check = (ok: boolean, what: string): void => {
    if (!ok && wrong.length < 5) wrong.push(what);
  };
  for (let s = 0; s < p.numStreams; s++) {
    for (let o = p.opStart[s]; o < p.opStart[s + 1]; o++) {
      const r = ops.index(s, o);
      check(ops.kind(r) === p.opKind[o] && ops.peer(r) === p.opPeer[o] && ops.count(r) === p.opCount[o], `kind/peer/count of op ${o}`);
      check(ops.tag(r) === p.opTag[o] && ops.hint(r) === p.opHint[o] && ops.bytes(r) === p.opBytes[o], `tag/hint/bytes of op ${o}`);
      check(Number.isNaN(ops.start(r)) && Number.isNaN(ops.end(r)), `op ${o} starts unset`);
      // Distinct values per op (odd ops left unset): a swapped slot or index shows.
      if (o % 2 === 0) {
        ops.setStart(r, o + 0.25);
        ops.setEnd(r, o + 0.5, o - 1);
      }
    }
  }
  const { start, end, pred } = ops.times();
  for (let o = 0; o < p.numOps; o++) {
    if (o % 2 === 0) check(start[o] === o + 0.25 && end[o] === o + 0.5 && pred[o] === o - 1, `times of op ${o}`);
    else check(Number.isNaN(start[o]) && Number.isNaN(end[o]) && pred[o] === -1, `op ${o} unset`);
  }
  return { records: ops.records, wrong };
}

describe('OpTable', () => {
  it(`stores ${OP_RECORD_STREAMS}-stream recursive doubling as records and gives back every field and time`, () => {
    const t = buildTopology('fattree:k=16,levels=3');
    const p = lowerSchedule(buildSchedule({ topology: t, collective: 'allreduce', algorithm: 'recursive-doubling', size: 1 << 20 }), t);
    expect(p.numStreams).toBe(OP_RECORD_STREAMS);
    const rec = roundTrip(p, OP_RECORD_STREAMS);
    expect(rec).toEqual({ records: true, wrong: [] });
    // The same program in the column layout.
    expect(roundTrip(p, OP_RECORD_STREAMS + 1)).toEqual({ records: false, wrong: [] });
  });

  it(`keeps columns when the records would exceed their byte cap (${OP_RECORD_MAX_BYTES} B by default)`, () => {
    const b = new FlowProgramBuilder(8);
    for (let r = 0; r < 8; r++) b.beginStream(r).send((r + 1) % 8, 64).recv((r + 7) % 8, 64);
    const p = b.build();
    // 16 ops as records: 768 bytes.
    expect(roundTrip(p, 1, 768)).toEqual({ records: true, wrong: [] });
    expect(roundTrip(p, 1, 767)).toEqual({ records: false, wrong: [] });
  });

  it('pads streams of unequal length in records, and keeps columns when padding would cost over an eighth', () => {
    // 8 streams of 12 or 14 ops (padding 8 %; a hint, a two-destination send, every local kind).
    const b = new FlowProgramBuilder(8);
    const hint = b.addHint({ kind: 'via', nodes: [1] });
    for (let r = 0; r < 8; r++) {
      b.beginStream(r).send([(r + 1) % 8, (r + 2) % 8], 100 + r, 3, hint).recv((r + 7) % 8, 100, 3).reduce(64 * r).copy(8).pace(2).compute(1e-6);
      for (let i = 0; i < 3 + (r % 2); i++) b.send((r + 1) % 8, 10 * i, i).recv((r + 7) % 8, 10 * i, i);
    }
    const p = b.build();
    expect(roundTrip(p, 1)).toEqual({ records: true, wrong: [] });
    // One stream of 40 ops among seven of 2: padding to 40 each would cost 5×: columns.
    const u = new FlowProgramBuilder(8);
    for (let r = 0; r < 8; r++) {
      u.beginStream(r);
      for (let i = 0; i < (r === 0 ? 20 : 1); i++) u.send((r + 1) % 8, 8).recv((r + 7) % 8, 8);
    }
    expect(roundTrip(u.build(), 1)).toEqual({ records: false, wrong: [] });
  });
});
