/**
 * The exact rate update by components (rateUpdate 'exact', issue 29) against the full re-solve of
 * every active flow after each batch (rateUpdate 'full', the update 'exact' was before): the same
 * makespans and finish times to 1e-9 relative on every case of the agreement matrix
 * (test/sim/program/agreement.test.ts's topologies, collectives and algorithms), under each NIC model
 * and SimGrid's model choices (shared injection, latency before transfer, CM02 weights).
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, listAlgorithms, simulate, type CollectiveKind, type FlowModelOptions } from '../../../src/index.js';

const TOPOLOGIES = ['torus:4x4,bw=25Gbps,lat=100ns', 'twolevel:leaves=4,hosts=4,bw=25Gbps,lat=100ns', 'fullmesh:8,bw=25Gbps,lat=100ns', 'dragonfly:h=2', 'fattree:k=4,levels=2,taper=2'];
const COLLECTIVES: CollectiveKind[] = ['alltoall', 'broadcast', 'reduce', 'allreduce', 'scatter', 'gather', 'allgather', 'reduce-scatter', 'one-to-one', 'barrier'];
const SIZE: Partial<Record<CollectiveKind, number>> = { alltoall: 16384, allgather: 16384, barrier: 0 };
const MODELS: Record<string, FlowModelOptions> = {
  default: {},
  'per-destination': { injectionOrder: 'per-destination', injectionBandwidth: 10e9 },
  simgrid: { injectionOrder: 'shared', latencyRule: 'before-transfer', sharing: 'cm02' },
};

function relative(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
}

describe("rate update 'exact' by components equals the full re-solve", () => {
  for (const spec of TOPOLOGIES) {
    for (const [modelName, model] of Object.entries(MODELS)) {
      it(`${spec}, ${modelName} model: every algorithm's makespan and rank finish times to 1e-9`, () => {
        const t = buildTopology(spec);
        let compared = 0;
        for (const collective of COLLECTIVES) {
          for (const a of listAlgorithms(collective)) {
            let schedule;
            try {
              schedule = buildSchedule({ collective, algorithm: a.name, topology: t, size: SIZE[collective] ?? 65536, root: 0, peer: 1 });
            } catch {
              continue; // the algorithm does not apply to this topology
            }
            const run = (rateUpdate: 'exact' | 'full') => simulate({ topology: t, schedule, model: { ...model, rateUpdate } });
            const fast = run('exact');
            const full = run('full');
            const label = `${collective} ${a.name}`;
            expect(relative(fast.makespan_s, full.makespan_s), label).toBeLessThanOrEqual(1e-9);
            const rf = fast.raw!.rankFinish;
            const rb = full.raw!.rankFinish;
            for (let r = 0; r < rb.length; r++) expect(relative(rf[r], rb[r]), `${label} rank ${r}`).toBeLessThanOrEqual(1e-9);
            expect(fast.model.rateUpdate).toBe('exact');
            compared++;
          }
        }
        expect(compared).toBeGreaterThan(10);
      }, 600_000); // every registered algorithm twice, collective-library ones included: minutes on a loaded machine
    }
  }

  it('pairwise alltoall on torus:6x6x6 at 64 KiB: the same makespan bit for bit (lazily kept bytes left drifted to 17.61 against 17.81 ms)', () => {
    const t = buildTopology('torus:6x6x6');
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology: t, size: 65536 });
    const fast = simulate({ topology: t, schedule, model: { rateUpdate: 'exact' } });
    const full = simulate({ topology: t, schedule, model: { rateUpdate: 'full' } });
    expect(fast.makespan_s).toBe(full.makespan_s);
    expect(fast.raw!.stats.solverWork).toBeLessThan(full.raw!.stats.solverWork);
  });

  it('re-solves fewer path entries than the full update where flows finish apart (recursive doubling on a dragonfly)', () => {
    const t = buildTopology('dragonfly:h=2');
    const schedule = buildSchedule({ collective: 'allreduce', algorithm: 'recursive-doubling', topology: t, size: 1 << 20 });
    const fast = simulate({ topology: t, schedule, model: { rateUpdate: 'exact' } });
    const full = simulate({ topology: t, schedule, model: { rateUpdate: 'full' } });
    expect(relative(fast.makespan_s, full.makespan_s)).toBeLessThanOrEqual(1e-9);
    expect(fast.raw!.stats.solverWork).toBeLessThan(full.raw!.stats.solverWork / 2);
  });
});
