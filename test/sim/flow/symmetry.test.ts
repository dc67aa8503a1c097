/**
 * Symmetry at flow level (issue 29, sim/flow/symmetry.ts): the quotient run (one representative
 * rank per orbit of the largest subgroup of the topology's declared automorphisms the run is
 * equivariant under) against the full engine (`symmetry: 'off'`): makespan, every rank's finish
 * time, every channel's bytes and the throughput series equal to 1e-9 relative, for every registered algorithm of the
 * symmetric collectives on a 3-D and a 2-D torus, a fat tree, a full mesh, a hypercube, a
 * two-level network and three accelerator fabrics, under both latency rules. The cases where symmetry is used are counted and
 * the expected algorithms named, so a quotient that silently stopped applying fails too. Asymmetric
 * runs (noise, a failed link, a random mapping, a rooted collective) fall back and say why.
 */
import { describe, expect, it } from 'vitest';
import { applyFailures, applyHostList, applyMapping, buildSchedule, buildTopology, listAlgorithms, parseFailures, simulate, type CollectiveKind, type FlowModelOptions, type Topology } from '../../../src/index.js';
import { automorphismGroups } from '../../../src/topology/automorphisms.js';
import { opTimesOf } from '../../../src/sim/assemble.js';

// The fabrics: NVSwitch nodes on single-switch rails, an xGMI full mesh, and leaf-spine rails.
const FABRICS = ['hgx-h100:nodes=4', 'mi300x:nodes=4', 'fabric:gpus=4,nodes=8,nics=4,rail=leafspine,leafhosts=4,spines=4'];
const FABRIC_EXPECTED = ['alltoall pairwise', 'alltoall linear', 'allreduce ring', 'allreduce recursive-doubling', 'allreduce rabenseifner', 'allgather ring', 'reduce-scatter ring'];
const TOPOLOGIES = ['torus:4x4x4', 'torus:8x8', 'fattree:k=4,levels=3', 'fullmesh:8', 'hypercube:4', 'twolevel:leaves=4,hosts=4', ...FABRICS];
const COLLECTIVES: CollectiveKind[] = ['alltoall', 'allreduce', 'allgather', 'reduce-scatter', 'barrier'];
const LATENCY: Record<string, FlowModelOptions> = {
  'on-delivery': {},
  'before-transfer': { latencyRule: 'before-transfer', injectionOrder: 'shared' },
};

interface SymmetryField {
  used: boolean;
  reason?: string;
  order?: number;
  representatives?: number;
}

const relative = (a: number, b: number): number => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(b), 1e-300));

function compare(t: Topology, schedule: ReturnType<typeof buildSchedule>, model: FlowModelOptions, label: string): SymmetryField {
  const quotient = simulate({ topology: t, schedule, model: { ...model, symmetryMinRanks: 1 } });
  const full = simulate({ topology: t, schedule, model: { ...model, symmetry: 'off' } });
  const sym = quotient.model.symmetry as SymmetryField;
  expect((full.model.symmetry as SymmetryField).used, label).toBe(false);
  expect(relative(quotient.makespan_s, full.makespan_s), label).toBeLessThanOrEqual(1e-9);
  expect(relative(quotient.schedule_bound_s ?? 0, full.schedule_bound_s ?? 0), `${label} schedule bound`).toBeLessThanOrEqual(1e-9);
  const qf = quotient.ranks.finish_s;
  const ff = full.ranks.finish_s;
  expect(qf.length).toBe(ff.length);
  for (let r = 0; r < ff.length; r++) expect(relative(qf[r], ff[r]), `${label} rank ${r}`).toBeLessThanOrEqual(1e-9);
  const qb = quotient.raw!.channelBytes;
  const fb = full.raw!.channelBytes;
  for (let c = 0; c < fb.length; c++) expect(Math.abs(qb[c] - fb[c]), `${label} channel ${c}`).toBeLessThanOrEqual(1e-9 * Math.max(1, fb[c]));
  // Every op's start and end (each a representative's op at the same place in its stream).
  const qt = opTimesOf(quotient);
  const ft = opTimesOf(full);
  expect(qt.end.length).toBe(ft.end.length);
  for (let o = 0; o < ft.end.length; o++) {
    if (relative(qt.end[o], ft.end[o]) > 1e-9 || relative(qt.start[o], ft.start[o]) > 1e-9) expect.fail(`${label} op ${o}: ${qt.start[o]}..${qt.end[o]} against ${ft.start[o]}..${ft.end[o]}`);
  }
  expect(quotient.stats.messages, label).toBe(full.stats.messages);
  expect(relative(quotient.stats.bytes, full.stats.bytes), label).toBeLessThanOrEqual(1e-12);
  // The aggregate throughput over time: every representative flow's rate stands for the order's flows.
  const qs = quotient.throughput.bytes_per_s;
  const fs = full.throughput.bytes_per_s;
  expect(qs.length, label).toBe(fs.length);
  const peak = Math.max(...fs);
  for (let k = 0; k < fs.length; k++) expect(Math.abs(qs[k] - fs[k]), `${label} throughput bin ${k}`).toBeLessThanOrEqual(1e-9 * peak);
  return sym;
}

