import { describe, expect, it } from 'vitest';
import { buildTopology, estimateSpecSize } from '../../src/index.js';
import '../../src/topology/families.js';

describe('estimateSpecSize: sizes from the spec, without building (issue 16 item 10)', () => {
  // Reference: the built topology's own counts.
  for (const spec of ['torus:4x4', 'torus:2x3', 'torus:5x1x3', 'mesh:4x5', 'mesh:1', 'ring:7', 'uring:7', 'hypercube:4', 'torus:3x3,bw=10Gbps']) {
    it(spec, () => {
      const t = buildTopology(spec);
      expect(estimateSpecSize(spec)).toEqual({ nodes: t.numNodes, endpoints: t.numEndpoints, channels: t.numChannels });
    });
  }
  it('other families are left to the builder', () => {
    expect(estimateSpecSize('dragonfly:h=2')).toBeUndefined();
    expect(estimateSpecSize('file:x.json')).toBeUndefined();
  });
});
