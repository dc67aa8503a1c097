/**
 * Issue 29: seed 000's hop-grouped alltoall, its per-step-barrier comparison (FIG. 9) and the
 * dimension-ordered alltoall declare their translation symmetry on a torus (axis-phases.ts
 * `axisPhaseDeclaration`, per-step-barrier.ts), with several streams, barriers, paces and path hints, so the run is timed from its representatives' streams alone
 * (sim/representatives.ts): the declared ops are the lowered schedule's, and the run equals the
 * full quotient bit for bit and the full engine to 1e-9.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, OpKind, type RunRequest } from '../../../src/index.js';
import { declaredRotation, estimateSchedule } from '../../../src/collectives/registry.js';
import { runCli } from '../../helpers/cli.js';
import { expectDeclaredIsLowered, expectRepresentativesExact, relative, runCollective, symmetryOf, type SymmetricRun } from './representatives-helpers.js';


/** A prepared alltoall run with symmetry from one rank (the library-only threshold), as simulate runs it. */
function alltoall(topology: string, algorithm: string, size: number, model: RunRequest['model'] = {}, routing?: RunRequest['routing']): SymmetricRun {
  return runCollective(topology, 'alltoall', algorithm, size, model, routing);
}


describe('axis-phase alltoalls declare their translations on a torus', () => {
  for (const [topology, algorithm, streams] of [
    ['torus:4x4x4', 'hop-grouped', 3],
    ['torus:4x4x4', 'hop-grouped:areas=2n', 6],
    ['torus:4x4x4', 'hop-grouped:streams=sequential,final-barrier=true', 1],
    ['torus:3x5', 'hop-grouped', 1],
    ['torus:4x6', 'hop-grouped:dir=shortest,pacing=off', 1],
    ['torus:3x4x5', 'hop-grouped:dir=shortest', 3],
    ['torus:4x6', 'dimension-ordered', 1],
    ['torus:2x4', 'hop-grouped', 1],
    ['torus:4x4x4', 'per-step-barrier', 1],
    ['torus:3x5', 'per-step-barrier:dir=shortest,gap=hops', 1],
    ['torus:4x6', 'per-step-barrier:pacing=off', 1],
  ] as const) {
    it(`${algorithm} on ${topology}: every rank's declared ops are its lowered streams', op for op (kinds, bytes, tags, peers, port walks, barrier groups)`, () => {
      const t = buildTopology(topology);
      // 1000 B: pieces of unequal length when a block is split in 3 or 6 areas.
      const build = { topology: t, collective: 'alltoall' as const, algorithm, size: 1000 };
      const { decl, declared: q } = expectDeclaredIsLowered(build);
      expect(decl.streams.action).toEqual({ translation: (t.params as { dims: number[] }).dims });
      expect(decl.streams.streamsPerRank ?? 1).toBe(streams);
      // The declared program holds the hop-grouped sends' port walks, as the lowering does (no node paths).
      if (algorithm !== 'dimension-ordered') expect(q.hints.length).toBeGreaterThan(0);
      expect(q.hints.every((h) => h.kind === 'ports')).toBe(true);
    });
  }

  for (const [topology, algorithm, why] of [
    ['mesh:4x4', 'hop-grouped:dir=shortest', 'a mesh: its edges cut the hop groups short, no translation maps it onto itself'],
    ['mesh:4x4', 'dimension-ordered', 'a mesh'],
    ['torus:4x4', 'hop-grouped:buffers=inplace', 'in place: the executor must see the hazard, so the schedule is built and checked'],
  ] as const) {
    it(`${algorithm} on ${topology} declares nothing (${why})`, () => {
      expect(declaredRotation({ topology: buildTopology(topology), collective: 'alltoall', algorithm, size: 4096 })).toBeUndefined();
    });
  }
});

describe('per-step-barrier declares its size', () => {
  it('the estimate equals the built schedule (with and without pacing)', () => {
    for (const [topology, algorithm] of [['torus:4x4x4', 'per-step-barrier'], ['torus:3x5', 'per-step-barrier:pacing=off'], ['torus:2x2', 'per-step-barrier']]) {
      const build = { topology: buildTopology(topology), collective: 'alltoall' as const, algorithm, size: 64 };
      const s = buildSchedule(build);
      let messages = 0;
      for (let o = 0; o < s.numOps; o++) if (s.opKind[o] === OpKind.Send) messages += s.sendDests(o).length;
      expect(estimateSchedule(build), `${topology} ${algorithm}`).toEqual({ ops: s.numOps, messages });
    }
  });
});

