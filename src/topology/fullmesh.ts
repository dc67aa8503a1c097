/**
 * Fully connected network `fullmesh:N[,mult=M]` (seed 001): every node has a direct link to each of
 * the N−1 others, M parallel channels per ordered pair (link multiplicity), class "direct".
 * Channels leave node u in destination order (u+1, u+2, ... mod N), copy-major within a destination.
 */
import { InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { idHalves } from './metrics/partitions.js';
import { positionalInt } from './ring.js';

export function fullmesh(n: number, mult = 1, link?: LinkAttributes, specText?: string): Topology {
  if (!Number.isInteger(n) || n < 2) throw new InputError('fullmesh.n', n, 'an integer >= 2');
  if (!Number.isInteger(mult) || mult < 1) throw new InputError('fullmesh.mult', mult, 'an integer >= 1');
  const channels = n * (n - 1) * mult;
  checkSize('fullmesh.n', n, channels);
  const b = new TopologyBuilder(0, { nodes: n, channels }, link);
  b.addNodes(NodeKind.Terminal, n);
  for (let u = 0; u < n; u++) {
    for (let step = 1; step < n; step++) {
      for (let copy = 0; copy < mult; copy++) b.addChannel(u, (u + step) % n, 'direct');
    }
  }
  return b.build({
    family: 'fullmesh',
    spec: specText ?? (mult === 1 ? `fullmesh:${n}` : `fullmesh:${n},mult=${mult}`),
    params: { n, mult, bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'router-hops',
    symmetry: { reason: 'complete graph is vertex-transitive', classes: [{ rank: 0, count: n }] },
  });
}

export const fullmeshFamily: TopologyFamily = {
  name: 'fullmesh',
  usage: 'fullmesh:N[,mult=1,bw=25Gbps,lat=100ns]',
  description: 'complete graph: N−1 links per node, mult parallel channels per pair (seed 001)',
  build(spec: Spec, link: LinkAttributes): Topology {
    const n = positionalInt(spec, 'n', { min: 2 });
    const mult = spec.int('mult', { min: 1, max: 1 << 16, default: 1 });
    return fullmesh(n, mult, link, spec.text);
  },
  defaultRouting: 'direct',
  bisectionCut: (t) =>
    t.numEndpoints === t.numNodes ? { side: idHalves(t), method: 'closed form (fullmesh: every balanced split cuts the same links)' } : undefined,
};
