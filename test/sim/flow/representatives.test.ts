/**
 * Issue 29: a ring allreduce or pairwise alltoall timed from its representatives' streams alone
 * (sim/representatives.ts) equals the full engine, and a run that does not qualify is refused at 16,384 ranks as before.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, LimitError, prepare, runPrepared, type RunRequest } from '../../../src/index.js';
import { declaredRotation } from '../../../src/collectives/registry.js';
import { refuseOversized } from '../../../src/sim/prepare.js';
import { runCli } from '../../helpers/cli.js';
import { expectDeclaredIsLowered, expectRepresentativesExact, relative, runCollective, symmetryOf, type SymmetricRun } from './representatives-helpers.js';


/** A prepared ring allreduce run with symmetry from one rank (the library-only threshold), as simulate runs it. */
function ring(topology: string, size: number, model: RunRequest['model'] = {}, collective = 'allreduce', algorithm = 'ring'): SymmetricRun {
  return runCollective(topology, collective, algorithm, size, model);
}

describe('the ring allreduce declares its rotation', () => {
  for (const [collective, algorithm] of [['allreduce', 'ring'], ['allgather', 'ring'], ['allgather', 'ring:order=shift'], ['reduce-scatter', 'ring']] as const) {
    it(`${collective} ${algorithm}: every rank's declared ops are its lowered stream's, op for op (kinds, peers, bytes, tags)`, () => {
      const t = buildTopology('torus:4x4');
      const build = { topology: t, collective, algorithm, size: 64 * 1024 };
      expectDeclaredIsLowered(build);
    });
  }

  for (const [topology, algorithm, action] of [
    ['torus:4x4', 'pairwise', 'xor'],
    ['torus:4x4', 'pairwise:order=shift', 'rotation'],
    ['torus:3x4', 'pairwise', 'rotation'],
    ['torus:4x3x2', 'pairwise:order=coords', 'translation'],
  ] as const) {
    it(`alltoall ${algorithm} on ${topology} declares ${action}: every rank's declared ops are its lowered stream's, op for op`, () => {
      const t = buildTopology(topology);
      const build = { topology: t, collective: 'alltoall' as const, algorithm, size: 4096 };
      const { decl } = expectDeclaredIsLowered(build);
      const declared = decl.streams.action ?? 'rotation';
      expect(typeof declared === 'string' ? declared : 'translation').toBe(action);
    });
  }

  it('pairwise in place declares nothing (its slots are not every rank\'s alike)', () => {
    expect(declaredRotation({ topology: buildTopology('torus:4x4'), collective: 'alltoall', algorithm: 'pairwise:buffers=inplace', size: 4096 })).toBeUndefined();
  });

  it('declares nothing when the segments are unequal (size not a multiple of ranks × element)', () => {
    const t = buildTopology('torus:4x4');
    expect(declaredRotation({ topology: t, collective: 'allreduce', algorithm: 'ring', size: 64 * 1024 + 4 })).toBeUndefined();
  });
});

