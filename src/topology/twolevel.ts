/**
 * Two-level switch network `twolevel:leaves=S,hosts=m,spines=K,uplinks=U` (seed 003, spec part B):
 * S leaf switches with m hosts (terminals) each; every leaf has U uplinks spread over K spine
 * switches, uplink j of leaf s going to spine (s + j) mod K. With U a multiple of K every leaf has
 * U/K parallel links to every spine; otherwise consecutive leaves use overlapping spine windows.
 * Defaults: uplinks = hosts (constant bisection bandwidth: a leaf's uplink capacity equals its
 * hosts' injection capacity) and spines = uplinks.
 *
 * Ranks: host h of leaf s is rank s·m + h. Node ids: hosts, then leaves, then spines.
 * Classes: "host-up"/"host-down" (host<->leaf) and "up"/"down" (leaf<->spine).
 */
import { InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, SourceClasses, Topology } from './graph.js';
import type { BisectionCut, TopologyFamily } from './registry.js';
import { cutOf, terminalOnly } from './metrics/partitions.js';

export interface TwoLevelOptions {
  leaves: number;
  hosts: number;
  spines?: number;
  uplinks?: number;
  link?: LinkAttributes;
  spec?: string;
}

export function twoLevel(opts: TwoLevelOptions): Topology {
  const { leaves: S, hosts: m } = opts;
  const U = opts.uplinks ?? m;
  const K = opts.spines ?? U;
  for (const [key, value] of [['leaves', S], ['hosts', m], ['uplinks', U], ['spines', K]] as const) {
    if (!Number.isInteger(value) || value < 1) throw new InputError(`twolevel.${key}`, value, 'an integer >= 1');
  }
  // Connectivity: windows (s..s+U-1) mod K of consecutive leaves overlap only if U >= 2, and the
  // windows must reach every spine, otherwise the network falls apart or has idle spines.
  if (K > 1 && U < 2 && S > 1) throw new InputError('twolevel.uplinks', U, 'at least 2 when there are several leaves and spines (else the leaves are disconnected)');
  if (S + U - 1 < K && U < K) throw new InputError('twolevel.spines', K, `at most leaves + uplinks − 1 = ${S + U - 1} (else some spines get no link)`);
  const hosts = S * m;
  const nodes = hosts + S + K;
  const channels = 2 * hosts + 2 * S * U;
  checkSize('twolevel', nodes, channels);
  const b = new TopologyBuilder(0, { nodes, channels }, opts.link);
  b.addNodes(NodeKind.Terminal, hosts);
  const leaf0 = b.addNodes(NodeKind.Switch, S);
  const spine0 = b.addNodes(NodeKind.Switch, K);
  for (let s = 0; s < S; s++) {
    for (let h = 0; h < m; h++) b.addLink(s * m + h, leaf0 + s, 'host-up', 'host-down');
  }
  for (let s = 0; s < S; s++) {
    for (let j = 0; j < U; j++) b.addLink(leaf0 + s, spine0 + ((s + j) % K), 'up', 'down');
  }
  return b.build({
    family: 'twolevel',
    spec: opts.spec ?? `twolevel:leaves=${S},hosts=${m},spines=${K},uplinks=${U}`,
    params: {
      leaves: S, hosts: m, spines: K, uplinks: U, terminals: hosts,
      spreading: 'uplink j of leaf s -> spine (s + j) mod spines',
      constantBisection: U === m,
      bandwidth: b.defaultBandwidth, latency: b.defaultLatency,
    },
    distanceConvention: 'switches-traversed',
    symmetry: twoLevelSymmetry(S, m, K, U),
  });
}

/**
 * Hosts of one leaf are interchangeable. Leaves are interchangeable when U is a multiple of K
 * (every leaf has the same links to every spine), or when K divides S: then leaf s -> s+1 (mod S)
 * with spine k -> k+1 (mod K) maps window (s+j) onto window (s+1+j) and, at the wrap, leaf S−1 onto
 * leaf 0 whose window starts at S mod K = 0. Otherwise the leaves may differ and nothing is declared.
 */
function twoLevelSymmetry(S: number, m: number, K: number, U: number): SourceClasses | undefined {
  if (U % K !== 0 && S % K !== 0) return undefined;
  return {
    reason: U % K === 0 ? 'every leaf links equally to every spine' : 'leaf rotation with spine rotation (spines divide leaves)',
    classes: [{ rank: 0, count: S * m }],
  };
}

export const twoLevelFamily: TopologyFamily = {
  name: 'twolevel',
  aliases: ['two-level'],
  usage: 'twolevel:leaves=S,hosts=m[,uplinks=m,spines=uplinks,bw=25Gbps,lat=100ns]',
  description: 'two-level leaf/spine switch network of seed 003; constant bisection when uplinks = hosts',
  build(spec: Spec, link: LinkAttributes): Topology {
    const leaves = spec.int('leaves', { min: 1, max: 1 << 24 });
    const hosts = spec.int('hosts', { min: 1, max: 1 << 24 });
    const uplinks = spec.int('uplinks', { min: 1, max: 1 << 24, default: hosts });
    const spines = spec.int('spines', { min: 1, max: 1 << 24, default: uplinks });
    return twoLevel({ leaves, hosts, spines, uplinks, link, spec: spec.text });
  },
  defaultRouting: 'updown',
  bisectionCut: twoLevelBisection,
};

/**
 * Node ids: hosts, then leaves, then spines; host h of leaf s is node s·m + h. With an even number
 * of leaves and every leaf linked U/K times to every spine, the bisection is the smaller of the
 * hosts' links (S·m/2) and the leaf halves' uplinks (S·U/2).
 */
function twoLevelBisection(t: Topology): BisectionCut | undefined {
  const { leaves: S, hosts: m, spines: K, uplinks: U } = t.params as Record<string, number>;
  if (![S, m, K, U].every(Number.isInteger) || S % 2 !== 0 || U % K !== 0 || t.numNodes !== S * m + S + K) return undefined;
  const halves = new Uint8Array(t.numNodes).fill(1);
  for (let v = 0; v < (S / 2) * m; v++) halves[v] = 0;
  for (let s = 0; s < S / 2; s++) halves[S * m + s] = 0;
  for (let k = 0; k < K / 2; k++) halves[S * m + S + k] = 0;
  const hosts = terminalOnly(t);
  return cutOf(t, halves).channels <= cutOf(t, hosts).channels
    ? { side: halves, method: 'closed form (two-level, uniform uplinks: half the leaves with their hosts, S·U/2 uplinks)' }
    : { side: hosts, method: 'closed form (two-level, uniform uplinks: S·m/2 host links)' };
}
