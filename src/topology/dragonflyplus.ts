/**
 * Dragonfly+ / Megafly `dragonflyplus:h=H[,spines=H,leaves=spines,p=spines,g=spines·h+1]`
 * (Shpiner, Haramaty, Eliad, Zdornov, Gafni, Zahavi, HOTI'17; Flajslik et al., ISC'18 "Megafly"):
 * g groups, each a two-level leaf–spine tree (every leaf linked to every spine of its group), p
 * terminals per leaf, h global links per spine, and the groups joined all-to-all through their
 * spines. Global links use the dragonfly's balanced palmtree over spine ports i = s·h + k, so g − 1
 * must divide spines·h. Defaults are the balanced radix-2h router: h up/global and h down ports per
 * spine, h spines and h leaves per group, h terminals per leaf, and the largest group count.
 *
 * Node ids: terminals (rank = (x·leaves + l)·p + t), then leaves x·leaves + l, then spines
 * x·spines + s. Classes: `terminal`, `up` (leaf → spine), `down` (spine → leaf), `global`.
 * Distances count switches: 1 on one leaf, 3 inside a group, 4 between groups (leaf, spine, spine, leaf).
 */
import { InputError } from '../util/errors.js';
import type { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { palmtreePeer } from './dragonfly.js';
import { NodeKind, Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';

export interface DragonflyPlusOptions {
  h: number;
  spines: number;
  leaves: number;
  p: number;
  g: number;
  link?: LinkAttributes;
  spec?: string;
}

export function dragonflyPlus(opts: DragonflyPlusOptions): Topology {
  const { h, spines, leaves, p, g } = opts;
  for (const [key, value, min] of [['h', h, 1], ['spines', spines, 1], ['leaves', leaves, 1], ['p', p, 1], ['g', g, 2]] as const) {
    if (!Number.isInteger(value) || value < min) throw new InputError(`dragonflyplus.${key}`, value, `an integer >= ${min}`);
  }
  const ports = spines * h;
  if (g > ports + 1) throw new InputError('dragonflyplus.g', g, `at most spines·h + 1 = ${ports + 1} groups`);
  if (ports % (g - 1) !== 0) throw new InputError('dragonflyplus.g', g, `g − 1 dividing spines·h = ${ports} (equal links between every pair of groups)`);
  const terminals = g * leaves * p;
  const routers = g * (leaves + spines);
  const channels = 2 * terminals + 2 * g * leaves * spines + g * ports;
  checkSize('dragonflyplus', terminals + routers, channels);
  const b = new TopologyBuilder(3, { nodes: terminals + routers, channels }, opts.link);
  for (let x = 0; x < g; x++) for (let l = 0; l < leaves; l++) for (let t = 0; t < p; t++) b.addNode(NodeKind.Terminal, [x, l, t]);
  for (let x = 0; x < g; x++) for (let l = 0; l < leaves; l++) b.addNode(NodeKind.Switch, [x, l, -1]);
  for (let x = 0; x < g; x++) for (let s = 0; s < spines; s++) b.addNode(NodeKind.Switch, [x, leaves + s, -1]);
  const leaf = (x: number, l: number): number => terminals + x * leaves + l;
  const spine = (x: number, s: number): number => terminals + g * leaves + x * spines + s;
  for (let x = 0; x < g; x++) for (let l = 0; l < leaves; l++) for (let t = 0; t < p; t++) b.addLink((x * leaves + l) * p + t, leaf(x, l), 'terminal');
  for (let x = 0; x < g; x++) for (let l = 0; l < leaves; l++) for (let s = 0; s < spines; s++) b.addLink(leaf(x, l), spine(x, s), 'up', 'down');
  for (let x = 0; x < g; x++) {
    for (let s = 0; s < spines; s++) {
      for (let k = 0; k < h; k++) {
        const [y, peerPort] = palmtreePeer(x, s * h + k, g);
        b.addChannel(spine(x, s), spine(y, Math.floor(peerPort / h)), 'global');
      }
    }
  }
  return b.build({
    family: 'dragonflyplus',
    spec: opts.spec ?? `dragonflyplus:h=${h},spines=${spines},leaves=${leaves},p=${p},g=${g}`,
    params: {
      h, spines, leaves, p, g, terminals, routers,
      globalArrangement: 'balanced palmtree over spine ports i = s*h + k',
      linksPerGroupPair: ports / (g - 1),
      bandwidth: b.defaultBandwidth, latency: b.defaultLatency,
    },
    distanceConvention: 'switches-traversed',
    // Leaves of a group are interchangeable (each is linked to every spine of its group) and the
    // palmtree is invariant under group rotation: every terminal is equivalent.
    symmetry: { reason: 'group rotation; leaves of a group and terminals of a leaf are interchangeable', classes: [{ rank: 0, count: terminals }] },
  });
}

export const dragonflyPlusFamily: TopologyFamily = {
  name: 'dragonflyplus',
  aliases: ['dragonfly+', 'megafly'],
  usage: 'dragonflyplus:h=H[,spines=h,leaves=spines,p=spines,g=spines·h+1,bw=25Gbps,lat=100ns]',
  description: 'Dragonfly+ / Megafly: leaf-spine groups, h global links per spine, groups joined all-to-all through spines',
  build(spec: Spec, link: LinkAttributes): Topology {
    const h = spec.int('h', { min: 1, max: 1 << 12 });
    const spines = spec.int('spines', { min: 1, max: 1 << 12, default: h });
    const leaves = spec.int('leaves', { min: 1, max: 1 << 12, default: spines });
    const p = spec.int('p', { min: 1, max: 1 << 12, default: spines });
    const g = spec.int('g', { min: 2, max: 1 << 24, default: spines * h + 1 });
    return dragonflyPlus({ h, spines, leaves, p, g, link, spec: spec.text });
  },
  // Minimal routes go up, at most one global, down: the dragonfly's minimal routing (VC class =
  // global channels crossed) is deadlock free here too.
  defaultRouting: 'minimal',
};
