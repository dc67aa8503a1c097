/** What the representatives-only tests (representatives*.test.ts) share: the run, the symmetry record, the equality they assert. */
import { expect } from 'vitest';
import { buildSchedule, OpKind, prepare, runPrepared, type RunRequest } from '../../../src/index.js';
import { declaredRotation, type BuildRequest } from '../../../src/collectives/registry.js';
import { lowerSchedule } from '../../../src/sim/program/from-schedule.js';
import { rotationProgram } from '../../../src/sim/program/from-rotation.js';
import type { FlowProgram } from '../../../src/sim/program/program.js';
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

/** Every op of a program as the engine reads it: kind, bytes, tag, peer (a send's destination, a barrier's key by name), hint by value, non-blocking flag. */
function opView(p: FlowProgram, o: number): unknown[] {
  const kind = p.opKind[o];
  const peer = kind === OpKind.Send ? p.dsts[p.opPeer[o]] : kind === OpKind.Recv ? p.opPeer[o] : kind === OpKind.Barrier ? p.keyNames[p.opPeer[o]] : 0;
  return [kind, p.opBytes[o], p.opTag[o], peer, p.opHint[o] >= 0 ? JSON.stringify(p.hints[p.opHint[o]]) : null, p.opNonBlocking?.[o] ?? 0];
}

/**
 * The algorithm's declaration emitted for every rank equals the lowered schedule, stream for stream
 * and op for op; returns the declaration and the emitted program for further checks.
 */
export function expectDeclaredIsLowered(build: BuildRequest): { decl: NonNullable<ReturnType<typeof declaredRotation>>; declared: FlowProgram } {
  const t = build.topology;
  const n = t.numEndpoints;
  const full = lowerSchedule(buildSchedule(build), t);
  const decl = declaredRotation(build);
  expect(decl).toBeDefined();
  const declared = rotationProgram(t, decl!.streams).emit(Array.from({ length: n }, (_, r) => r));
  expect(decl!.streams.opsPerRank * n).toBe(full.numOps);
  expect(declared.numOps).toBe(full.numOps);
  expect(declared.numStreams).toBe(full.numStreams);
  expect(declared.keyNames).toEqual(full.keyNames);
  for (let s = 0; s < full.numStreams; s++) expect([declared.streamRank[s], declared.streamLocal[s], declared.opStart[s]]).toEqual([full.streamRank[s], full.streamLocal[s], full.opStart[s]]);
  for (let o = 0; o < full.numOps; o++) expect(opView(declared, o)).toEqual(opView(full, o));
  return { decl: decl!, declared };
}
