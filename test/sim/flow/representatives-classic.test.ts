/**
 * Issue 29: recursive doubling (allreduce on a power of two, allgather) declares its XOR symmetry,
 * Bruck (allgather, alltoall), the ring and linear alltoalls and the pairwise reduce-scatter their
 * rank rotation, so
 * `--symmetry representatives` times them from their representatives' streams alone
 * (sim/representatives.ts): the declared ops are the lowered schedule's, and the run equals the
 * full quotient bit for bit and the full engine to 1e-9.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, OpKind } from '../../../src/index.js';
import { declaredRotation, estimateSchedule } from '../../../src/collectives/registry.js';
import { runCli } from '../../helpers/cli.js';
import { expectDeclaredIsLowered, expectRepresentativesExact, runCollective, symmetryOf } from './representatives-helpers.js';

const run = runCollective;


// [collective, algorithm, its action, a size whose blocks or segments are whole elements]
const DECLARING = [
  ['allreduce', 'recursive-doubling', 'xor', 1 << 16],
  ['allreduce', 'rabenseifner', 'xor', 1 << 16],
  ['allreduce', 'rabenseifner:order=near-first', 'xor', 1 << 16],
  ['allgather', 'recursive-doubling', 'xor', 4096],
  ['allgather', 'bruck', 'rotation', 4096],
  ['alltoall', 'bruck', 'rotation', 4096],
  ['alltoall', 'ring', 'rotation', 4096],
  ['alltoall', 'linear', 'rotation', 4096],
  ['alltoall', 'linear:sends=reverse', 'rotation', 4096],
  ['barrier', 'dissemination', 'rotation', 0],
  // 64,512 B: a multiple of 4 × 24, 4 × 21 and 4 × 64 (equal int32 blocks on every topology below).
  ['reduce-scatter', 'pairwise', 'rotation', 64512],
] as const;

describe('recursive doubling, Bruck and pairwise reduce-scatter declare their symmetry', () => {
  for (const [collective, algorithm, action] of DECLARING) {
    for (const topology of action === 'xor' ? ['torus:4x4', 'hypercube:3'] : ['torus:4x4', 'ring:12', 'ring:7']) {
      it(`${collective} ${algorithm} on ${topology}: every rank's declared ops are its lowered stream's, op for op`, () => {
        const t = buildTopology(topology);
        const n = t.numEndpoints;
        // 3 × 4 × ranks bytes: whole int32 elements, equal reduce-scatter blocks, odd multiples where it matters.
        const build = { topology: t, collective, algorithm, size: 12 * n };
        const { decl } = expectDeclaredIsLowered(build);
        expect(decl.streams.action ?? 'rotation').toBe(action);
      });
    }
  }

  it('bruck alltoall declares its size: the estimate equals the built schedule (any rank count)', () => {
    for (const topology of ['ring:7', 'torus:4x4', 'ring:12', 'torus:3x5x2']) {
      const build = { topology: buildTopology(topology), collective: 'alltoall' as const, algorithm: 'bruck', size: 64 };
      const s = buildSchedule(build);
      let messages = 0;
      for (let o = 0; o < s.numOps; o++) if (s.opKind[o] === OpKind.Send) messages += s.sendDests(o).length;
      expect(estimateSchedule(build), topology).toEqual({ ops: s.numOps, messages });
    }
  });

  it('on ring:20 the shortest-path tie at distance 10 goes the lowest way, not equivariant: the route check refuses, the schedule is built', () => {
    const r = run('ring:20', 'reduce-scatter', 'pairwise', 64000, { symmetry: 'representatives' });
    expect(symmetryOf(r)).toMatchObject({ used: false });
    expect((r.model.symmetry as { reason: string }).reason).toMatch(/not equivariant under r\+1/);
    expect(r.schedule).toBeDefined();
  });

  it('rabenseifner declares nothing with unequal segments or on 12 ranks (the fold)', () => {
    expect(declaredRotation({ topology: buildTopology('torus:4x4'), collective: 'allreduce', algorithm: 'rabenseifner', size: (1 << 16) + 4 })).toBeUndefined();
    expect(declaredRotation({ topology: buildTopology('torus:3x4'), collective: 'allreduce', algorithm: 'rabenseifner', size: 1 << 16 })).toBeUndefined();
  });

  it('recursive-doubling allreduce on 12 ranks declares nothing (the fold of the extra ranks is not symmetric)', () => {
    expect(declaredRotation({ topology: buildTopology('torus:3x4'), collective: 'allreduce', algorithm: 'recursive-doubling', size: 1 << 16 })).toBeUndefined();
    const r = run('torus:3x4', 'allreduce', 'recursive-doubling', 1 << 16, { symmetry: 'representatives' });
    expect(symmetryOf(r).representatives_only).toBeUndefined();
    expect(r.schedule).toBeDefined();
  });
});

describe('from their representatives alone equal to the full engine', () => {
  for (const [collective, algorithm, action, size] of DECLARING) {
    for (const topology of action === 'xor' ? ['hypercube:6', 'fattree:k=8,levels=2', 'torus:8x8'] : ['fullmesh:24', 'torus:8x8', 'ring:21']) {
      it(`${collective} ${algorithm} on ${topology}: the full quotient bit for bit, the full engine to 1e-9`, () => {
        const rep = run(topology, collective, algorithm, size, { symmetry: 'representatives' });
        const auto = run(topology, collective, algorithm, size);
        const off = run(topology, collective, algorithm, size, { symmetry: 'off' });
        const sym = symmetryOf(rep);
        expect(sym).toMatchObject({ used: true, representatives_only: true });
        expect(sym.representatives_rule).toMatch(action === 'xor' ? /XORed with the rank/ : /rank-rotation/);
        expect(rep.schedule).toBeUndefined();
        expect(symmetryOf(auto).representatives_only).toBeUndefined();
        expect(sym.order).toBe(symmetryOf(auto).order);
        expect(sym.order).toBeGreaterThan(1);
        expectRepresentativesExact(rep, auto, off);
      });
    }
  }
});

describe('meshwork run (built CLI)', () => {
  it('recursive-doubling allreduce on a 4,096-host fat tree with --symmetry representatives: one representative, main\'s makespan', () => {
    const r = JSON.parse(runCli(['run', '--topology', 'fattree:k=16,levels=3', '--collective', 'allreduce', '--algorithm', 'recursive-doubling', '--size', '1MiB', '--symmetry', 'representatives', '--json']).stdout);
    expect(r.model.symmetry).toMatchObject({ mode: 'representatives', used: true, representatives_only: true, order: 4096, representatives: 1 });
    // main before the declaration (5e057a5: the schedule built and lowered, then the full quotient).
    expect(r.makespan_s).toBe(0.00404333184);
    expect(r.stats.messages).toBe(4096 * 12);
  });
});
