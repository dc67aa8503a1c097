/**
 * TopologyBuilder is public API (src/index.ts): a JavaScript caller building a custom network gets
 * one InputError line naming the field for what the typed columns would otherwise truncate or keep
 * silently (a fractional or missing node id, a self-loop, a NaN bandwidth, a repeated endpoint).
 */
import { describe, expect, it } from 'vitest';
import { InputError, LimitError, NodeKind, TopologyBuilder } from '../../src/index.js';

function twoNodes(): TopologyBuilder {
  const b = new TopologyBuilder();
  b.addNodes(NodeKind.Terminal, 2);
  return b;
}

describe('TopologyBuilder refuses what it cannot store', () => {
  it('builds the valid two-node link it is given (the checks refuse nothing valid)', () => {
    const b = twoNodes();
    b.addLink(0, 1, 'wire', 'wire', { bandwidth: 1e9, latency: 0 });
    const t = b.build({ family: 'custom', spec: 'custom', params: {}, distanceConvention: 'router-hops' });
    expect(t.numChannels).toBe(2);
    expect(Array.from(t.endpoints)).toEqual([0, 1]);
  });

  it.each([
    ['a fractional node id', (b: TopologyBuilder) => b.addChannel(0, 0.5, 'x'), /channel to: got 0\.5; accepted: a node id from 0 to 1/],
    ['a node not added yet', (b: TopologyBuilder) => b.addChannel(2, 0, 'x'), /channel from: got 2; accepted: a node id from 0 to 1/],
    ['a self-loop', (b: TopologyBuilder) => b.addChannel(1, 1, 'x'), /channel to: got 1; accepted: a node other than its from \(1\)/],
    ['a NaN bandwidth', (b: TopologyBuilder) => b.addChannel(0, 1, 'x', { bandwidth: Number.NaN }), /channel bandwidth: got NaN; accepted: a finite number of bytes\/s > 0/],
    ['a zero bandwidth', (b: TopologyBuilder) => b.addLink(0, 1, 'x', 'x', { bandwidth: 0 }), /channel bandwidth: got 0/],
    ['a negative latency', (b: TopologyBuilder) => b.addChannel(0, 1, 'x', { latency: -1e-9 }), /channel latency: got -1e-9; accepted: a finite number of seconds ≥ 0/],
    ['a repeated endpoint', (b: TopologyBuilder) => b.setEndpoints([1, 1]), /endpoints\[1\]: got 1; accepted: a node not listed before/],
    ['an endpoint that is no node', (b: TopologyBuilder) => b.setEndpoints([0, 7]), /endpoints\[1\]: got 7/],
    ['a fractional node count', (b: TopologyBuilder) => b.addNodes(NodeKind.Switch, 2.5), /node count: got 2\.5; accepted: a whole number ≥ 0/],
    ['an unknown node kind', (b: TopologyBuilder) => b.addNode(7 as NodeKind), /node kind: got 7/],
    ['coordinates on a builder without them', (b: TopologyBuilder) => b.setCoords(0, [1]), /coordinates: .*coordDims 0/],
  ])('%s', (_label, act, message) => {
    const b = twoNodes();
    expect(() => act(b)).toThrow(InputError);
    expect(() => act(twoNodes())).toThrow(message);
  });

  it('a default link of no bandwidth is refused when the builder is made', () => {
    expect(() => new TopologyBuilder(0, {}, { bandwidth: -1 })).toThrow(/default bandwidth: got -1; accepted: a finite number of bytes\/s > 0/);
    expect(() => new TopologyBuilder(0, {}, { latency: Infinity })).toThrow(/default latency: got Infinity/);
  });

  it('a node count past the limit is refused before any node is added', () => {
    const b = twoNodes();
    expect(() => b.addNodes(NodeKind.Terminal, 2 ** 30)).toThrow(LimitError);
    expect(b.nodes).toBe(2);
  });
});
