/**
 * The `nccl` picker against NCCL's own tuning model (NVIDIA/nccl 2.30.7 @ 5067397c:
 * src/graph/tuning.cc ncclTunerConstantsDefaults, ncclTopoTuneModel, ncclTopoGetAlgoTime;
 * src/enqueue.cc updateCollCostTable). Each candidate's predicted time at one point is recomputed
 * here by NCCL's formulas, written out with its constants (not read from the preset), and the
 * picks over a grid of collective × size × topology are pinned: a change of any rule or constant
 * moves a row.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, simulateCollective } from '../../src/index.js';
import { NCCL_SOURCE, tuneCollective, treeCorrection } from '../../src/collectives/algorithms/library/tuning.js';
import type { CollectiveKind } from '../../src/collectives/types.js';

const us = 1e-6;
/** The sizes of the pick tables: 8 B, 4 KiB, 64 KiB, 1 MiB, 16 MiB, 1 GiB. */
const SIZES = [8, 4096, 65536, 1 << 20, 16 << 20, 1 << 30];
const pick = (spec: string, collective: CollectiveKind, size: number, machine?: string): string => {
  const c = tuneCollective({ topology: buildTopology(spec), collective, size, library: 'nccl', machine });
  return `${c.pick.algorithm}/${c.pick.protocol}`;
};
const candidates = (spec: string, collective: CollectiveKind, size: number): Map<string, number> =>
  new Map(tuneCollective({ topology: buildTopology(spec), collective, size, library: 'nccl' }).candidates.map((c) => [`${c.algorithm}/${c.protocol}`, c.predicted_s]));