describe('the symmetry quotient equals the full engine', () => {
  for (const spec of TOPOLOGIES) {
    it(`${spec}: every algorithm, both latency rules, to 1e-9`, () => {
      const t = buildTopology(spec);
      const used: string[] = [];
      for (const collective of COLLECTIVES) {
        for (const a of listAlgorithms(collective)) {
          let schedule;
          try {
            schedule = buildSchedule({ collective, algorithm: a.name, topology: t, size: collective === 'barrier' ? 0 : 65536 });
          } catch {
            continue; // the algorithm does not apply to this topology
          }
          for (const [rule, model] of Object.entries(LATENCY)) {
            const sym = compare(t, schedule, model, `${collective} ${a.name} ${rule}`);
            if (sym.used) {
              expect(sym.order! * sym.representatives!).toBe(t.numEndpoints);
              used.push(`${collective} ${a.name} ${rule}`);
            } else expect(sym.reason, `${collective} ${a.name}`).toMatch(/./);
          }
        }
      }
      // The algorithms named in issue 29 use the quotient wherever the topology has the symmetry.
      const expected: Record<string, string[]> = {
        'torus:4x4x4': ['alltoall pairwise', 'alltoall hop-grouped', 'alltoall per-step-barrier', 'allreduce ring', 'allreduce recursive-doubling', 'allreduce rabenseifner', 'allgather ring'],
        'torus:8x8': ['alltoall pairwise', 'alltoall hop-grouped', 'allreduce ring', 'allreduce recursive-doubling', 'allreduce rabenseifner'],
        'fattree:k=4,levels=3': ['alltoall pairwise', 'allreduce ring', 'allreduce recursive-doubling', 'allreduce rabenseifner'],
        'fullmesh:8': ['alltoall pairwise', 'alltoall linear', 'allreduce ring', 'allreduce recursive-doubling'],
        'hypercube:4': ['alltoall pairwise', 'allreduce recursive-doubling', 'allreduce rabenseifner'],
        'twolevel:leaves=4,hosts=4': ['alltoall ring', 'allreduce ring'],
        // Node rotations serve the rings, node and accelerator bit flips the XOR-ordered ones.
        'hgx-h100:nodes=4': [...FABRIC_EXPECTED, 'allreduce hierarchical', 'allreduce nccl-ring'],
        'mi300x:nodes=4': FABRIC_EXPECTED,
        'fabric:gpus=4,nodes=8,nics=4,rail=leafspine,leafhosts=4,spines=4': [...FABRIC_EXPECTED, 'allreduce hierarchical', 'allreduce nccl-ring'],
      };
      for (const name of expected[spec]) for (const rule of Object.keys(LATENCY)) expect(used, spec).toContain(`${name} ${rule}`);
    }, 900_000);
  }
});

describe('the quotient under the other model choices', () => {
  const MODELS: Record<string, FlowModelOptions> = {
    'per-destination NICs, 2 NICs, injection and ejection limits': { injectionOrder: 'per-destination', nics: 2, injectionBandwidth: 10e9, ejectionBandwidth: 8e9 },
    'CM02 sharing, latency before transfer': { injectionOrder: 'shared', latencyRule: 'before-transfer', sharing: 'cm02' },
    'full rate update, alpha 0': { rateUpdate: 'full', alpha: 0 },
  };
  for (const [name, model] of Object.entries(MODELS)) {
    it(name, () => {
      for (const spec of ['torus:4x4x4', 'fattree:k=4,levels=3']) {
        const t = buildTopology(spec);
        for (const [collective, algorithm] of [['alltoall', 'pairwise'], ['alltoall', 'hop-grouped'], ['allreduce', 'ring'], ['allreduce', 'rabenseifner']] as const) {
          let schedule;
          try {
            schedule = buildSchedule({ collective, algorithm, topology: t, size: 65536 });
          } catch {
            continue;
          }
          const sym = compare(t, schedule, model, `${spec} ${collective} ${algorithm} ${name}`);
          expect(sym.used, `${spec} ${algorithm}: ${sym.reason}`).toBe(true);
        }
      }
    }, 300_000);
  }
});

