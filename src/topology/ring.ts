/**
 * Rings: `ring:N` (bidirectional, classes "ring+" and "ring-") and `uring:N` (unidirectional,
 * class "ring"). Node i sits at coordinate i; "+" goes from i to i+1 mod N.
 */
import { InputError } from '../util/errors.js';
import { parseIntValue, Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, MAX_NODES, TopologyBuilder } from './builder.js';
import { NodeKind, Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { idHalves } from './metrics/partitions.js';

export interface RingOptions {
  n: number;
  bidirectional?: boolean;
  link?: LinkAttributes;
  spec?: string;
}

export function ring(opts: RingOptions): Topology {
  const { n } = opts;
  const bidirectional = opts.bidirectional ?? true;
  const family = bidirectional ? 'ring' : 'uring';
  if (!Number.isInteger(n) || n < 2) throw new InputError(`${family}.n`, n, 'an integer >= 2');
  // A 2-node ring has a single link (as a 2-ary torus dimension has); the ring closes only for n > 2.
  const links = n === 2 ? 1 : n;
  const channels = links * (bidirectional ? 2 : 1);
  checkSize(`${family}.n`, n, channels);
  const b = new TopologyBuilder(1, { nodes: n, channels }, opts.link);
  for (let i = 0; i < n; i++) b.addNode(NodeKind.Terminal, [i]);
  for (let i = 0; i < links; i++) {
    const next = (i + 1) % n;
    if (bidirectional) b.addLink(i, next, 'ring+', 'ring-');
    else b.addChannel(i, next, 'ring');
  }
  return b.build({
    family,
    spec: opts.spec ?? `${family}:${n}`,
    params: { n, bidirectional, bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'router-hops',
    // Rotation i -> i+1 is an automorphism of both rings.
    symmetry: { reason: `${family} is vertex-transitive (rotation)`, classes: [{ rank: 0, count: n }] },
  });
}

/** Reads a required positional count such as the N of ring:N, also accepted as n=N. */
export function positionalInt(spec: Spec, key: string, opts: { min: number; max?: number }): number {
  const named = spec.raw(key);
  if (spec.positional !== undefined && named !== undefined) {
    throw new InputError(spec.field(key), `${spec.positional} and ${key}=${named}`, `${key} given once, positionally or as ${key}=`);
  }
  const text = spec.positional ?? named;
  if (text === undefined) throw new InputError(spec.field(key), undefined, `an integer >= ${opts.min} (required), e.g. ${spec.family}:8`);
  return parseIntValue(text, spec.field(key), { min: opts.min, max: opts.max ?? MAX_NODES });
}

function ringFamily(bidirectional: boolean): TopologyFamily {
  const name = bidirectional ? 'ring' : 'uring';
  return {
    name,
    usage: `${name}:N[,bw=25Gbps,lat=100ns]`,
    description: bidirectional ? 'bidirectional ring of N nodes' : 'unidirectional ring of N nodes',
    build(spec: Spec, link: LinkAttributes): Topology {
      return ring({ n: positionalInt(spec, 'n', { min: 2 }), bidirectional, link, spec: spec.text });
    },
    bisectionCut: (t) => (t.numEndpoints === t.numNodes ? { side: idHalves(t), method: `closed form (${name}: two arcs of the ring)` } : undefined),
  };
}

export const ringFamilyBidirectional = ringFamily(true);
export const uringFamily = ringFamily(false);
