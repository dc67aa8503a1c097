/**
 * Binary hypercube `hypercube:D`: 2^D nodes, node v linked to v XOR 2^d in every dimension d.
 * Both directions of a dimension-d link carry class "d<d>". The node id's bits are its coordinates
 * (not stored, to keep 2^22-node cubes small).
 */
import { InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { positionalInt } from './ring.js';

export function hypercube(d: number, link?: LinkAttributes, specText?: string): Topology {
  if (!Number.isInteger(d) || d < 1) throw new InputError('hypercube.d', d, 'an integer >= 1');
  // Check before computing 2^d: 2^40 nodes must be refused, not attempted.
  if (d > 30) checkSize('hypercube.d', 2 ** d, d * 2 ** d);
  const nodes = 1 << d;
  checkSize('hypercube.d', nodes, nodes * d);
  const b = new TopologyBuilder(0, { nodes, channels: nodes * d }, link);
  b.addNodes(NodeKind.Terminal, nodes);
  for (let v = 0; v < nodes; v++) {
    for (let k = 0; k < d; k++) b.addChannel(v, v ^ (1 << k), `d${k}`);
  }
  return b.build({
    family: 'hypercube',
    spec: specText ?? `hypercube:${d}`,
    params: { d, nodes, bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'router-hops',
    // v -> v XOR t is an automorphism for every t.
    symmetry: { reason: 'hypercube is vertex-transitive (XOR translation)', classes: [{ rank: 0, count: nodes }] },
  });
}

export const hypercubeFamily: TopologyFamily = {
  name: 'hypercube',
  usage: 'hypercube:D[,bw=25Gbps,lat=100ns]',
  description: 'binary D-cube: 2^D nodes of degree D',
  build(spec: Spec, link: LinkAttributes): Topology {
    return hypercube(positionalInt(spec, 'd', { min: 1, max: 64 }), link, spec.text);
  },
  grid(t: Topology) {
    const d = t.params.d as number;
    return t.numNodes === 2 ** d && d >= 1 ? { dims: new Array<number>(d).fill(2), wrap: false, label: 'hypercube' } : undefined;
  },
  lowestPortIsDeadlockFree: true,
};