it('split ties (half of each tied flow each way) on torus:4x4x4: linear, pairwise and hop-grouped alltoall', () => {
  const t = buildTopology('torus:4x4x4');
  for (const algorithm of ['linear', 'pairwise', 'hop-grouped']) {
    const schedule = buildSchedule({ collective: 'alltoall', algorithm, topology: t, size: 16384 });
    const q = simulate({ topology: t, schedule, routingOptions: { tie: 'split' }, model: { symmetryMinRanks: 1 } });
    const f = simulate({ topology: t, schedule, routingOptions: { tie: 'split' }, model: { symmetry: 'off' } });
    expect((q.model.symmetry as SymmetryField).used, algorithm).toBe(true);
    expect(q.routing.name).toMatch(/split-halves/);
    expect(relative(q.makespan_s, f.makespan_s), algorithm).toBeLessThanOrEqual(1e-9);
    for (let r = 0; r < 64; r++) expect(relative(q.ranks.finish_s[r], f.ranks.finish_s[r])).toBeLessThanOrEqual(1e-9);
  }
});

describe('symmetry by default (auto) from 1,024 ranks', () => {
  it('hop-grouped alltoall on torus:16x8x8 (1,024 ranks): one representative, the full engine\'s makespan', () => {
    const t = buildTopology('torus:16x8x8');
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'hop-grouped', topology: t, size: 1024 });
    const auto = simulate({ topology: t, schedule });
    const full = simulate({ topology: t, schedule, model: { symmetry: 'off' } });
    expect(auto.model.symmetry).toMatchObject({ mode: 'auto', used: true, group: 'translations of torus:16x8x8', order: 1024, representatives: 1 });
    expect(relative(auto.makespan_s, full.makespan_s)).toBeLessThanOrEqual(1e-9);
    expect(relative(auto.schedule_bound_s ?? 0, full.schedule_bound_s ?? 0)).toBeLessThanOrEqual(1e-9);
    expect(auto.stats.messages).toBe(full.stats.messages);
    expect(auto.stats.events).toBeLessThan(full.stats.events / 100);
  }, 300_000);
});

describe('symmetry falls back where the run is not symmetric, and says why', () => {
  const t = buildTopology('torus:4x4x4');
  const pairwise = (topology: Topology) => buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology, size: 16384 });
  const reason = (r: ReturnType<typeof simulate>): string => {
    const sym = r.model.symmetry as SymmetryField;
    expect(sym.used).toBe(false);
    return sym.reason!;
  };

  it('noise', () => {
    expect(reason(simulate({ topology: t, schedule: pairwise(t), noise: { jitter: 1e-6, seed: 2 }, model: { symmetryMinRanks: 1 } }))).toMatch(/noise/);
  });

  it('a failed link: the degraded network declares no group', () => {
    const degraded = applyFailures(t, parseFailures('links=1,seed=3'));
    expect(reason(simulate({ topology: degraded, schedule: pairwise(degraded), model: { symmetryMinRanks: 1 } }))).toMatch(/declares no automorphism group/);
  });

  it('a random mapping: the program is equivariant under no translation', () => {
    const mapped = applyMapping(t, 'random:seed=5');
    const r = simulate({ topology: mapped, schedule: pairwise(mapped), model: { symmetryMinRanks: 1 } });
    expect(reason(r)).toMatch(/equivariant under no power/);
  });

  it('several ranks on one host (an SMPI hostfile listing hosts twice): automorphisms move hosts, not ranks', () => {
    const looped = buildTopology('torus:4x4x4,loopback_bw=5GBps,loopback_lat=1us');
    const shared = applyHostList(looped, Int32Array.from({ length: 128 }, (_, r) => r % 64), 'twice', []);
    const r = simulate({ topology: shared, schedule: pairwise(shared), model: { symmetryMinRanks: 1 } });
    expect(reason(r)).toBe('several ranks share a host: the automorphisms move hosts, not the ranks a host holds');
  });

  it('a rooted collective (binomial broadcast)', () => {
    const schedule = buildSchedule({ collective: 'broadcast', algorithm: 'binomial', topology: t, size: 65536, root: 0 });
    expect(reason(simulate({ topology: t, schedule, model: { symmetryMinRanks: 1 } }))).toMatch(/equivariant under no power/);
  });

  it('off, and below the rank threshold by default', () => {
    expect(reason(simulate({ topology: t, schedule: pairwise(t), model: { symmetry: 'off' } }))).toBe('symmetry off');
    expect(reason(simulate({ topology: t, schedule: pairwise(t) }))).toMatch(/64 ranks, below 1024/);
  });

  it("SimGrid's torus tie (a source at coordinate k/2 goes the other way) is caught along the generators' cycles", () => {
    // Linear alltoall (r -> r + s) is invariant under the outermost dimension's translations, whose routes tie at distance 2.
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'linear', topology: t, size: 16384 });
    const r = simulate({ topology: t, schedule, routingOptions: { tie: 'simgrid' }, model: { symmetryMinRanks: 1 } });
    const sym = r.model.symmetry as SymmetryField & { dropped?: string[] };
    // Never a quotient that routes every rank as rank 0 (whose coordinates are never k/2).
    expect(sym.used).toBe(false);
    expect(sym.reason).toMatch(/not equivariant under z\+1/);
    const positive = simulate({ topology: t, schedule, model: { symmetryMinRanks: 1 } });
    expect((positive.model.symmetry as SymmetryField).order).toBe(4);
    const full = simulate({ topology: t, schedule, routingOptions: { tie: 'simgrid' }, model: { symmetry: 'off' } });
    expect(relative(r.makespan_s, full.makespan_s)).toBeLessThanOrEqual(1e-9);
  });

  it('a routing that is not equivariant (a hashed tie) drops to the full engine', () => {
    const r = simulate({ topology: t, schedule: pairwise(t), routingOptions: { tie: 'random' }, model: { symmetryMinRanks: 1 } });
    expect(reason(r)).toMatch(/not equivariant|salt/);
  });
});

