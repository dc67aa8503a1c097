/** GraphML import: Meshwork's own export reads back channel for channel; other tools' undirected graphs read as links. */
import { describe, expect, test } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import '../../src/topology/index.js';
import { exportGraphml } from '../../src/topology/export/index.js';
import { graphmlTopology } from '../../src/interop/graphml.js';

describe('graphml', () => {
  test.each(['torus:4x4,bw=25Gbps,lat=100ns', 'fattree:k=4,levels=2', 'dragonfly:h=1'])('%s: export then import gives the same channels, kinds and endpoints', (spec) => {
    const t = buildTopology(spec);
    const back = graphmlTopology(exportGraphml(t), {}, 'graphml:x');
    expect(Array.from(back.chSrc)).toEqual(Array.from(t.chSrc));
    expect(Array.from(back.chDst)).toEqual(Array.from(t.chDst));
    expect(Array.from(back.chBandwidth)).toEqual(Array.from(t.chBandwidth));
    expect(Array.from(back.chLatency)).toEqual(Array.from(t.chLatency));
    expect(Array.from(back.nodeKind)).toEqual(Array.from(t.nodeKind));
    expect(Array.from(back.endpoints)).toEqual(Array.from(t.endpoints));
  });

  test('an undirected graph from another tool (yEd-style keys): each edge is a link; missing attributes take bw= and lat=', () => {
    const xml = `<?xml version="1.0"?><graphml><key id="d0" for="edge" attr.name="bandwidth" attr.type="double"/>
      <graph edgedefault="undirected"><node id="a"/><node id="b"/><node id="c"/>
      <edge source="a" target="b"><data key="d0">1e9</data></edge><edge source="b" target="c"/></graph></graphml>`;
    const t = graphmlTopology(xml, { bandwidth: 5e9, latency: 2e-7 }, 'graphml:y');
    expect([t.numNodes, t.numChannels, t.numEndpoints]).toEqual([3, 4, 3]);
    expect(Array.from(t.chBandwidth)).toEqual([1e9, 1e9, 5e9, 5e9]);
    expect(Array.from(t.chLatency)).toEqual([2e-7, 2e-7, 2e-7, 2e-7]);
  });

  test.each([
    ['an edge to a missing node', '<graphml><graph><node id="a"/><edge source="a" target="z"/></graph></graphml>', 'graphml.edge[0].target: got "z"; accepted: the id of a <node>'],
    ['a bad kind', '<graphml><key id="k" attr.name="kind"/><graph><node id="a"><data key="k">router</data></node></graph></graphml>', 'graphml.node[0].kind: got "router"; accepted: terminal or switch'],
    ['malformed XML', '<graphml><graph><node id="a"></graph></graphml>', 'graphml: got "malformed XML (1:'],
  ])('%s is one line', (_what, xml, message) => {
    expect(() => graphmlTopology(xml, {}, 'graphml:z')).toThrow(message);
  });
});