describe(`the nccl picker follows ${NCCL_SOURCE}`, () => {
  it('ring:8 (one node, 8 links of 3.125 GB/s per direction), allreduce 64 KiB: every candidate as NCCL predicts it, and ring LL picked', () => {
    // busBw of a channel set over the ring: the 2 links out of a rank, 6.25 GB/s. One node: intra steps only.
    const S = 64 << 10;
    const busBw = 6.25e9;
    const ringRatio = 8 / 14; // nRanks / nsteps
    const expected: Record<string, number> = {
      // Ring: baseLat + 14 × hwLat NVLink Ring; LL busBw × .5, LL128 × .92.
      'nccl-ring/LL': (6.6 + 14 * 0.6) * us + S / (busBw * 0.5 * ringRatio),
      'nccl-ring/LL128': (14 + 14 * 1.9) * us + S / (busBw * 0.92 * ringRatio),
      'nccl-ring/Simple': (8.4 + 14 * 3.4) * us + S / (busBw * ringRatio),
      // Tree: baseLat + 2 × 7 × hwLat NVLink Tree; busBw × .92 (LL / 3.8, LL128 × 7/9 in one node), algBw × .5,
      // × treeCorrectionFactor[p][log2(64 KiB / 64) = 10] = LL .6, LL128 .6, Simple .6.
      'nccl-tree/LL': (6.8 + 14 * 0.6) * us + S / (((busBw * 0.92) / 3.8) * 0.5 * 0.6),
      'nccl-tree/LL128': (14 + 14 * 1.25) * us + S / (busBw * 0.92 * (7 / 9) * 0.5 * 0.6),
      'nccl-tree/Simple': (8.4 + 14 * 4.0) * us + S / (busBw * 0.92 * 0.5 * 0.6),
    };
    const got = candidates('ring:8', 'allreduce', S);
    expect(new Set(got.keys())).toEqual(new Set(Object.keys(expected)));
    for (const [k, v] of Object.entries(expected)) expect(got.get(k)! / v).toBeCloseTo(1, 9);
    // 51.7 µs for ring LL against 60.5 (ring LL128) and 80.3 (tree LL128): NCCL picks ring LL.
    expect(pick('ring:8', 'allreduce', S)).toBe('nccl-ring/LL');
  });

  it("NVLS Tree (tuning.cc): baseLat 0 + hwLat NVLink 25 µs + 2 log2(N) × hwLat NET 20.9 µs; busBw 8 channels × min(.., perChMaxNVLSTreeBws Hopper 57.7 (2 nodes) / 45.5 GB/s); none in one node or on h100-tcpxo", () => {
    const nvlsTree = (spec: string, machine?: string) =>
      tuneCollective({ topology: buildTopology(spec), collective: 'allreduce', size: 1 << 30, library: 'nccl', machine }).candidates.find((c) => c.algorithm === 'nvls-tree');
    const two = nvlsTree('hgx-h100:nodes=2')!;
    expect(two.protocol).toBe('Simple');
    expect(two.latency_s).toBeCloseTo((25 + 2 * 1 * 20.9) * us, 12);
    // 16 ranks: algBw = busBw × 16 / 30. The cap binds: intra 2 × .85 × 7/8 × 450/9 × 8, inter 2 × 50 × 8 GB/s are above it.
    expect(two.bandwidth_Bps / ((8 * 57.7e9 * 16) / 30)).toBeCloseTo(1, 9);
    const four = nvlsTree('hgx-h100:nodes=4')!;
    expect(four.latency_s).toBeCloseTo((25 + 2 * 2 * 20.9) * us, 12);
    expect(four.bandwidth_Bps / ((8 * 45.5e9 * 32) / 62)).toBeCloseTo(1, 9);
    expect(nvlsTree('hgx-h100')).toBeUndefined();
    expect(nvlsTree('hgx-h100:nodes=2', 'h100-tcpxo')).toBeUndefined();
    expect(nvlsTree('hgx-h100:nodes=2,nvls=off')).toBeUndefined();
  });

  it("NCCL's tree correction factor: powers of two from 64 B, per protocol", () => {
    expect([treeCorrection('LL', 32), treeCorrection('LL', 64), treeCorrection('LL', 64 << 13), treeCorrection('Simple', 64 << 11)]).toEqual([1, 1, 0.4, 0.5]);
    expect(treeCorrection('LL128', 64 << 22)).toBe(1); // logSize 22 is the last one applied (< 23)
    expect(treeCorrection('Simple', 64 << 23)).toBe(1); // beyond the table
  });

  it("one HGX H100: ring LL's bus bandwidth is capped at Hopper's llMaxBw (141 GB/s), not .5 × 450 GB/s", () => {
    const c = tuneCollective({ topology: buildTopology('hgx-h100'), collective: 'allreduce', size: 1 << 20, library: 'nccl' });
    const ll = c.candidates.find((x) => x.algorithm === 'nccl-ring' && x.protocol === 'LL')!;
    expect(ll.bandwidth_Bps).toBeCloseTo((141e9 * 8) / 14, -3);
    // The run honours the cap too: LL's link efficiency 0.5 × 141 / 225.
    const run = simulateCollective({ topology: buildTopology('hgx-h100'), collective: 'allreduce', algorithm: 'nccl-ring:proto=LL', size: 1 << 20 });
    expect((run.model.library as { efficiency: number }).efficiency).toBeCloseTo((0.5 * 141) / 225, 12);
    // Without a cap (RCCL's MI300X preset) LL keeps its factor.
    const mi = simulateCollective({ topology: buildTopology('mi300x'), collective: 'allreduce', algorithm: 'nccl-ring:proto=LL', size: 1 << 20 });
    expect((mi.model.library as { efficiency: number }).efficiency).toBe(0.25);
  });

  it('across nodes: a ring step inside a node costs at least the host net overhead (1 µs, × 3 Simple), Simple allreduce × 1.4 (plateau); NVLS not offered', () => {
    // hgx-h100:nodes=2: 16 ranks, 2 network steps of 2(N − 1); NET Ring {2.7, 4.0, 14.0} µs.
    const c = tuneCollective({ topology: buildTopology('hgx-h100:nodes=2'), collective: 'allreduce', size: 1 << 30, library: 'nccl' });
    const ring = (p: string): number => c.candidates.find((x) => x.algorithm === 'nccl-ring' && x.protocol === p)!.latency_s;
    expect(ring('LL')).toBeCloseTo((6.6 + 28 * Math.max(0.6, 1) + 2 * 2.7) * us, 12);
    expect(ring('LL128')).toBeCloseTo((14 + 28 * 1.9 + 2 * 4.0) * us, 12);
    expect(ring('Simple')).toBeCloseTo((8.4 + 28 * Math.max(3.4, 3) + 2 * 14) * 1.4 * us, 12);
    expect(c.candidates.some((x) => x.algorithm === 'nvls')).toBe(false);
    // 8 B per rank and channel is under the plateau's 64: no × 1.4.
    const small = tuneCollective({ topology: buildTopology('hgx-h100:nodes=2'), collective: 'allreduce', size: 1024, library: 'nccl' });
    expect(small.candidates.find((x) => x.algorithm === 'nccl-ring' && x.protocol === 'Simple')!.latency_s).toBeCloseTo((8.4 + 28 * 3.4 + 2 * 14) * us, 12);
  });

  it("RCCL across nodes has no plateau (ROCm/rccl's ncclTopoGetAlgoTime applies it only outside HIP)", () => {
    const c = tuneCollective({ topology: buildTopology('mi300x:nodes=2'), collective: 'allreduce', size: 1 << 30, library: 'rccl' });
    // mi300x Simple: RCCL baseLat 17 µs, 28 intra steps of 1.95 µs, 2 network steps of 14 µs; no × 1.4.
    expect(c.candidates.find((x) => x.algorithm === 'nccl-ring' && x.protocol === 'Simple')!.latency_s).toBeCloseTo((17 + 28 * 1.95 + 2 * 14) * us, 12);
    // LL across nodes at RCCL's bwRatio Ring LL 0.08 of the bus (tuning_model_5): Simple from a few MiB.
    const picks = SIZES.map((size) => {
      const p = tuneCollective({ topology: buildTopology('mi300x:nodes=2'), collective: 'allreduce', size, library: 'rccl' }).pick;
      return `${p.algorithm}/${p.protocol}`;
    });
    expect(picks.join(' ')).toBe('hierarchical/LL hierarchical/LL hierarchical/LL hierarchical/LL hierarchical/Simple hierarchical/Simple');
  });

  it('one GPU per node: the ring pays the Tree network latency (ppn = 1), the tree log2 N steps, PAT its log-plus-linear latency', () => {
    const c = tuneCollective({ topology: buildTopology('fabric:gpus=1,nodes=64,nics=1'), collective: 'allreduce', size: 8, library: 'nccl' });
    const lat = (a: string, p: string): number => c.candidates.find((x) => x.algorithm === a && x.protocol === p)!.latency_s;
    expect(lat('nccl-ring', 'LL')).toBeCloseTo((6.6 + 126 * 5.0) * us, 12);
    expect(lat('nccl-tree', 'LL')).toBeCloseTo((6.8 + 2 * 6 * 5.0) * us, 12);
    const ag = tuneCollective({ topology: buildTopology('fabric:gpus=1,nodes=64,nics=1'), collective: 'allgather', size: 1024, library: 'nccl' });
    expect(ag.candidates.find((x) => x.algorithm === 'pat')!.latency_s).toBeCloseTo((8 + 6 * (14 / 3.5) + 64 * 2.8) * us, 12);
  });

  it("A3 Mega over TCPXO (h100-tcpxo): the tree's network step is the ring's calibrated TCPXO step; it wins small sizes from 4 nodes, never on the measured 2", () => {
    const tune = (nodes: number) => tuneCollective({ topology: buildTopology(`hgx-h100:nodes=${nodes},nicbw=200Gbps`), collective: 'allreduce', size: 8, library: 'nccl', machine: 'h100-tcpxo' });
    const lat = (c: ReturnType<typeof tune>, a: string, p: string): number => c.candidates.find((x) => x.algorithm === a && x.protocol === p)!.latency_s;
    // Tree LL on 4 nodes: baseLat 6.8 + 2 × (7 × 0.6 + log2(4) × 56.28) µs; hierarchical LL on 2: 6.6 + 14 × 0.6 + 2 × 56.28 µs.
    expect(lat(tune(4), 'nccl-tree', 'LL')).toBeCloseTo((6.8 + 2 * (7 * 0.6 + 2 * 56.28)) * us, 12);
    expect(lat(tune(2), 'hierarchical', 'LL')).toBeCloseTo((6.6 + 14 * 0.6 + 2 * 56.28) * us, 12);
    // The hierarchical stand-in for NCCL's Tree on 2 nodes only (on more its rail rings move less than NCCL's trees).
    expect(tune(4).candidates.some((x) => x.algorithm === 'hierarchical')).toBe(false);
    expect(tune(4).candidates.some((x) => x.algorithm === 'nvls' || x.algorithm === 'pat')).toBe(false);
    const picks = (spec: string): string => SIZES.map((s) => pick(spec, 'allreduce', s, 'h100-tcpxo')).join(' ');
    expect(picks('hgx-h100:nodes=2,nicbw=200Gbps')).toBe('hierarchical/LL hierarchical/LL hierarchical/LL128 hierarchical/LL128 hierarchical/Simple hierarchical/Simple');
    expect(picks('hgx-h100:nodes=4,nicbw=200Gbps')).toBe('nccl-tree/LL128 nccl-tree/LL128 nccl-tree/LL128 nccl-ring/LL128 nccl-ring/LL128 nccl-ring/Simple');
  });

  it("GB200 NVL72 runs on its own preset: Blackwell's nvlsEfficiency 0.74 and LL cap 282 GB/s (tuning.cc 2.30.7)", () => {
    const c = tuneCollective({ topology: buildTopology('gb200-nvl72'), collective: 'allreduce', size: 1 << 30, library: 'nccl' });
    expect(c.machine).toBe('gb200-nvl72');
    // 900 GB/s per GPU × 0.74.
    expect(c.candidates.find((x) => x.algorithm === 'nvls')!.bandwidth_Bps).toBeCloseTo(900e9 * 0.74, -3);
    const ll = c.candidates.find((x) => x.algorithm === 'nccl-ring' && x.protocol === 'LL')!;
    expect(ll.bandwidth_Bps).toBeCloseTo((282e9 * 72) / 142, -3);
  });

  // collective × size → pick, per topology.
  const TABLE: Array<[string, CollectiveKind, string]> = [
    ['ring:8', 'allreduce', 'nccl-ring/LL nccl-ring/LL nccl-ring/LL nccl-ring/Simple nccl-ring/Simple nccl-ring/Simple'],
    ['ring:8', 'allgather', 'nccl-ring/LL nccl-ring/LL nccl-ring/Simple nccl-ring/Simple nccl-ring/Simple nccl-ring/Simple'],
    ['fullmesh:8', 'allreduce', 'nccl-ring/LL nccl-ring/LL nccl-ring/LL nccl-ring/LL128 nccl-ring/Simple nccl-ring/Simple'],
    ['hgx-h100', 'allreduce', 'nccl-ring/LL nccl-ring/LL nccl-ring/LL nvls/Simple nvls/Simple nvls/Simple'],
    ['hgx-h100', 'reduce-scatter', 'nccl-ring/LL nccl-ring/LL nccl-ring/LL nccl-ring/LL nccl-ring/LL128 nccl-ring/Simple'],
    ['hgx-h100:nvls=off', 'allreduce', 'nccl-ring/LL nccl-ring/LL nccl-ring/LL nccl-ring/LL nccl-ring/LL128 nccl-ring/Simple'],
    // 1 GiB: NVLS Tree (NCCL's bus bandwidth 8 × 57.7 GB/s, 246 GB/s algBw) over the hierarchical stand-in for
    // Tree rated at NCCL's NVLink bandwidth (20.6 of 25 GB/s per link: 212 GB/s), as NCCL runs it across
    // HGX H100 nodes (NVIDIA/nccl-tests#309).
    ['hgx-h100:nodes=2', 'allreduce', 'hierarchical/LL hierarchical/LL hierarchical/LL hierarchical/LL128 hierarchical/LL128 nvls-tree/Simple'],
    ['hgx-h100:nodes=2', 'allgather', 'nccl-ring/LL nccl-ring/LL nccl-ring/LL128 nccl-ring/LL128 nccl-ring/LL128 nccl-ring/Simple'],
    ['hgx-h100:nodes=16', 'allreduce', 'nccl-tree/LL nccl-tree/LL nccl-tree/LL nccl-tree/LL128 nvls-tree/Simple nvls-tree/Simple'],
    ['fabric:gpus=1,nodes=64,nics=1', 'allreduce', 'nccl-tree/LL nccl-tree/LL nccl-tree/LL nccl-tree/LL128 nccl-tree/LL128 nccl-ring/Simple'],
    ['fabric:gpus=1,nodes=64,nics=1', 'allgather', 'pat/Simple pat/Simple pat/Simple nccl-ring/LL128 nccl-ring/Simple nccl-ring/Simple'],
    ['fabric:gpus=1,nodes=64,nics=1', 'reduce-scatter', 'pat/Simple pat/Simple pat/Simple pat/Simple pat/Simple nccl-ring/Simple'],
    ['gb200-nvl72', 'allreduce', 'nvls/Simple nvls/Simple nvls/Simple nvls/Simple nvls/Simple nvls/Simple'],
  ];
  it.each(TABLE)('%s %s: the picks at 8 B … 1 GiB', (spec, collective, picks) => {
    expect(SIZES.map((s) => pick(spec, collective, s)).join(' ')).toBe(picks);
  });
});
