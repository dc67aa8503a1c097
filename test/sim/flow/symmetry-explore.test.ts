import { it } from 'vitest';
import { buildSchedule, buildTopology, listAlgorithms, simulate, type CollectiveKind } from '../../../src/index.js';
const TOPOLOGIES = ['torus:4x4x4', 'torus:8x8', 'fattree:k=4,levels=3', 'fullmesh:8', 'twolevel:leaves=4,hosts=4', 'hypercube:4', 'ring:8'];
const COLLECTIVES: CollectiveKind[] = ['alltoall', 'allreduce', 'allgather', 'reduce-scatter', 'broadcast', 'barrier'];
it('explore', () => {
  for (const spec of TOPOLOGIES) {
    const t = buildTopology(spec);
    for (const collective of COLLECTIVES) for (const a of listAlgorithms(collective)) {
      let schedule;
      try { schedule = buildSchedule({ collective, algorithm: a.name, topology: t, size: collective === 'barrier' ? 0 : 65536, root: 0 }); } catch { continue; }
      for (const latencyRule of ['on-delivery', 'before-transfer'] as const) {
        const model = latencyRule === 'before-transfer' ? { latencyRule, injectionOrder: 'shared' as const } : {};
        const q = simulate({ topology: t, schedule, model: { ...model, symmetryMinRanks: 1 } });
        const f = simulate({ topology: t, schedule, model: { ...model, symmetry: 'off' } });
        const sym = q.model.symmetry as { used: boolean; reason?: string; order?: number };
        let worst = Math.abs(q.makespan_s - f.makespan_s) / f.makespan_s;
        for (let r = 0; r < f.ranks.finish_s.length; r++) worst = Math.max(worst, Math.abs(q.ranks.finish_s[r] - f.ranks.finish_s[r]) / Math.max(1e-300, f.ranks.finish_s[r]));
        console.log(`${worst > 1e-9 ? 'BAD ' : ''}${spec} ${collective} ${a.name} ${latencyRule}: ${sym.used ? `used order ${sym.order}` : `no: ${sym.reason}`} rel ${worst.toExponential(2)}`);
      }
    }
  }
}, 900000);
