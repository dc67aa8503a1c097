import { describe, expect, it } from 'vitest';
import { buildSchedule, executeSchedule, buildTopology } from '../../src/index.js';

describe('smoke', () => {
  it('pairwise', () => {
    for (const shape of ['4', '5', '8']) {
      const t = buildTopology(`torus:${shape}`);
      for (const alg of ['pairwise', 'linear']) {
        const s = buildSchedule({ collective: 'alltoall', algorithm: alg, topology: t, size: 3 });
        const r = executeSchedule(s);
        expect(r.problems).toEqual([]);
        expect(r.mismatches).toEqual([]);
        expect(r.pass).toBe(true);
        const st = executeSchedule(s, { steps: true });
        expect(st.pass).toBe(true);
        console.log(alg, shape, st.steps?.steps, r.stats.peakBytes[0], r.messages);
      }
    }
  });
});
