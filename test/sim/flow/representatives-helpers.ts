/** What the representatives-only tests (representatives*.test.ts) share: the run, the symmetry record, the equality they assert. */
import { expect } from 'vitest';
import { prepare, runPrepared, type RunRequest } from '../../../src/index.js';
import type { PreparedCollective } from '../../../src/sim/prepare.js';
import type { RunResult } from '../../../src/sim/result.js';

export const relative = (a: number, b: number): number => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(b), 1e-300));

export type SymmetricRun = RunResult & { schedule?: unknown };

/** A prepared collective run with symmetry from one rank (the library-only threshold), as simulate runs it. */
export function runCollective(topology: string, collective: string, algorithm: string, size: number, model: RunRequest['model'] = {}, routing?: RunRequest['routing']): SymmetricRun {
  const p = prepare({ topology, workload: { kind: 'collective', collective, algorithm, size }, model, routing }) as PreparedCollective;
  return runPrepared({ ...p, model: { ...p.model, symmetryMinRanks: 1 } }) as SymmetricRun;
}

export const symmetryOf = (r: RunResult) =>
  r.model.symmetry as { used: boolean; representatives_only?: boolean; order?: number; representatives?: number; reason?: string; representatives_rule?: string };

/**
 * The representatives-only run `rep` equals the quotient extracted from the full program (`auto`)
 * bit for bit, in every field the result derives from the run, and the full engine (`off`) to 1e-9.
 */
export function expectRepresentativesExact(rep: SymmetricRun, auto: SymmetricRun, off: SymmetricRun): void {
  expect(rep.makespan_s).toBe(auto.makespan_s);
  expect(rep.ranks.finish_s).toEqual(auto.ranks.finish_s);
  expect(rep.schedule_bound_s).toBe(auto.schedule_bound_s);
  expect(rep.bound_s).toBe(auto.bound_s);
  expect(rep.stats).toEqual(auto.stats);
  expect(rep.channels).toEqual(auto.channels);
  expect(rep.critical_path).toEqual(auto.critical_path);
  expect(rep.workload).toEqual(auto.workload);
  expect(relative(rep.makespan_s, off.makespan_s)).toBeLessThan(1e-9);
  for (let r = 0; r < rep.ranks.finish_s.length; r++) expect(relative(rep.ranks.finish_s[r], off.ranks.finish_s[r])).toBeLessThan(1e-9);
}
