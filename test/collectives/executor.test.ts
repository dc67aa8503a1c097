/** The executor must catch what is wrong, name where it came from, and never hang. */
import { describe, expect, it } from 'vitest';
import {
  RECV,
  SEND,
  ScheduleBuilder,
  buildSchedule,
  buildTopology,
  executeSchedule,
  scheduleFromJson,
  scheduleToJson,
  scheduleJsonChunks,
  simulate,
} from '../../src/index.js';
import './user-example.js';

/** A correct direct alltoall on n ranks, with an optional twist applied at (rank, source). */
function alltoall(n: number, B: number, misplace?: { rank: number; from: number; to: number }): ScheduleBuilder {
  const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: n, size: B });
  for (let r = 0; r < n; r++) {
    for (let j = 0; j < n; j++) {
      b.send(r, j, b.block(SEND, j));
      const slot = misplace && misplace.rank === j && misplace.from === r ? misplace.to : r;
      b.recv(j, r, b.block(RECV, slot));
    }
  }
  return b;
}

describe('executor', () => {
  it('passes a correct schedule and fails a misplaced block, naming source and destination', () => {
    expect(executeSchedule(alltoall(4, 8).finish()).pass).toBe(true);
    // Rank 2 stores the block from rank 3 in slot 1 (over rank 1's block); slot 3 is never filled.
    const r = executeSchedule(alltoall(4, 8, { rank: 2, from: 3, to: 1 }).finish());
    expect(r.pass).toBe(false);
    expect(r.mismatchCount).toBe(16); // slot 1 wrong source (8 bytes) + slot 3 uninitialised (8 bytes)
    const wrong = r.mismatches[0];
    expect(wrong.rank).toBe(2);
    expect(wrong.byte).toBe(8);
    // recv[8] of rank 2 should hold rank 1's block 2 byte 0, but holds rank 3's block 2 byte 0.
    expect(wrong.expected).toEqual({ rank: 1, block: 2, offset: 0 });
    expect(wrong.found).toEqual({ rank: 3, block: 2, offset: 0 });
    expect(wrong.text).toContain('rank 2 recv[8] should hold rank 1 block 2 byte 0 but holds rank 3 block 2 byte 0');
    expect(r.mismatches.find((m) => m.byte === 24)!.found).toBe('uninitialised');
  });

  it('reports a deadlock with the blocked ranks and ops instead of hanging', () => {
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 2, size: 4 });
    b.recv(0, 1, b.block(RECV, 1));
    b.send(0, 1, b.block(SEND, 1));
    b.recv(1, 0, b.block(RECV, 0));
    b.send(1, 0, b.block(SEND, 0));
    for (const steps of [false, true]) {
      const r = executeSchedule(b.finish(), { steps });
      expect(r.pass).toBe(false);
      const d = r.problems.find((p) => p.kind === 'deadlock')!;
      expect(d.message).toContain('2 program(s) blocked');
      expect(d.message).toContain('rank 0 stream 0 op #0 (recv from 1 recv[4..7] tag 0) waits for a message from rank 1 tag 0');
    }
  });

  it('reports unmatched messages (wrong tag) with the send op', () => {
    const b = new ScheduleBuilder({ collective: 'one-to-one', numRanks: 2, size: 4, root: 0, peer: 1 });
    b.send(0, 1, b.region(SEND, 0, 4), 7);
    b.send(0, 1, b.region(SEND, 0, 4), 0);
    b.recv(1, 0, b.region(RECV, 0, 4), 0);
    const r = executeSchedule(b.finish());
    expect(r.pass).toBe(false);
    expect(r.mismatchCount).toBe(0);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0].kind).toBe('unmatched');
    expect(r.problems[0].message).toContain('op #0 rank 0 -> 1 tag 7');
  });

  it('catches a read of a region overwritten before it was sent (in-place hazard)', () => {
    // In place: rank 1 receives rank 0's block into recv block 0 before sending that block (meant for rank 0).
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 2, size: 4, inPlace: true });
    b.send(0, 1, b.block(RECV, 1));
    b.recv(0, 1, b.block(RECV, 1));
    b.recv(1, 0, b.block(RECV, 0));
    b.send(1, 0, b.block(RECV, 0));
    const r = executeSchedule(b.finish());
    expect(r.pass).toBe(false);
    const h = r.problems.find((p) => p.kind === 'hazard')!;
    expect(h.message).toContain('rank 1 stream 0 op #3 (send to 0 recv[0..3] tag 0) reads recv[0..0] which op #2 (recv from 0 recv[0..3] tag 0) overwrote before it was sent');
    // The correct order (send first) is hazard-free, and its peak memory is one buffer.
    const ok = new ScheduleBuilder({ collective: 'alltoall', numRanks: 2, size: 4, inPlace: true });
    for (const r2 of [0, 1]) ok.send(r2, 1 - r2, ok.block(RECV, 1 - r2));
    for (const r2 of [0, 1]) ok.recv(r2, 1 - r2, ok.block(RECV, 1 - r2));
    const good = executeSchedule(ok.finish());
    expect(good.pass).toBe(true);
    expect(Array.from(good.stats.peakBytes)).toEqual([8, 8]);
  });

  it('reports length mismatches and out-of-buffer regions as problems, not crashes', () => {
    const b = new ScheduleBuilder({ collective: 'one-to-one', numRanks: 2, size: 8, root: 0, peer: 1 });
    b.send(0, 1, b.region(SEND, 0, 8));
    b.recv(1, 0, b.region(RECV, 0, 4));
    expect(executeSchedule(b.finish()).problems[0]).toMatchObject({ kind: 'length' });
    const c = new ScheduleBuilder({ collective: 'one-to-one', numRanks: 2, size: 8, root: 0, peer: 1 });
    c.send(0, 1, c.region(SEND, 4, 8));
    c.recv(1, 0, c.region(RECV, 0, 8));
    const r = executeSchedule(c.finish());
    expect(r.problems[0].kind).toBe('bounds');
    expect(r.problems[0].message).toContain('send[4..11] is beyond the 8-byte buffer on rank 0');
  });

  it('checks reductions exactly for int32 (wrap-around) and catches a missing contribution', () => {
    const t = buildTopology('torus:5');
    const good = buildSchedule({ collective: 'allreduce', algorithm: 'ring', topology: t, size: 40 });
    expect(executeSchedule(good).pass).toBe(true);
    // Drop rank 3's contribution: rank 0 of the user "star" algorithm skips one reduce.
    const b = new ScheduleBuilder({ collective: 'allreduce', numRanks: 3, size: 8 });
    const tmp = b.tmpBuffer('tmp', 8);
    const all = b.region(RECV, 0, 8);
    b.copy(0, b.region(SEND, 0, 8), all);
    b.send(1, 0, b.region(SEND, 0, 8));
    b.recv(0, 1, b.region(tmp, 0, 8));
    b.reduce(0, b.region(tmp, 0, 8), all);
    for (const r of [1, 2]) {
      b.send(0, r, all);
      b.recv(r, 0, all);
    }
    const bad = executeSchedule(b.finish());
    expect(bad.pass).toBe(false);
    expect(bad.mismatchCount).toBe(3 * 2); // 2 int32 elements wrong on each of 3 ranks
    expect(bad.mismatches[0].text).toMatch(/rank 0 recv\[0..3\] should hold sum of element 0 over 3 ranks = -?\d+ but holds -?\d+/);
  });

  it('barrier: dissemination passes, a barrier missing a round fails the causality check', () => {
    const b = new ScheduleBuilder({ collective: 'barrier', numRanks: 4, size: 0 });
    const none = b.region(RECV, 0, 0);
    for (let r = 0; r < 4; r++) b.sendrecv(r, (r + 1) % 4, none, (r + 3) % 4, none); // one round only
    const r = executeSchedule(b.finish());
    expect(r.pass).toBe(false);
    expect(r.problems[0].message).toContain('rank 0 can leave before rank(s) 1, 2 arrived');
  });

  it('barrier groups: a (rank, stream) group synchronises; other streams run on', () => {
    const b = new ScheduleBuilder({ collective: 'one-to-one', numRanks: 2, size: 4, root: 0, peer: 1, streams: 2 });
    const g = b.group([0, 1], [0]);
    b.barrier(0, g, 0);
    b.barrier(1, g, 0);
    b.send(0, 1, b.region(SEND, 0, 4), 0, 1);
    b.recv(1, 0, b.region(RECV, 0, 4), 0, 1);
    const r = executeSchedule(b.finish());
    expect(r.pass).toBe(true);
    expect(Array.from(r.stats.barriers)).toEqual([1, 1]);
    // A participant that never arrives is a deadlock naming the group.
    const c = new ScheduleBuilder({ collective: 'barrier', numRanks: 3, size: 0 });
    const all = c.group([0, 1, 2]);
    c.barrier(0, all);
    c.barrier(1, all);
    const d = executeSchedule(c.finish());
    expect(d.problems[0].message).toContain('waits at group 0 (2 of 3 participants arrived)');
  });

  it('hw allreduce: the XOR swap of two blocks in place with one buffer (seed 002 idea)', () => {
    // Rank 0 holds [A, B], rank 1 holds [C, D]; swap B and C with three XOR allreduces, no second buffer.
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 2, size: 4, inPlace: true });
    const g = b.group([0, 1]);
    const B = b.block(RECV, 1);
    const C = b.block(RECV, 0);
    b.hw(0, 'allreduce', 'bxor', B, g, 0, B); // rank 0: B^C
    b.hw(1, 'allreduce', 'bxor', C, g, 0, -1);
    b.hw(0, 'allreduce', 'bxor', B, g, 0, -1); // rank 1: (B^C)^C = B
    b.hw(1, 'allreduce', 'bxor', C, g, 0, C);
    b.hw(0, 'allreduce', 'bxor', B, g, 0, B); // rank 0: (B^C)^B = C
    b.hw(1, 'allreduce', 'bxor', C, g, 0, -1);
    const r = executeSchedule(b.finish(), { steps: true });
    expect(r.problems).toEqual([]);
    expect(r.pass).toBe(true);
    expect(Array.from(r.stats.peakBytes)).toEqual([8, 8]);
    expect(Array.from(r.stats.hwOps)).toEqual([3, 3]);
    expect(r.steps!.steps).toBe(3);
  });

  it('unit steps: a receive port serves one message per step; the surplus waits (contention count)', () => {
    // Three ranks send to rank 0 at once: 3 steps, 2 deferred sends in step 1, 1 in step 2.
    const b = new ScheduleBuilder({ collective: 'gather', numRanks: 4, size: 4, root: 0 });
    b.copy(0, b.region(SEND, 0, 4), b.block(RECV, 0));
    for (let r = 1; r < 4; r++) {
      b.send(r, 0, b.region(SEND, 0, 4));
      b.recv(0, r, b.block(RECV, r));
    }
    const r = executeSchedule(b.finish(), { steps: true });
    expect(r.pass).toBe(true);
    expect(r.steps!.steps).toBe(3);
    expect(Array.from(r.steps!.deferredSends)).toEqual([2, 1, 0]);
    expect(Array.from(r.steps!.maxRecvsPerRank)).toEqual([1, 1, 1]);
  });

  it('unit steps: transfers out of and into each leaf switch are counted per step (two-level topology)', () => {
    // linear alltoall on 2 leaves x 3 hosts: step k sends r -> r+k; the leaf-crossing pairs per
    // step are 1, 2, 3, 2, 1 out of each leaf (worked out by hand from r and r+k mod 6).
    const t = buildTopology('twolevel:leaves=2,hosts=3,spines=2,uplinks=2');
    const r = executeSchedule(buildSchedule({ collective: 'alltoall', algorithm: 'linear', topology: t, size: 8 }), { steps: true, topology: t });
    expect(r.pass).toBe(true);
    expect(r.steps!.switchCounts).toBe(true);
    expect(Array.from(r.steps!.maxUpPerSwitch)).toEqual([1, 2, 3, 2, 1]);
    expect(Array.from(r.steps!.maxDownPerSwitch)).toEqual([1, 2, 3, 2, 1]);
  });

  it('unit steps: each stream sends once per step, so two streams move two messages in one step', () => {
    const b = new ScheduleBuilder({ collective: 'one-to-one', numRanks: 2, size: 8, root: 0, peer: 1, streams: 2 });
    for (const st of [0, 1]) {
      b.send(0, 1, b.region(SEND, st * 4, 4), 0, st);
      b.recv(1, 0, b.region(RECV, st * 4, 4), 0, st);
    }
    const r = executeSchedule(b.finish(), { steps: true });
    expect(r.pass).toBe(true);
    expect(r.steps!.steps).toBe(1);
    expect(Array.from(r.steps!.maxSendsPerRank)).toEqual([2]);
    expect(Array.from(r.steps!.maxRecvsPerRank)).toEqual([2]);
  });

  it('sub-communicators: two parts run concurrently and each is verified against its own collective', () => {
    const b = new ScheduleBuilder({
      collective: 'broadcast',
      numRanks: 4,
      size: 4,
      parts: [
        { collective: 'broadcast', ranks: [0, 1], size: 4, root: 1 },
        { collective: 'alltoall', ranks: [2, 3], size: 2 },
      ],
    });
    b.send(1, 0, b.region(SEND, 0, 4));
    b.copy(1, b.region(SEND, 0, 4), b.region(RECV, 0, 4));
    b.recv(0, 1, b.region(RECV, 0, 4));
    for (const [r, j] of [[2, 0], [3, 1]]) {
      b.copy(r, b.region(SEND, j * 2, 2), b.region(RECV, j * 2, 2));
      b.send(r, 5 - r, b.region(SEND, (1 - j) * 2, 2));
      b.recv(r, 5 - r, b.region(RECV, (1 - j) * 2, 2));
    }
    const r = executeSchedule(b.finish());
    expect(r.problems).toEqual([]);
    expect(r.pass).toBe(true);
    expect(r.checkedSlots).toBe(4 + 4 + 4 + 4); // two broadcast outputs of 4 B, two alltoall outputs of 2 x 2 B
    // Rank 3 keeping part-local block 0 (its own) in the wrong slot is caught, named by global rank.
    const c = new ScheduleBuilder({ collective: 'alltoall', numRanks: 3, size: 2, parts: [{ collective: 'alltoall', ranks: [1, 2], size: 2 }] });
    c.copy(1, c.region(SEND, 0, 2), c.region(RECV, 0, 2));
    c.copy(1, c.region(SEND, 2, 2), c.region(RECV, 2, 2));
    c.copy(2, c.region(SEND, 0, 2), c.region(RECV, 0, 2));
    c.copy(2, c.region(SEND, 2, 2), c.region(RECV, 2, 2));
    const bad = executeSchedule(c.finish());
    expect(bad.pass).toBe(false);
    expect(bad.mismatches[0].text).toBe('rank 1 recv[2] should hold rank 2 block 0 byte 0 but holds rank 1 block 1 byte 0');
  });

  it('chunk-identity mode agrees with bytes mode and uses block-sized slots', () => {
    const s = buildSchedule({ collective: 'alltoall', algorithm: 'bruck', topology: buildTopology('torus:3x3'), size: 64 });
    const bytes = executeSchedule(s);
    const chunks = executeSchedule(s, { mode: 'chunks' });
    expect(bytes.granularity).toBe(1);
    expect(chunks.granularity).toBe(64);
    expect(chunks.pass && bytes.pass).toBe(true);
    expect(Array.from(chunks.stats.sentBytes)).toEqual(Array.from(bytes.stats.sentBytes));
    expect(chunks.checkedSlots * 64).toBe(bytes.checkedSlots);
  });
});

