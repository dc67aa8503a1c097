/**
 * Runs whose buffers do not cover a channel's credit round trip are refused before they are stepped
 * when they cannot finish within the cycle limit (sim/packet/credit-bound.ts): a channel moves at
 * most V × B flits per 2 × latency + 1 cycles. The bound is checked against stepped runs (it never
 * exceeds them, and is within a few per cent on a ring), and the refusal on the formula.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../../src/topology/registry.js';
import { simulateCollective } from '../../../src/sim/simulate.js';
import { creditBoundCycles } from '../../../src/sim/packet/credit-bound.js';
import { buildSchedule } from '../../../src/collectives/index.js';
import { lowerSchedule } from '../../../src/sim/program/from-schedule.js';
import { resolveRouting } from '../../../src/routing/registry.js';
import { packetDeadlockFreeRouting } from '../../../src/routing/up-star-down-star.js';
import { perClass, type PacketConfig } from '../../../src/sim/packet/config.js';
import type { CollectiveKind } from '../../../src/collectives/types.js';

const cases: Array<[string, CollectiveKind, string, number]> = [
  ['ring:8,bw=50GiBps,lat=500ns', 'allreduce', 'ring', 1 << 18],
  ['ring:8,bw=50GiBps,lat=500ns', 'alltoall', 'pairwise', 1 << 15],
  ['fullmesh:8,bw=50GiBps,lat=500ns', 'allgather', 'ring', 1 << 15],
  ['twolevel:leaves=2,hosts=4,spines=2,uplinks=2,bw=50GiBps,lat=200ns', 'alltoall', 'pairwise', 1 << 16],
];

function boundOf(spec: string, collective: CollectiveKind, algorithm: string, size: number, model: Record<string, unknown>) {
  const t = buildTopology(spec);
  const program = lowerSchedule(buildSchedule({ topology: t, collective, algorithm, size }), t);
  const routing = packetDeadlockFreeRouting(t, resolveRouting(t, { engine: 'packet' }));
  const lat = model.channelLatency as PacketConfig['channelLatency'];
  return creditBoundCycles(program, t, routing, { vcs: model.vcs as number, vcBuf: model.vcBuf as number, flitBytes: model.flitBytes as number, latencyCycles: (c) => perClass(lat, t.className(c)) });
}

describe('the credit bound on stepped cycles', () => {
  for (const [spec, collective, algorithm, size] of cases) {
    it(`never above the stepped cycles: ${collective} ${algorithm} on ${spec}`, () => {
      const r = simulateCollective({ topology: buildTopology(spec), collective, algorithm, size }, { engine: 'packet' });
      const stepped = Math.round(r.makespan_s / (r.model.cycleSeconds as number)) - (r.model.cyclesSkipped as number);
      const bound = boundOf(spec, collective, algorithm, size, r.model)!;
      expect(bound.cycles).toBeLessThanOrEqual(stepped);
      // Measured: 1.01 (ring allreduce, allgather on the full mesh), 1.04 (fat tree), 1.53 (pairwise on the ring).
      expect(bound.cycles).toBeGreaterThan(0.6 * stepped);
    });
  }

  it('the formula on the ring allreduce, and the refusal: one line naming the limit and the buffers that would cover it', () => {
    const t = buildTopology('ring:8,bw=50GiBps,lat=500ns');
    const run = simulateCollective({ topology: t, collective: 'allreduce', algorithm: 'ring', size: 1 << 18 }, { engine: 'packet' });
    const bound = boundOf('ring:8,bw=50GiBps,lat=500ns', 'allreduce', 'ring', 1 << 18, run.model)!;
    // 32-byte flits at 50 GiB/s: 0.596 ns cycles, 500 ns = 839 cycles, round trip 1,679; 2 VCs × 16 flits.
    // 14 ring steps of 32,768 B = 1,024 flits on each link: (14 × 1,024 − 14 × 32) × 1,679 / 32.
    expect(bound).toMatchObject({ roundTrip: 1679, buffered: 32, flits: 14 * 1024 });
    expect(bound.cycles).toBe(Math.ceil(((14 * 1024 - 14 * 32) * 1679) / 32));
    const refuse = () => simulateCollective({ topology: t, collective: 'allreduce', algorithm: 'ring', size: 1 << 18 }, { engine: 'packet', packet: { maxCycles: bound.cycles - 1 } });
    expect(refuse).toThrow(`maxCycles: got "${bound.cycles} stepped cycles at least"; accepted: at most ${bound.cycles - 1} stepped cycles of packet simulation`);
    expect(refuse).toThrow('(--vc-buf 840) or --engine flow');
    // Buffers that cover the round trip: no bound, the run is stepped.
    expect(boundOf('ring:8,bw=50GiBps,lat=500ns', 'allreduce', 'ring', 1 << 18, { ...run.model, vcBuf: 840 })).toBeUndefined();
  });
});