describe('hop-grouped from its representatives alone equals the full engine', () => {
  for (const [topology, algorithm, order, reps] of [
    ['torus:8x8x8', 'hop-grouped', 512, 1],
    ['torus:16x16', 'hop-grouped', 256, 1],
    ['torus:6x6x6', 'hop-grouped:dir=shortest', 216, 1],
    ['torus:4x4x4', 'hop-grouped:areas=2n', 64, 1],
    ['torus:4x4x4', 'hop-grouped:streams=sequential,final-barrier=true', 64, 1],
    ['torus:16x16', 'dimension-ordered', 256, 1],
    ['torus:8x8', 'per-step-barrier', 64, 1],
    ['torus:4x4x4', 'per-step-barrier:dir=shortest', 64, 1],
  ] as const) {
    it(`${algorithm} on ${topology}: equal to the full quotient bit for bit and to the full engine to 1e-9`, () => {
      const rep = alltoall(topology, algorithm, 1 << 16, { symmetry: 'representatives' });
      const auto = alltoall(topology, algorithm, 1 << 16);
      const off = alltoall(topology, algorithm, 1 << 16, { symmetry: 'off' });
      const sym = symmetryOf(rep);
      expect(sym).toMatchObject({ used: true, representatives_only: true, order, representatives: reps });
      expect(sym.representatives_rule).toMatch(/translated with the rank/);
      expect(rep.schedule).toBeUndefined();
      expect(symmetryOf(auto)).toMatchObject({ used: true, order });
      expect(symmetryOf(auto).representatives_only).toBeUndefined();
      expectRepresentativesExact(rep, auto, off);
      expect(rep.stats.messages).toBe(off.stats.messages);
    });
  }

  // Split ties route half of each tied flow (offset k/2, no path hint) each way: two flows per
  // send, both of whose images the route check follows.
  for (const algorithm of ['dimension-ordered', 'hop-grouped:dir=shortest']) {
    it(`${algorithm} on torus:4x4x4 with split ties: equal to the full quotient bit for bit`, () => {
      const rep = alltoall('torus:4x4x4', algorithm, 1 << 16, { symmetry: 'representatives' }, { tie: 'split' });
      const auto = alltoall('torus:4x4x4', algorithm, 1 << 16, {}, { tie: 'split' });
      const off = alltoall('torus:4x4x4', algorithm, 1 << 16, { symmetry: 'off' }, { tie: 'split' });
      expect(symmetryOf(rep)).toMatchObject({ used: true, representatives_only: true, order: 64 });
      expect(rep.routing.name).toMatch(/split-halves/);
      expect(rep.makespan_s).toBe(auto.makespan_s);
      expect(rep.channels).toEqual(auto.channels);
      expect(relative(rep.makespan_s, off.makespan_s)).toBeLessThan(1e-9);
    });
  }

  it('on a mesh representatives are asked for but the schedule is built (no declaration)', () => {
    const r = alltoall('mesh:8x8', 'hop-grouped:dir=shortest', 1 << 16, { symmetry: 'representatives' });
    expect(symmetryOf(r).representatives_only).toBeUndefined();
    expect(r.schedule).toBeDefined();
  });

  it('a linear barrier (rooted at the lowest rank) is no quotient: the schedule is built', () => {
    const r = alltoall('torus:4x4', 'hop-grouped', 1 << 16, { symmetry: 'representatives', barrier: 'linear' });
    expect(symmetryOf(r).representatives_only).toBeUndefined();
    expect(r.schedule).toBeDefined();
  });
});

describe('meshwork run (built CLI)', () => {
  it('hop-grouped alltoall on torus:16x16x16 with --symmetry representatives: one representative, main\'s makespan', () => {
    const r = JSON.parse(runCli(['run', '--topology', 'torus:16x16x16', '--collective', 'alltoall', '--algorithm', 'hop-grouped', '--size', '1MiB', '--symmetry', 'representatives', '--json']).stdout);
    expect(r.model.symmetry).toMatchObject({ mode: 'representatives', used: true, representatives_only: true, order: 4096, representatives: 1 });
    // main before the declaration (5e057a5: the schedule built, lowered and checked, then the full quotient).
    expect(r.makespan_s).toBe(10.30860297119999);
    expect(r.stats.messages).toBe(552960);
    expect(r.workload).toMatchObject({ algorithm: 'hop-grouped', ranks: 4096, streams: 3 });
  });

  it('per-step-barrier on torus:16x16x16 (67 M schedule ops, over REPRESENTATIVES_AUTO_OPS): auto times its one representative alone, main\'s makespan', () => {
    const r = JSON.parse(runCli(['run', '--topology', 'torus:16x16x16', '--collective', 'alltoall', '--algorithm', 'per-step-barrier', '--size', '1MiB', '--json']).stdout);
    expect(r.model.symmetry).toMatchObject({ mode: 'auto', used: true, representatives_only: true, order: 4096, representatives: 1 });
    // main (5e057a5) built, lowered and checked the schedule: 107 CPU s and 6.6 GiB for this number.
    expect(r.makespan_s).toBe(15.851356612797826);
    expect(r.stats.messages).toBe(4096 * 4095);
  });
});
