import { describe, expect, it } from 'vitest';
import { buildTopology, torus, mesh } from '../../src/topology/index.js';

describe('mesh and torus generators', () => {
  it('numbers nodes with dimension 0 fastest (BookSim order)', () => {
    const t = torus([4, 3, 2]);
    expect(t.numNodes).toBe(24);
    // node id = x + X*y + X*Y*z
    const id = 1 + 4 * 2 + 12 * 1;
    expect([t.coord(id, 0), t.coord(id, 1), t.coord(id, 2)]).toEqual([1, 2, 1]);
  });
  it('gives every torus node degree 2n, and the mesh 2n(N) - 2·(boundary) channels', () => {
    const t = torus([8, 8]);
    expect(t.numChannels).toBe(64 * 4);
    for (let v = 0; v < t.numNodes; v++) {
      expect(t.outDegree(v)).toBe(4);
      expect(t.inDegree(v)).toBe(4);
    }
    // An A×B mesh has 2·(A−1)·B + 2·A·(B−1) channels.
    expect(mesh([8, 4]).numChannels).toBe(2 * 7 * 4 + 2 * 8 * 3);
  });
  it('records link attributes from the spec', () => {
    const t = buildTopology('torus:8x8,bw=25Gbps,lat=100ns');
    expect(t.chBandwidth[0]).toBe(25e9 / 8);
    expect(t.chLatency[0]).toBeCloseTo(100e-9, 15);
  });
  it('rejects unknown keys instead of ignoring them', () => {
    expect(() => buildTopology('torus:8x8,bandwidth=1Gbps')).toThrow(/topology.bandwidth/);
  });
});

it('takes the dimensions as dims=, in a spec string or a spec object, as hyperx does (an object with "dims" said it got nothing)', () => {
  expect(buildTopology({ family: 'torus', dims: '4x4' }).numNodes).toBe(16);
  expect(buildTopology({ family: 'mesh', dims: [2, 3] }).numNodes).toBe(6);
  expect(buildTopology('torus:dims=4x2').numChannels).toBe(buildTopology('torus:4x2').numChannels);
  expect(() => buildTopology({ family: 'torus', dims: '0x4' })).toThrow(/^topology\.dims: got "0"; accepted: an/);
  // Given twice (positional and key), the key is left unread and refused.
  expect(() => buildTopology('torus:4x4,dims=8x8')).toThrow(/dims/);
});
