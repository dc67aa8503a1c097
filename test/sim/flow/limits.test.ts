import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, estimateSchedule, LimitError, OpKind, runCollectiveFlow, simulateCollective, type FlowModelOptions } from '../../../src/index.js';
import { MAX_FLOWS_IN_FLIGHT } from '../../../src/sim/flow/flow-table.js';
import { MAX_FLOW_OPS } from '../../../src/sim/flow/collective-run.js';
import { knownScheduleSize } from '../../../src/collectives/registry.js';
import { refuseOversized } from '../../../src/sim/prepare.js';

const req = (topology: string, algorithm: string, collective: 'alltoall' | 'allgather' = 'alltoall') => ({ topology: buildTopology(topology), collective, algorithm, size: 1 << 20 });
/** The flow-level refusal of prepare()'s one size layer. */
const checkFlowCollectiveSize = (build: ReturnType<typeof req>) => refuseOversized({ topology: build.topology, engine: 'flow', build });

describe('flow-level size limit', () => {
  it('refuses a direct alltoall on a 32×32×32 torus (2·32768·32767 ops > 2^27) before building the schedule', () => {
    for (const alg of ['linear', 'pairwise']) {
      // One send and one receive per block: 2,147,418,112 ops. A LimitError naming it, not an exhausted heap.
      expect(() => runCollectiveFlow(req('torus:32x32x32', alg))).toThrow(LimitError);
      expect(() => checkFlowCollectiveSize(req('torus:32x32x32', alg))).toThrow(/2147418112 schedule ops .*at most 134217728 schedule ops \(2\^27/);
    }
  });

  it('accepts hop-grouped on 32×32×32: its estimate is 3 stages × 3 areas × (copy + 31 × (pace, send, recv, barrier)) per rank', () => {
    const r = req('torus:32x32x32', 'hop-grouped');
    expect(() => checkFlowCollectiveSize(r)).not.toThrow();
    // Seed 000 Example 2 (spec §4): per rank 9 area-stages, each a copy and 31 hop groups of pace,
    // send, recv and a barrier except after the last group of each stream's stage; 2 stage barriers per stream.
    const P = 32768;
    const perRank = 9 * (1 + 31 * 4) - 9 + 2 * 3;
    expect(estimateSchedule(r)).toEqual({ ops: P * perRank, messages: P * 9 * 31 });
    expect(MAX_FLOW_OPS).toBe(2 ** 27);
  });

  it('the axis-phase estimates equal the built schedules', () => {
    const cases: Array<[string, string]> = [
      ['torus:4x4x4', 'hop-grouped'],
      ['torus:3x4x5', 'hop-grouped:dir=shortest'],
      ['torus:4x3', 'hop-grouped:areas=2n,final-barrier=on'],
      ['torus:5x4', 'hop-grouped:streams=sequential,pacing=off'],
      ['mesh:4x3x2', 'hop-grouped:dir=shortest'],
      ['torus:4x4,', 'hop-grouped:buffers=inplace'],
      ['mesh:5x3', 'dimension-ordered'],
      ['torus:6x2x3', 'dimension-ordered'],
    ];
    for (const [topo, alg] of cases) {
      const r = { ...req(topo.replace(/,$/, ''), alg), size: 60 };
      const s = buildSchedule(r);
      let messages = 0;
      for (let o = 0; o < s.numOps; o++) if (s.opKind[o] === OpKind.Send) messages += s.sendDests(o).length;
      expect(estimateSchedule(r), `${topo} ${alg}`).toEqual({ ops: s.numOps, messages });
    }
  });

  it('the ring algorithms declare their n² size: estimates equal the built schedules, and 32,768 ranks are refused before building', () => {
    for (const [collective, algorithm] of [['allreduce', 'ring'], ['allgather', 'ring'], ['reduce-scatter', 'ring'], ['reduce', 'ring']] as const) {
      for (const ranks of [8, 16, 32]) {
        const r = { topology: buildTopology(`ring:${ranks}`), collective, algorithm, size: 1 << 20 };
        const s = buildSchedule(r);
        let messages = 0;
        for (let o = 0; o < s.numOps; o++) if (s.opKind[o] === OpKind.Send) messages += s.sendDests(o).length;
        expect(estimateSchedule(r), `${collective} ${algorithm} ${ranks}`).toEqual({ ops: s.numOps, messages });
      }
    }
    // Issue 29: a 32,768-rank ring allreduce (5·32768·32767 + 32768 ops) died of an exhausted heap.
    const big = { topology: buildTopology('fattree:k=32,levels=3'), collective: 'allreduce' as const, algorithm: 'ring', size: 1 << 30 };
    expect(() => runCollectiveFlow(big)).toThrow(/5368578048 schedule ops \(ring, 32768 ranks\).*at most 134217728 schedule ops.*recursive-doubling or rabenseifner/);
  });

  it('estimates undeclared alltoalls as one send and one receive per block; other collectives are not limited', () => {
    expect(knownScheduleSize(req('torus:4x4', 'linear'))).toEqual({ ops: 2 * 16 * 15, messages: 16 * 15 });
    expect(knownScheduleSize(req('torus:32x32x32', 'bruck', 'allgather'))).toBeUndefined();
    // The boundary: 8192 ranks need 2 × 8192 × 8191 = 134,201,344 ops ≤ 2^27 = 134,217,728;
    // 8193 ranks need 2 × 8193 × 8192 = 134,234,112 > 2^27.
    expect(knownScheduleSize(req('ring:8192', 'linear'))?.ops).toBe(134_201_344);
    expect(() => checkFlowCollectiveSize(req('ring:8192', 'linear'))).not.toThrow();
    expect(() => checkFlowCollectiveSize(req('ring:8193', 'linear'))).toThrow(LimitError);
    expect(() => checkFlowCollectiveSize(req('torus:16x16x16', 'pairwise'))).not.toThrow();
  });

  it('refuses more messages in flight at once than MAX_FLOWS_IN_FLIGHT when the flow table would grow past it, naming the limit', () => {
    // Linear alltoall posts every message at once (16 × 15 = 240 on torus:4x4); pairwise keeps one in flight per rank.
    const limited = (algorithm: string, maxFlowsInFlight?: number) =>
      runCollectiveFlow({ ...req('torus:4x4', algorithm), model: { maxFlowsInFlight } as FlowModelOptions });
    expect(() => limited('linear', 100)).toThrow(LimitError);
    expect(() => limited('linear', 100)).toThrow(/^algorithm: got "more than 100 messages in flight at once"; accepted: at most 100 messages in flight at flow level/);
    expect(() => limited('linear', 239)).toThrow(/more than 239 messages in flight/);
    expect(limited('linear', 240).makespan_s).toBe(limited('linear').makespan_s);
    expect(limited('pairwise', 100).makespan_s).toBe(limited('pairwise').makespan_s);
    expect(MAX_FLOWS_IN_FLIGHT).toBe(2 ** 23);
    // Store-and-forward links hold the same limit (their transmissions table grows up to it, then refuses).
    const storeForward = (maxFlowsInFlight?: number) =>
      runCollectiveFlow({ ...req('torus:4x4', 'linear'), model: { sharing: 'store-forward', maxFlowsInFlight } as FlowModelOptions });
    expect(() => storeForward(100)).toThrow(/^algorithm: got "more than 100 messages in flight at once"/);
    expect(storeForward(240).makespan_s).toBe(storeForward().makespan_s);
  });

  it('one refusal layer: simulateCollective at packet level refuses what prepare refuses, with the same line', () => {
    // 16 ranks × 15 blocks × 1 TiB / 32-byte flits: the flit limit (2^26), before any schedule is built.
    const build = { topology: buildTopology('torus:4x4'), collective: 'alltoall' as const, algorithm: 'pairwise', size: 2 ** 40 };
    const line = /^size: got "8246337208320 flits"; accepted: at most 67108864 flits \(2\^26, about 2 GiB, two minutes\) at packet level, counting what 16 ranks must receive in this alltoall in 32-byte flits; time it with --engine flow$/;
    expect(() => simulateCollective(build, { engine: 'packet' })).toThrow(line);
    expect(() => refuseOversized({ topology: build.topology, engine: 'packet', build })).toThrow(line);
    // At flow level the same request is not a flit count: only the schedule-ops estimate applies.
    expect(() => refuseOversized({ topology: build.topology, engine: 'flow', build })).not.toThrow();
  });
});