describe('representatives alone equal the full engine', () => {
  for (const [topology, collective, algorithm] of [
    ['fattree:k=16,levels=2', 'allreduce', 'ring'],
    ['torus:16x16', 'allreduce', 'ring'],
    ['fattree:k=16,levels=2', 'allgather', 'ring'],
    ['fattree:k=16,levels=2', 'allgather', 'ring:order=shift'],
    ['torus:16x16', 'reduce-scatter', 'ring'],
    // The accelerator fabrics: H is the node rotations (node+1 along single-switch rails; leaf+1 under leaf-spine).
    ['hgx-h100:nodes=32', 'allreduce', 'ring'],
    ['fabric:gpus=8,nodes=32,rail=leafspine,leafhosts=8,spines=8', 'allreduce', 'ring'],
  ]) {
    it(`${collective} ${algorithm} on ${topology}: makespan, every rank's finish, the schedule bound and bound_s to 1e-9`, () => {
      const size = collective === 'allgather' ? 4096 : 1 << 20;
      const rep = ring(topology, size, { symmetry: 'representatives' }, collective, algorithm);
      const off = ring(topology, size, { symmetry: 'off' }, collective, algorithm);
      const sym = symmetryOf(rep);
      expect(sym.used).toBe(true);
      expect(sym.representatives_only).toBe(true);
      expect(rep.schedule).toBeUndefined();
      expect(relative(rep.makespan_s, off.makespan_s)).toBeLessThan(1e-9);
      expect(relative(rep.schedule_bound_s!, off.schedule_bound_s!)).toBeLessThan(1e-9);
      expect(relative(rep.bound_s, off.bound_s)).toBeLessThan(1e-9);
      expect(rep.ranks.finish_s.length).toBe(256);
      for (let r = 0; r < 256; r++) expect(relative(rep.ranks.finish_s[r], off.ranks.finish_s[r])).toBeLessThan(1e-9);
      expect(rep.workload).toEqual(off.workload);
      expect(rep.stats.messages).toBe(off.stats.messages);
      expect(rep.channels.total_bytes).toBeCloseTo(off.channels.total_bytes, 0);
      expect(rep.critical_path.length).toBe(off.critical_path.length);
    });
  }

  // Pairwise alltoall declares XOR (its default order on 2^k ranks) or rotation (shift order): the
  // quotient it emits is the one the full path extracts, so the run is the same bit for bit.
  for (const [topology, algorithm] of [
    ['torus:16x16', 'pairwise'],
    ['torus:16x16', 'pairwise:order=shift'],
    ['fattree:k=8,levels=2', 'pairwise'],
    ['torus:4x4x4', 'pairwise'],
    ['torus:4x4x4', 'pairwise:order=coords'],
    ['torus:6x4', 'pairwise:order=coords'],
    ['hgx-h100:nodes=8', 'pairwise'],
  ] as const) {
    it(`alltoall ${algorithm} on ${topology}: equal to the full quotient bit for bit and to the full engine to 1e-9`, () => {
      const rep = ring(topology, 1 << 16, { symmetry: 'representatives' }, 'alltoall', algorithm);
      const auto = ring(topology, 1 << 16, {}, 'alltoall', algorithm);
      const off = ring(topology, 1 << 16, { symmetry: 'off' }, 'alltoall', algorithm);
      const sym = symmetryOf(rep);
      expect(sym).toMatchObject({ used: true, representatives_only: true });
      expect(symmetryOf(auto).representatives_only).toBeUndefined();
      expect(sym.order).toBe(symmetryOf(auto).order);
      expect(sym.order).toBeGreaterThan(1);
      expectRepresentativesExact(rep, auto, off);
      expect(rep.workload).toEqual(off.workload);
    });
  }

  it('auto takes the path only from REPRESENTATIVES_AUTO_OPS schedule ops: below it the schedule is built', () => {
    const auto = ring('torus:16x16', 1 << 20);
    expect(symmetryOf(auto).used).toBe(true);
    expect(symmetryOf(auto).representatives_only).toBeUndefined();
    expect(auto.schedule).toBeDefined();
  });

  it('unequal segments run the normal path even when representatives are asked for', () => {
    const r = ring('torus:16x16', (1 << 20) + 4, { symmetry: 'representatives' });
    expect(symmetryOf(r).representatives_only).toBeUndefined();
    expect(r.schedule).toBeDefined();
  });
});

describe('16,384 ranks: refused unless the representative-only path is taken', () => {
  const topology = 'fattree:k=128,levels=2';
  const t = buildTopology(topology);
  const workload = { kind: 'collective' as const, collective: 'allreduce', algorithm: 'ring', size: 1 << 30 };
  // The line today's refusal gives (prepare's refuseOversized), whatever makes the run not qualify.
  let line = '';
  try {
    refuseOversized({ topology: t, engine: 'flow', build: { topology: t, collective: 'allreduce', algorithm: 'ring', size: 1 << 30 } });
  } catch (e) {
    line = (e as Error).message;
  }

  it('the refusal names the op limit', () => {
    expect(line).toMatch(/134217728 schedule ops/);
  });

  for (const [label, extra] of [
    ['noise', { noise: { jitter: 1e-6, seed: 1 } }],
    ['a rank mapping', { mapping: 'reverse' }],
    ['symmetry off', { model: { symmetry: 'off' } }],
  ] as const) {
    it(`${label}: refused by prepare with the same line`, () => {
      expect(() => prepare({ topology, workload, ...extra } as RunRequest)).toThrow(LimitError);
      expect(() => prepare({ topology, workload, ...extra } as RunRequest)).toThrow(line);
    });
  }

  it('a candidate the run finds not qualifying (rate update local) is refused by the run with the same line, before building', () => {
    const p = prepare({ topology, workload, model: { rateUpdate: 'local' } });
    expect(() => runPrepared(p)).toThrow(LimitError);
    expect(() => runPrepared(p)).toThrow(line);
  });
});

