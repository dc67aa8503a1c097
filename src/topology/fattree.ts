/**
 * k-ary n-tree `fattree:k=K,levels=L` (Petrini & Vanneschi): K^L terminals and L levels of K^(L−1)
 * switches. Terminal t hangs off level-0 switch floor(t/K). Switch w of level l (w an (L−1)-digit
 * base-K number, digit 0 least significant) links to the K switches of level l+1 that equal w in
 * every digit except digit l. So a level-l switch spans K^(l+1) consecutive terminals, and two
 * terminals whose lowest common ancestor is at level l are 2l+1 switches apart (Table 1 of seed 004
 * counts 2l−1 with levels numbered from 1). Classes: "up" (towards the roots) and "down".
 * Top-level switches keep their K up-ports unused. `fattree:k=2,levels=10` is seed 004's FT (1024×10).
 */
import { InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { terminalOnly } from './metrics/partitions.js';

export interface FatTreeOptions {
  k: number;
  levels: number;
  /**
   * Oversubscription at the edge: links between level-0 and level-1 switches get 1/taper of the link
   * bandwidth (a 2:1 tapered tree for taper = 2). Default 1 (full bisection).
   */
  taper?: number;
  link?: LinkAttributes;
  spec?: string;
}

export function fatTree(opts: FatTreeOptions): Topology {
  const { k, levels } = opts;
  const taper = opts.taper ?? 1;
  if (!(Number.isFinite(taper) && taper >= 1)) throw new InputError('fattree.taper', taper, 'a number >= 1 (edge oversubscription, e.g. 2 for 2:1)');
  if (!Number.isInteger(k) || k < 2) throw new InputError('fattree.k', k, 'an integer >= 2');
  if (!Number.isInteger(levels) || levels < 1) throw new InputError('fattree.levels', levels, 'an integer >= 1');
  const terminals = k ** levels;
  const perLevel = k ** (levels - 1);
  const nodes = terminals + levels * perLevel;
  // Terminal links (2 per terminal) plus K up-links per switch below the top, each both ways.
  const channels = 2 * terminals + 2 * (levels - 1) * perLevel * k;
  checkSize('fattree', nodes, channels);
  const b = new TopologyBuilder(2, { nodes, channels }, opts.link);
  for (let t = 0; t < terminals; t++) b.addNode(NodeKind.Terminal, [t, -1]);
  const switchId = (level: number, w: number): number => terminals + level * perLevel + w;
  for (let level = 0; level < levels; level++) {
    for (let w = 0; w < perLevel; w++) b.addNode(NodeKind.Switch, [w, level]);
  }
  for (let t = 0; t < terminals; t++) b.addLink(t, switchId(0, Math.floor(t / k)), 'up', 'down');
  const edgeLink = { bandwidth: b.defaultBandwidth / taper };
  for (let level = 0; level + 1 < levels; level++) {
    const digit = k ** level;
    const attrs = level === 0 ? edgeLink : {};
    for (let w = 0; w < perLevel; w++) {
      const base = w - (Math.floor(w / digit) % k) * digit;
      for (let j = 0; j < k; j++) b.addLink(switchId(level, w), switchId(level + 1, base + j * digit), 'up', 'down', attrs);
    }
  }
  return b.build({
    family: 'fattree',
    spec: opts.spec ?? `fattree:k=${k},levels=${levels}${taper !== 1 ? `,taper=${taper}` : ''}`,
    params: { k, levels, taper, terminals, switches: levels * perLevel, bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'switches-traversed',
    // Permuting the digits' values independently per subtree is an automorphism; it maps any
    // terminal onto any other.
    symmetry: { reason: 'k-ary n-tree terminals are equivalent (subtree permutations)', classes: [{ rank: 0, count: terminals }] },
  });
}

export const fatTreeFamily: TopologyFamily = {
  name: 'fattree',
  aliases: ['fat-tree', 'kary-ntree'],
  usage: 'fattree:k=K,levels=L[,taper=1,bw=25Gbps,lat=100ns]',
  description: 'k-ary n-tree: K^L terminals, L levels of K^(L-1) switches with K up and K down ports; taper=T oversubscribes the edge T:1',
  build(spec: Spec, link: LinkAttributes): Topology {
    const k = spec.int('k', { min: 2, max: 1 << 12 });
    const levels = spec.int('levels', { min: 1, max: 64, aliases: ['n'] });
    const taper = spec.number('taper', { min: 1, default: 1 });
    return fatTree({ k, levels, taper, link, spec: spec.text });
  },
  defaultRouting: 'updown',
  // BookSim's fattree.cpp numbers the top level's routers first; the leaves come first here.
  booksimRouterOrder: (t) => {
    const { k, levels } = t.params as { k: number; levels: number };
    const terminals = k ** levels;
    const perLevel = k ** (levels - 1);
    const order = new Int32Array(t.numNodes);
    let n = 0;
    for (let v = 0; v < terminals; v++) order[n++] = v;
    for (let level = levels - 1; level >= 0; level--) for (let w = 0; w < perLevel; w++) order[n++] = terminals + level * perLevel + w;
    return order;
  },
  kAryTree: (t) => {
    const { k, levels } = t.params as { k: number; levels: number };
    return { k, levels };
  },
  // BookSim's fattree uses `nca`: a random up-port per packet.
  booksimRouting: 'nca',
  // A k-ary n-tree has full bisection: no balanced split cuts fewer than the N/2 terminal links.
  // Tapered, the edge links are the narrower cut: no closed form is claimed (the bound is labelled).
  bisectionCut: (t) =>
    t.numEndpoints % 2 === 0 && (t.params as { taper?: number }).taper === 1 ? { side: terminalOnly(t), method: 'closed form (k-ary n-tree: full bisection, N/2 terminal links)' } : undefined,
};
