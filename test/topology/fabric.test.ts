/** Accelerator fabrics (issue 25): the presets' wiring, rates and rails, the twisted torus, refusals. */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/index.js';
import { linksPerPlane } from '../../src/topology/fabric.js';
import { distanceSummary } from '../../src/topology/metrics/index.js';
import { InputError } from '../../src/util/errors.js';
import type { Topology } from '../../src/topology/graph.js';

/** Sum of the out-channel bandwidths of node v in one class. */
function outBandwidth(t: Topology, v: number, cls: string): number {
  let sum = 0;
  for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) if (t.className(t.outChannels[i]) === cls) sum += t.chBandwidth[t.outChannels[i]];
  return sum;
}

describe('machine presets', () => {
  it('hgx-h100: 8 GPUs, 18 NVLinks of 25 GB/s striped over the 4 NVSwitches (one switch node), 450 GB/s per direction per GPU', () => {
    const t = buildTopology('hgx-h100');
    expect(t.numEndpoints).toBe(8);
    expect(t.numNodes).toBe(9);
    for (let g = 0; g < 8; g++) expect(outBandwidth(t, g, 'scaleup-up')).toBeCloseTo(450e9, -3);
    expect(t.params.scaleUpPlanes).toBe(4);
    expect(t.params.inSwitchReduction).toBe(true);
    // Hops, switches included (accelerators forward): GPU, NVSwitch, GPU.
    expect(distanceSummary(t, { method: 'all-pairs' }).diameter).toBe(2);
  });
  it('stripe=off: the 4 NVSwitch planes as nodes, 18 links wired 5/4/4/5, still 450 GB/s per GPU', () => {
    const t = buildTopology('hgx-h100:stripe=off');
    expect(t.numNodes).toBe(12);
    expect(linksPerPlane(18, 4)).toEqual([5, 4, 4, 5]);
    expect(t.chBandwidth[t.outChannels[t.outStart[0]]]).toBe(125e9);
    for (let g = 0; g < 8; g++) expect(outBandwidth(t, g, 'scaleup-up')).toBeCloseTo(450e9, -3);
  });
  it('hgx-h100:nodes=4: NIC i of every node is on rail i (one switch per rail), 50 GB/s per NIC', () => {
    const t = buildTopology('hgx-h100:nodes=4');
    expect(t.numEndpoints).toBe(32);
    expect(t.numNodes).toBe(32 + 4 + 8);
    for (let rank = 0; rank < 32; rank++) {
      const rail = [...Array(t.outDegree(t.endpoints[rank])).keys()].map((i) => t.outChannels[t.outStart[rank] + i]).filter((c) => t.className(c) === 'nic-up');
      expect(rail.length).toBe(1);
      expect(t.chBandwidth[rail[0]]).toBe(50e9);
      // Rail switches follow the 4 NVSwitch nodes; rail of GPU g is switch 36 + g.
      expect(t.chDst[rail[0]]).toBe(36 + (rank % 8));
    }
    // Same rail, other node: 2 hops through the rail switch; other rail: NVSwitch, GPU, rail switch, GPU = 4.
    expect(distanceSummary(t, { method: 'all-pairs' }).diameter).toBe(4);
  });
  it('hgx-a100: 8 GPUs, 12 NVLinks of 25 GB/s (2 to each of 6 NVSwitches), 300 GB/s per direction per GPU, no in-switch reduction', () => {
    const t = buildTopology('hgx-a100');
    expect(t.numEndpoints).toBe(8);
    expect(t.numNodes).toBe(9);
    for (let g = 0; g < 8; g++) expect(outBandwidth(t, g, 'scaleup-up')).toBeCloseTo(300e9, -3);
    expect(t.params.scaleUpPlanes).toBe(6);
    expect(t.params.scaleUpLinksPerPlane).toEqual([2, 2, 2, 2, 2, 2]);
    expect(t.params.inSwitchReduction).toBe(false);
    expect(distanceSummary(t, { method: 'all-pairs' }).diameter).toBe(2);
    // stripe=off: the six planes as nodes, each GPU's 2 links to each carrying 50 GB/s.
    const planes = buildTopology('hgx-a100:stripe=off');
    expect(planes.numNodes).toBe(14);
    expect(planes.chBandwidth[planes.outChannels[planes.outStart[0]]]).toBe(50e9);
  });
  it('hgx-a100:nodes=2: one 200 Gb/s HDR NIC per GPU (25 GB/s), on its rail', () => {
    const t = buildTopology('hgx-a100:nodes=2');
    expect(t.numNodes).toBe(16 + 2 + 8);
    for (let rank = 0; rank < 16; rank++) expect(outBandwidth(t, rank, 'nic-up')).toBe(25e9);
  });
  it('mi300x: a full mesh of one 64 GB/s xGMI link per peer, a direct network of diameter 1', () => {
    const t = buildTopology('mi300x');
    expect(t.numNodes).toBe(8);
    expect(t.numChannels).toBe(56);
    for (let c = 0; c < t.numChannels; c++) expect(t.chBandwidth[c]).toBe(64e9);
    expect(distanceSummary(t, { method: 'all-pairs' }).diameter).toBe(1);
  });
  it('gb200-nvl72: 72 GPUs, 18 NVSwitch planes, 900 GB/s per direction per GPU', () => {
    const t = buildTopology('gb200-nvl72');
    expect(t.numEndpoints).toBe(72);
    expect(t.numNodes).toBe(73);
    expect(outBandwidth(t, 0, 'scaleup-up')).toBeCloseTo(900e9, -3);
  });
  it('dual-plane leaf-spine rails: each NIC port split over two planes, spines shared by the rails', () => {
    const t = buildTopology('fabric:gpus=4,nodes=8,nics=4,rail=leafspine,leafhosts=4,spines=2,railplanes=2,nicbw=400Gbps');
    // One scale-up switch per node; per rail plane: 4 rails × 2 leaves + 2 spines.
    expect(t.numNodes).toBe(32 + 8 + 2 * (8 + 2));
    expect(outBandwidth(t, 0, 'nic-up')).toBe(50e9);
    let ports = 0;
    for (let i = t.outStart[0]; i < t.outStart[1]; i++) if (t.className(t.outChannels[i]) === 'nic-up') ports++;
    expect(ports).toBe(2);
  });
  it('NICs on chosen accelerators: nicgpus=0/2 hangs the two NICs off GPUs 0 and 2', () => {
    const t = buildTopology('fabric:gpus=4,nodes=2,nics=2,nicgpus=0/2');
    const withNic = [...Array(8).keys()].filter((r) => outBandwidth(t, r, 'nic-up') > 0);
    expect(withNic).toEqual([0, 2, 4, 6]);
  });
});

