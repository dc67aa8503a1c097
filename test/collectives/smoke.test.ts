import { describe, expect, it } from 'vitest';
import { buildSchedule, executeSchedule, buildTopology, listAlgorithms, COLLECTIVES, InputError } from '../../src/index.js';

describe('smoke', () => {
  it('all', () => {
    for (const c of COLLECTIVES) {
      for (const a of listAlgorithms(c)) {
        for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 12]) {
          const t = buildTopology(`torus:${n}`);
          for (const size of [0, 4, 8, 24, 96]) {
            for (const root of [0, n - 1]) {
              let s;
              try {
                s = buildSchedule({ collective: c, algorithm: a.name, topology: t, size: c === 'reduce-scatter' ? size * n : size, root, peer: n - 1 === root ? 0 : n - 1 });
              } catch (e) {
                // A refusal of an unsupported rank count, topology or size is the contract (exit 2).
                if (e instanceof InputError) continue;
                throw new Error(`${c}/${a.name} n=${n} size=${size}: ${(e as Error).message}`, { cause: e });
              }
              for (const mode of ['bytes', 'chunks'] as const) {
                let r;
                try { r = executeSchedule(s, { mode }); } catch (e) { throw new Error(`${c}/${a.name} n=${n} size=${size} ${mode}: ${(e as Error).message}`, { cause: e }); }
                if (!r.pass) throw new Error(`${c}/${a.name} n=${n} size=${size} root=${root} ${mode}: ${JSON.stringify(r.problems)} ${r.mismatches.map((m) => m.text).join('; ')}`);
              }
              const st = executeSchedule(s, { steps: true });
              if (!st.pass) throw new Error(`steps ${c}/${a.name} n=${n} size=${size}: ${JSON.stringify(st.problems)} ${st.mismatches.map((m) => m.text).join('; ')}`);
            }
          }
        }
      }
    }
    expect(1).toBe(1);
  });
});