describe('declared automorphisms', () => {
  it('of the accelerator fabrics: node moves where the rails cannot tell nodes apart, accelerator moves where the NICs (and spines) move with them', () => {
    const names = (spec: string) => automorphismGroups(buildTopology(spec)).map((g) => [g.generators.map((x) => x.name), g.refused]);
    expect(names('hgx-h100:nodes=4')).toEqual([
      [['node+1', 'gpu+1'], []],
      [['flip node bit 0', 'flip node bit 1', 'flip gpu bit 0', 'flip gpu bit 1', 'flip gpu bit 2'], []],
    ]);
    // Leaf-spine: leaves move whole; 4 rails × 4 nodes a leaf do not line up on 3 spines, so the accelerators stay.
    expect(names('fabric:gpus=4,nodes=8,nics=4,rail=leafspine,leafhosts=4,spines=3')).toEqual([
      [['leaf+1', 'node+1 in its leaf'], []],
      [['flip node bit 0', 'flip node bit 1', 'flip node bit 2'], []],
    ]);
    // A partial last leaf: no node moves; the accelerators still rotate (4 × 4 ≡ 0 mod 4 spines).
    expect(names('fabric:gpus=4,nodes=6,nics=4,rail=leafspine,leafhosts=4,spines=4')).toEqual([
      [['gpu+1'], []],
      [['flip gpu bit 0', 'flip gpu bit 1'], []],
    ]);
    // NICs on every other GPU: moving the GPUs would move a NIC off its rail.
    expect(names('fabric:gpus=8,nodes=3,nics=4')).toEqual([[['node+1'], []]]);
  });

  it('are automorphisms: every channel maps to a channel between the images of its ends', () => {
    for (const spec of [...TOPOLOGIES, 'ring:8', 'fattree:k=4,levels=2', 'torus:3x5', 'fabric:gpus=4,nodes=8,nics=4,rail=leafspine,leafhosts=4,spines=3', 'fabric:gpus=8,nodes=3,nics=4', 'hgx-h100:nodes=2,railplanes=2', 'fabric:gpus=4,nodes=4,stripe=off']) {
      const t = buildTopology(spec);
      const groups = automorphismGroups(t);
      expect(groups.length, spec).toBeGreaterThan(0);
      for (const g of groups) {
        expect(g.refused, `${spec} ${g.name}`).toEqual([]);
        for (const gen of g.generators) {
          for (let c = 0; c < t.numChannels; c++) {
            const d = gen.channel[c];
            expect(t.chSrc[d]).toBe(gen.node[t.chSrc[c]]);
            expect(t.chDst[d]).toBe(gen.node[t.chDst[c]]);
          }
          // Its order: the power that is the identity on nodes, and no smaller one.
          let p = gen.node.slice();
          for (let k = 1; k < gen.order; k++) {
            expect(p.every((v, i) => v === i), `${spec} ${gen.name}^${k}`).toBe(false);
            p = p.map((v) => gen.node[v]);
          }
          expect(p.every((v, i) => v === i), `${spec} ${gen.name}^${gen.order}`).toBe(true);
        }
      }
    }
  });
});
