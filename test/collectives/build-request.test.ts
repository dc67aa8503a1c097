/**
 * buildSchedule and ScheduleBuilder refuse, in one line and before allocating, what a library
 * caller can pass that the CLI never does (a library-user audit found each): an op count past the
 * schedule limit (linear alltoall over 65,536 ranks grew to 15 GB), a rank count that aborted the
 * process, an unknown collective or dtype, and a registered algorithm whose build returns something
 * other than the request's schedule (timed as a 0 s makespan, "100 % efficient").
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, registerAlgorithm, ScheduleBuilder, SEND, RECV, type Algorithm } from '../../src/index.js';
import { MAX_OPS } from '../../src/collectives/schedule.js';
import { LimitError } from '../../src/util/errors.js';

const userAlgorithm = (name: string, build: Algorithm['build']): Algorithm => ({
  name,
  collective: 'alltoall',
  description: 'test only',
  supportsText: 'any rank count',
  source: 'user',
  params: [],
  supports: () => undefined,
  build,
});

describe('buildSchedule refuses before building', () => {
  it('an alltoall whose op count passes the limit: linear over 65,536 ranks, at once', () => {
    const topology = buildTopology('torus:64x64x16');
    // The refusal names alltoall's count, 2·n·(n − 1) ops, known before building; the builder's own
    // limit, reached only after growing its columns, would name the op it stopped at ("schedule: got ...").
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'linear', topology, size: 1 })).toThrow(
      new LimitError('algorithm', `${2 * 65536 * 65535} schedule ops (linear, 65536 ranks)`, `${MAX_OPS} schedule ops (2^28)`),
    );
  });

  it('a dtype or reduction it does not know', () => {
    const topology = buildTopology('torus:2x2');
    expect(() => buildSchedule({ collective: 'allreduce', algorithm: 'ring', topology, size: 64, dtype: 'int8' as never })).toThrow(/^dtype: got "int8"; accepted: int32, float32, float64$/);
    expect(() => buildSchedule({ collective: 'allreduce', algorithm: 'ring', topology, size: 64, op: 'avg' as never })).toThrow(/^op: got "avg"; accepted: /);
  });
});

describe('ScheduleBuilder refuses what no schedule can be', () => {
  it('more ranks than a topology can have (1e9 aborted the process), an unknown collective or dtype', () => {
    expect(() => new ScheduleBuilder({ collective: 'alltoall', numRanks: 1e9, size: 64 })).toThrow(/^ranks: got 1000000000; accepted: at most 16777216 ranks/);
    expect(() => new ScheduleBuilder({ collective: 'bogus' as never, numRanks: 4, size: 64 })).toThrow(/^collective: got "bogus"; accepted: one of alltoall/);
    expect(() => new ScheduleBuilder({ collective: 'alltoall', numRanks: 4, size: 64, dtype: 'int8' as never })).toThrow(/^dtype: got "int8"/);
  });
});

describe("a registered algorithm's build must return the request's schedule", () => {
  const topology = buildTopology('torus:2x2');
  const copyOnly = (b: ScheduleBuilder, ranks: number, size: number): void => {
    for (let r = 0; r < ranks; r++) b.copy(r, b.region(SEND, 0, size), b.region(RECV, 0, size));
  };
  registerAlgorithm(userAlgorithm('test-other-collective', (ctx) => {
    const b = new ScheduleBuilder({ collective: 'broadcast', numRanks: ctx.ranks, size: 8 });
    return b.finish();
  }));
  registerAlgorithm(userAlgorithm('test-fewer-ranks', (ctx, newBuilder) => {
    const b = newBuilder({ numRanks: ctx.ranks - 1 });
    copyOnly(b, ctx.ranks - 1, ctx.size);
    return b.finish();
  }));
  registerAlgorithm(userAlgorithm('test-returns-null', () => null as never));

  it('another collective, fewer ranks, or nothing: one line naming the algorithm', () => {
    const build = (algorithm: string) => () => buildSchedule({ collective: 'alltoall', algorithm, topology, size: 16 });
    expect(build('test-other-collective')).toThrow(/^algorithm test-other-collective: got "a schedule of broadcast over 4 ranks"; accepted: the request's schedule: alltoall over 4 ranks$/);
    expect(build('test-fewer-ranks')).toThrow(/^algorithm test-fewer-ranks: got "a schedule of alltoall over 3 ranks"; accepted: the request's schedule: alltoall over 4 ranks$/);
    expect(build('test-returns-null')).toThrow(/^algorithm test-returns-null: got null; accepted: a build\(\) that returns the Schedule its builder finished$/);
  });
});