describe('schedule JSON', () => {
  it('round-trips every column, including multicast, hints, strided regions, groups and pace', () => {
    const b = new ScheduleBuilder({ collective: 'broadcast', numRanks: 4, size: 12, inPlace: true, streams: 2, algorithm: 'test', topology: 'torus:4' });
    const all = b.region(RECV, 0, 12);
    const via = b.hint('via', [2]);
    b.pace(0, 2, 1);
    b.send(0, [1, 3], all, 0, 1, via);
    b.send(0, 2, b.strided(RECV, 0, 4, 4, 3), 0, 0, b.hint('path', [0, 1, 2]));
    for (const r of [1, 3]) b.recv(r, 0, all, 0, 1);
    b.recv(2, 0, all);
    const g = b.group([0, 1, 2, 3], 'all');
    for (let r = 0; r < 4; r++) for (const st of [0, 1]) b.barrier(r, g, st);
    const s = b.finish();
    expect(executeSchedule(s).pass).toBe(true);
    const text = scheduleToJson(s);
    expect(() => JSON.parse(text)).not.toThrow();
    const back = scheduleFromJson(JSON.parse(text));
    expect(scheduleToJson(back)).toBe(text);
    const listing = (x: typeof s): string[] => Array.from(x.programs().order, (op) => `${x.opRank[op]}/${x.opStream[op]} ${x.describeOp(op)}`);
    expect(listing(back)).toEqual(listing(s));
    expect(listing(back)).toContain('0/1 send to [1,3] recv[0..11] tag 0 via [2]');
    expect(listing(back)).toContain('0/0 send to 2 recv[0..3,4..7,8..11] tag 0 path [0,1,2]');
    expect(executeSchedule(back).pass).toBe(true);
    expect([...scheduleJsonChunks(s)].length).toBeGreaterThan(3);
  });

  it('round-trips a built algorithm and names the bad field of a broken file', () => {
    const s = buildSchedule({ collective: 'allreduce', algorithm: 'rabenseifner', topology: buildTopology('torus:6'), size: 48 });
    const json = JSON.parse(scheduleToJson(s));
    expect(scheduleToJson(scheduleFromJson(json))).toBe(scheduleToJson(s));
    const broken = structuredClone(json);
    broken.programs[2].ops[1][1] = 99;
    expect(() => scheduleFromJson(broken)).toThrow(/schedule\.programs\[2\]\.ops\[1\]\[1\]: got 99; accepted: an integer from 0 to 5/);
    const badRegion = structuredClone(json);
    badRegion.regions[0] = [[7, 0, 4]];
    expect(() => scheduleFromJson(badRegion)).toThrow(/schedule\.regions\[0\]\[0\]\[0\]/);
    expect(() => scheduleFromJson({ ...json, format: 'x' })).toThrow(/schedule\.format/);
    // A file's temporary counts toward the executor's limit before anything is allocated.
    const hugeTemporary = structuredClone(json);
    hugeTemporary.buffers.push({ name: 'huge', bytes: 1e15 });
    expect(() => executeSchedule(scheduleFromJson(hugeTemporary))).toThrow(/^size: got "\d+ slots of 4 bytes in every rank's buffers"; accepted: at most 268435456 slots in bytes mode/);
  });

  it('an uncharged reduce combines the data in no time, on both engines, and round-trips as "uncharged"', () => {
    // A 3-rank star allreduce: rank 0 gathers and reduces (its second reduce uncharged), then sends the sum back.
    const star = (chargeSecond: boolean) => {
      const b = new ScheduleBuilder({ collective: 'allreduce', numRanks: 3, size: 4096 });
      const tmp = b.tmpBuffer('tmp', 8192);
      const all = b.region(RECV, 0, 4096);
      b.copy(0, b.region(SEND, 0, 4096), all);
      for (const r of [1, 2]) {
        b.send(r, 0, b.region(SEND, 0, 4096));
        b.recv(0, r, b.region(tmp, (r - 1) * 4096, 4096));
      }
      b.reduce(0, b.region(tmp, 0, 4096), all);
      b.reduce(0, b.region(tmp, 4096, 4096), all, 0, undefined, chargeSecond);
      for (const r of [1, 2]) {
        b.send(0, r, all);
        b.recv(r, 0, all);
      }
      return b.finish();
    };
    const charged = star(true);
    const uncharged = star(false);
    expect(executeSchedule(uncharged).pass).toBe(true);
    const text = scheduleToJson(uncharged);
    expect(text).toContain('"uncharged"]');
    expect(scheduleToJson(scheduleFromJson(JSON.parse(text)))).toBe(text);
    expect(scheduleToJson(charged)).not.toContain('uncharged');
    const listing = Array.from(uncharged.programs().order, (op) => uncharged.describeOp(op));
    expect(listing.filter((l) => l.endsWith('(uncharged)'))).toHaveLength(1);
    // γ = 1 ns per byte: the uncharged reduce saves exactly its 4,096 ns on the critical path, on both engines.
    const topology = buildTopology('fullmesh:3');
    for (const engine of ['flow', 'packet'] as const) {
      const time = (s: typeof charged): number => simulate({ topology, schedule: s, engine, model: { alpha: 0, gammaReduce: 1e-9 } }).makespan_s;
      expect(time(charged) - time(uncharged), engine).toBeCloseTo(4096e-9, 12);
    }
    const bad = JSON.parse(text);
    const at = bad.programs.findIndex((p: { ops: unknown[][] }) => p.ops.some((o) => o.length === 5 && o[0] === 'reduce'));
    const op = bad.programs[at].ops.findIndex((o: unknown[]) => o.length === 5 && o[0] === 'reduce');
    bad.programs[at].ops[op][4] = 'free';
    expect(() => scheduleFromJson(bad)).toThrow(`schedule.programs[${at}].ops[${op}][4]: got "free"; accepted: one of uncharged`);
  });

  it("refuses a temporary named send or recv, which aliased the collective's own buffer", () => {
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 2, size: 4 });
    expect(b.tmpBuffer('scratch', 8)).toBe(b.tmpBuffer('scratch', 4));
    expect(() => b.tmpBuffer('recv', 64)).toThrow('buffer: got "recv"; accepted: a temporary buffer name other than send and recv');
    expect(() => b.tmpBuffer('send', 64)).toThrow('accepted: a temporary buffer name other than send and recv');
  });

  it('refuses a key or an op entry it would otherwise drop in silence', () => {
    const json = JSON.parse(scheduleToJson(buildSchedule({ collective: 'allreduce', algorithm: 'ring', topology: buildTopology('torus:4'), size: 64 })));
    expect(() => scheduleFromJson({ ...json, inplace: true })).toThrow('schedule.inplace: got true; accepted: no such key; the keys are format, version,');
    const misspeltPart = structuredClone(json);
    misspeltPart.parts[0].rot = 1;
    expect(() => scheduleFromJson(misspeltPart)).toThrow('schedule.parts[0].rot: got 1; accepted: no such key');
    const extraEntry = structuredClone(json);
    const recvAt = extraEntry.programs[1].ops.findIndex((op: unknown[]) => op[0] === 'recv');
    extraEntry.programs[1].ops[recvAt].push(5);
    expect(() => scheduleFromJson(extraEntry)).toThrow(`schedule.programs[1].ops[${recvAt}]: got [`);
    expect(() => scheduleFromJson(extraEntry)).toThrow('accepted: a "recv" op of 4 entries');
    const aliased = structuredClone(json);
    aliased.buffers.push({ name: 'recv', bytes: 64 });
    expect(() => scheduleFromJson(aliased)).toThrow(`schedule.buffers[${aliased.buffers.length - 1}].name: got "recv"; accepted: distinct buffer names (send and recv are buffers 0 and 1)`);
    const noTag = structuredClone(json);
    noTag.programs[1].ops[recvAt].pop();
    expect(() => scheduleFromJson(noTag)).toThrow('accepted: a "recv" op of 4 entries');
  });
});

describe('user-written algorithm (docs/collectives.md example)', () => {
  it('registers, builds and verifies', () => {
    for (const n of [1, 2, 5]) {
      const s = buildSchedule({ collective: 'allreduce', algorithm: 'star', topology: buildTopology(`torus:${n}`), size: 32 });
      const r = executeSchedule(s);
      expect(r.pass).toBe(true);
      expect(r.messages).toBe(2 * (n - 1));
    }
  });
});
