/**
 * The collective libraries' algorithms (issue 25): every one delivers its postcondition byte for
 * byte on fabrics and plain topologies, for random channel counts, chunkings, sizes and dtypes,
 * and the schedules have the shape the library runs (rings per channel, bytes per rank).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSchedule, buildTopology, executeSchedule, type CollectiveKind } from '../../src/index.js';
import { channelRing, layoutOf, meshRings, ringStrides } from '../../src/collectives/algorithms/library/layout.js';
import { btree, dtree } from '../../src/collectives/algorithms/library/tree.js';
import { patOffsets, patRounds } from '../../src/collectives/algorithms/library/pat.js';

const TOPOLOGIES = ['hgx-h100', 'hgx-h100:nodes=2', 'fabric:gpus=4,nodes=3,planes=2,links=4,nics=2', 'mi300x', 'fabric:gpus=5,scaleup=mesh,links=4', 'ring:6', 'torus:3'];
const ALGORITHMS: Array<[CollectiveKind, string]> = [
  ['allreduce', 'nccl-ring'],
  ['allgather', 'nccl-ring'],
  ['reduce-scatter', 'nccl-ring'],
  ['allreduce', 'direct:mode=oneshot'],
  ['allreduce', 'direct:mode=twoshot'],
  ['allreduce', 'hierarchical'],
  ['allreduce', 'nccl-tree'],
];

describe('library algorithms satisfy their postconditions', () => {
  for (const [collective, algorithm] of ALGORITHMS) {
    it(`${collective}/${algorithm}`, () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...TOPOLOGIES),
          fc.integer({ min: 0, max: 40 }),
          fc.integer({ min: 0, max: 9 }),
          fc.integer({ min: 1, max: 4 }),
          fc.constantFrom('int32', 'float64'),
          fc.constantFrom('bytes', 'chunks'),
          (spec, units, channels, chunks, dtype, mode) => {
            const topology = buildTopology(spec);
            const n = topology.numEndpoints;
            const elem = dtype === 'float64' ? 8 : 4;
            const size = collective === 'reduce-scatter' ? units * n * elem : collective === 'allgather' ? units * 3 : units * elem;
            const params = algorithm === 'nccl-ring' ? `:channels=${channels},chunks=${chunks}` : algorithm === 'hierarchical' ? `:channels=${Math.max(1, channels)},chunks=${chunks}` : algorithm === 'nccl-tree' ? `:chunks=${chunks}` : '';
            const s = buildSchedule({ collective, algorithm: `${algorithm}${params}`, topology, size, dtype: collective === 'allgather' ? 'int32' : dtype });
            const r = executeSchedule(s, { mode });
            expect(r.problems).toEqual([]);
            expect(r.pass).toBe(true);
            if (size > 0) expect(r.checkedSlots).toBeGreaterThan(0);
          },
        ),
        { numRuns: 25, seed: 25 },
      );
    });
  }
});

describe('the shape of what the library runs', () => {
  it('ring allreduce on C channels: each rank sends 2(n−1)/n of the buffer, 2(n−1) messages per channel', () => {
    const topology = buildTopology('hgx-h100:nodes=2');
    const size = 16 * 4 * 8 * 3;
    const r = executeSchedule(buildSchedule({ collective: 'allreduce', algorithm: 'nccl-ring:channels=4', topology, size }));
    expect(r.stats.sentBytes[5]).toBe((2 * 15 * size) / 16);
    expect(r.messages).toBe(4 * 16 * 2 * 15);
  });
  it('channel rings: on switches each starts at another accelerator (another NIC); on a full mesh each uses another stride', () => {
    const hgx = layoutOf(buildTopology('hgx-h100:nodes=2'));
    expect(channelRing(hgx, 3).slice(0, 9)).toEqual([3, 4, 5, 6, 7, 0, 1, 2, 11]);
    expect(ringStrides(8)).toEqual([1, 3, 5, 7]);
    const mi = layoutOf(buildTopology('mi300x'));
    expect(new Set(channelRing(mi, 1)).size).toBe(8);
  });
  for (const G of [3, 5, 7, 8, 9, 16]) {
    it(`full mesh of ${G}: G − 1 rings through every accelerator, together using every directed link exactly once`, () => {
      const rings = meshRings(G);
      expect(rings.length).toBe(G - 1);
      const arcs = new Set<number>();
      for (const ring of rings) {
        expect([...ring].sort((a, b) => a - b)).toEqual([...Array(G).keys()]);
        for (let i = 0; i < G; i++) arcs.add(ring[i] * G + ring[(i + 1) % G]);
      }
      expect(arcs.size).toBe(G * (G - 1));
    });
  }
  it('full meshes of 4 and 6 have no such decomposition (Tillson): the coprime-stride rings instead', () => {
    expect(meshRings(4)).toEqual([[0, 1, 2, 3], [0, 3, 2, 1]]);
    expect(meshRings(6).length).toBe(2);
  });
  it('hierarchical: each node sends the buffer once across the rails (split over its G NICs), a flat ring 2(n−1)/n of it per rank', () => {
    const topology = buildTopology('hgx-h100:nodes=2');
    const size = 16 * 4 * 8;
    const r = executeSchedule(buildSchedule({ collective: 'allreduce', algorithm: 'hierarchical', topology, size }));
    // Intra: 2 × (G−1)/G of the buffer; inter: 2 × (N−1)/N of a block of size/G.
    expect(r.stats.sentBytes[0]).toBe(2 * (7 / 8) * size + 2 * (1 / 2) * (size / 8));
  });
  for (const n of [1, 2, 3, 5, 8, 13, 16]) {
    it(`double binary tree on ${n} ranks: each tree spans every rank once from one root; parents and children agree`, () => {
      for (const t of [0, 1]) {
        const links = Array.from({ length: n }, (_, r) => dtree(r, n, t));
        expect(links.filter((l) => l.up < 0).length).toBe(1);
        for (let r = 0; r < n; r++) {
          for (const c of links[r].down) expect(links[c].up).toBe(r);
          expect(links[r].down.length).toBeLessThanOrEqual(2);
        }
      }
    });
  }
  it("NCCL's btree of 8: 0 → 4, 4 → 2, 6; 2 → 1, 3; 6 → 5, 7 (src/graph/trees.cc)", () => {
    expect([0, 4, 2, 6].map((r) => btree(r, 8).down)).toEqual([[4], [2, 6], [1, 3], [5, 7]]);
    expect(btree(1, 8).up).toBe(2);
  });
  it('two-shot direct allreduce: 2(n−1) messages per rank, each a block', () => {
    const r = executeSchedule(buildSchedule({ collective: 'allreduce', algorithm: 'direct', topology: buildTopology('mi300x'), size: 8 * 64 }));
    expect(r.messages).toBe(8 * 14);
    expect(r.stats.sentBytes[0]).toBe(14 * 64);
  });
});

describe('in-switch reduction (nvls)', () => {
  for (const spec of ['hgx-h100', 'hgx-h100:nodes=3', 'fabric:gpus=4,nodes=2,planes=2,links=4,nics=2,nvls=on']) {
    it(`${spec}: the postcondition holds byte for byte`, () => {
      for (const [dtype, units] of [['int32', 37], ['float64', 96]] as const) {
        const topology = buildTopology(spec);
        const s = buildSchedule({ collective: 'allreduce', algorithm: 'nvls', topology, size: units * (dtype === 'float64' ? 8 : 4), dtype });
        const r = executeSchedule(s);
        expect(r.problems).toEqual([]);
        expect(r.pass).toBe(true);
      }
    });
  }
  it('is refused where the switches declare no reduction (mi300x, a torus), with the reason', () => {
    expect(() => buildSchedule({ collective: 'allreduce', algorithm: 'nvls', topology: buildTopology('mi300x'), size: 64 })).toThrow(/declares no in-switch reduction/);
    expect(() => buildSchedule({ collective: 'allreduce', algorithm: 'nvls', topology: buildTopology('hgx-h100:nvls=off'), size: 64 })).toThrow(/declares no in-switch reduction/);
  });
});

describe("NCCL's NVLS Tree (nvls-tree): in-switch reduce-scatter, rails across nodes, in-switch multicast", () => {
  for (const spec of ['hgx-h100:nodes=2', 'hgx-h100:nodes=3', 'fabric:gpus=4,nodes=2,planes=2,links=4,nics=2,nvls=on']) {
    it(`${spec}: the postcondition holds byte for byte, for 1 to 5 pipelined chunks`, () => {
      for (const [dtype, units] of [['int32', 37], ['float64', 96]] as const) {
        for (const chunks of [1, 2, 5]) {
          const topology = buildTopology(spec);
          const s = buildSchedule({ collective: 'allreduce', algorithm: `nvls-tree:chunks=${chunks}`, topology, size: units * (dtype === 'float64' ? 8 : 4), dtype });
          const r = executeSchedule(s);
          expect(r.problems).toEqual([]);
          expect(r.pass).toBe(true);
        }
      }
    });
  }
  it('moves only the rails across nodes: on 2 nodes each rank sends its block (a G-th) once out through its NIC', () => {
    const s = buildSchedule({ collective: 'allreduce', algorithm: 'nvls-tree:chunks=4', topology: buildTopology('hgx-h100:nodes=2'), size: 1 << 20 });
    const r = executeSchedule(s);
    expect(r.pass).toBe(true);
    expect(r.stats.sentBytes[0]).toBe((1 << 20) / 8);
  });
  it('is refused where the switches declare no reduction', () => {
    expect(() => buildSchedule({ collective: 'allreduce', algorithm: 'nvls-tree', topology: buildTopology('hgx-h100:nodes=2,nvls=off'), size: 64 })).toThrow(/declares no in-switch reduction/);
  });
});

describe("PAT (NCCL's Parallel Aggregated Trees) for allgather and reduce-scatter", () => {
  for (const collective of ['allgather', 'reduce-scatter'] as const) {
    it(`${collective}: the postcondition holds byte for byte for any rank count`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 2, max: 19 }), fc.integer({ min: 0, max: 9 }), fc.constantFrom('int32', 'float64'), fc.constantFrom('bytes', 'chunks'), (n, units, dtype, mode) => {
          const topology = buildTopology(n % 3 === 0 ? `ring:${n}` : `fabric:gpus=1,nodes=${n},nics=1`);
          const elem = dtype === 'float64' ? 8 : 4;
          const size = collective === 'reduce-scatter' ? units * n * elem : units * elem;
          const r = executeSchedule(buildSchedule({ collective, algorithm: 'pat', topology, size, dtype }), { mode });
          expect(r.problems).toEqual([]);
          expect(r.pass).toBe(true);
        }),
        { numRuns: 30, seed: 23 },
      );
    });
  }
  it('⌈log2 n⌉ rounds, one peer 2^d away per round, n − 1 blocks sent per rank in all (as a ring)', () => {
    for (const n of [2, 5, 8, 13, 16]) {
      const topology = buildTopology(`fabric:gpus=1,nodes=${n},nics=1`);
      const B = 64;
      const r = executeSchedule(buildSchedule({ collective: 'allgather', algorithm: 'pat', topology, size: B }));
      expect(r.stats.sentBytes[0]).toBe((n - 1) * B);
      expect(patRounds(n)).toBe(Math.ceil(Math.log2(n)));
      // Blocks per round: offsets 0, 2^(d+1), ... below n − 2^d; over all rounds n − 1.
      let blocks = 0;
      for (let d = 0; d < patRounds(n); d++) blocks += patOffsets(n, d).length;
      expect(blocks).toBe(n - 1);
    }
    expect(patOffsets(8, 2)).toEqual([0]);
    expect(patOffsets(8, 0)).toEqual([0, 2, 4, 6]);
  });
});