describe('TPU slices', () => {
  it('twist=on lowers the diameter of a 4x4x8 slice from 8 to 6 (TPU v4 twisted torus)', () => {
    expect(distanceSummary(buildTopology('tpu:4x4x8'), { method: 'all-pairs' }).diameter).toBe(8);
    expect(distanceSummary(buildTopology('tpu:4x4x8,twist=on'), { method: 'all-pairs' }).diameter).toBe(6);
  });
  it('the untwisted slice is the plain torus (same distance histogram)', () => {
    expect(distanceSummary(buildTopology('tpu:3x4x5'), { method: 'all-pairs' }).histogram).toEqual(distanceSummary(buildTopology('torus:3x4x5'), { method: 'all-pairs' }).histogram);
  });
});

describe('refusals', () => {
  for (const [spec, field] of [
    ['tpu:4x4x4,twist=on', 'tpu.twist'],
    ['tpu:4x4', 'tpu.dims'],
    ['fabric:gpus=4,scaleup=mesh,links=4', 'fabric.links'],
    ['fabric:gpus=4,nodes=2,nics=2,nicgpus=0/9', 'fabric.nicgpus'],
    ['hgx-h100:nodes=2,nics=0', 'fabric.nics'],
    ['hgx-h100:rail=torus', 'topology.rail'],
  ] as const) {
    it(`${spec}: ${field}`, () => {
      expect(() => buildTopology(spec)).toThrow(InputError);
      try {
        buildTopology(spec);
      } catch (e) {
        expect((e as InputError).field).toBe(field);
      }
    });
  }
});