describe('32,768 ranks: the representatives alone would be too many', () => {
  it('fattree:k=32,levels=3 (1,024 representatives × 163,831 ops > MAX_REPRESENTATIVE_OPS): refused with the op limit line', () => {
    expect(() => runPrepared(prepare({ topology: 'fattree:k=32,levels=3', workload: { kind: 'collective', collective: 'allreduce', algorithm: 'ring', size: 1 << 30 } }))).toThrow(/134217728 schedule ops/);
  });
});

describe('meshwork run (built CLI)', () => {
  it('pairwise alltoall on a 4,096-host fat tree (33.5 M schedule ops, over REPRESENTATIVES_AUTO_OPS): auto times its one representative alone, same makespan as the full path', () => {
    const r = JSON.parse(runCli(['run', '--topology', 'fattree:k=16,levels=3', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1MiB', '--json']).stdout);
    expect(r.model.symmetry).toMatchObject({ mode: 'auto', used: true, representatives_only: true, order: 4096, representatives: 1 });
    expect(r.model.symmetry.representatives_rule).toMatch(/XORed with the rank/);
    // The full path's makespan (main before the declaration: the schedule built, lowered and checked; 11.3 CPU s).
    expect(r.makespan_s).toBe(1.3805519903998498);
    expect(r.stats.messages).toBe(4096 * 4095);
  });

  it('pairwise:order=coords on a 16³ torus (4,096 ranks, 16.8 M messages): one representative, and the makespan of its closed form', () => {
    const r = JSON.parse(runCli(['run', '--topology', 'torus:16x16x16', '--collective', 'alltoall', '--algorithm', 'pairwise:order=coords', '--size', '1MiB', '--json']).stdout);
    expect(r.model.symmetry).toMatchObject({ mode: 'auto', used: true, representatives_only: true, order: 4096, representatives: 1 });
    expect(r.stats.messages).toBe(4096 * 4095);
    // Step k moves every rank by k's coordinates (a, b, c), each routed the short way (h hops per
    // axis, dimension order), so every link of an axis carries h(axis) of the step's flows and each
    // flow gets B / max h; the steps follow one another (a rank's sendrecv waits for both halves,
    // which finish together by symmetry). Makespan = Σ_k (S · max h / B + α + Σ h · link latency).
    const h = (d: number) => Math.min(d, 16 - d);
    let expected = 0;
    for (let k = 1; k < 4096; k++) {
      const hops = [k % 16, (k >> 4) % 16, k >> 8].map(h);
      expected += (1048576 * Math.max(...hops)) / r.topology.params.bandwidth + r.model.alpha + hops.reduce((a, b) => a + b, 0) * r.topology.params.latency;
    }
    expect(relative(r.makespan_s, expected)).toBeLessThan(1e-9);
  });

  // 1,024 ranks: the CLI's symmetry threshold (equality with the full engine is tested above, at 256).
  const args = ['run', '--topology', 'fattree:k=32,levels=2', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1MiB'];
  it('--symmetry representatives records the path and prints the text summary from the workload record', () => {
    const rep = JSON.parse(runCli([...args, '--symmetry', 'representatives', '--json']).stdout);
    expect(rep.model.symmetry).toMatchObject({ used: true, representatives_only: true, order: 32, representatives: 32 });
    expect(rep.stats.messages).toBe(2 * 1024 * 1023);
    const text = runCli([...args, '--symmetry', 'representatives']).stdout;
    expect(text).toMatch(/collective\s+allreduce, algorithm ring/);
  });
});
