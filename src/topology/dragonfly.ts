/**
 * Dragonfly `dragonfly:a=A,p=P,h=H,g=G` (Kim, Dally, Scott, Abts 2008): G groups of A routers;
 * each router has P terminals, A−1 local links (full mesh inside the group) and H global links.
 * Defaults: p = h, a = 2h, g = a·h + 1 (the largest balanced size: one global link per group pair).
 *
 * Global links, balanced canonical arrangement: a group's global ports are numbered i = r·H + k
 * (router r, its k-th global port), 0 <= i < A·H. With q = i mod (G−1) and copy c = floor(i/(G−1)),
 * port i of group x links to group (x + q + 1) mod G, at that group's port c·(G−1) + (G−2−q).
 * Every pair of groups gets A·H/(G−1) links (so G−1 must divide A·H), and for G = A·H+1 this is the
 * usual "palmtree" arrangement (port i <-> port A·H−1−i of the group i+1 ahead).
 *
 * `wiring=simgrid` (h = 1, 2 <= g <= a): SimGrid's DragonflyZone with one chassis per group: router y
 * of group x holds the one link to group y, arriving at router x of group y (router x of group x has
 * none), so a SimGrid DRAGONFLY cluster "g,1;1,1;a,1;p" maps one to one (interop/simgrid.ts).
 *
 * Node ids: terminals first (rank = (x·A + r)·P + t), then routers x·A + r. Classes: "terminal"
 * (both directions of a terminal link), "local", "global".
 */
import { InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, SourceClasses, Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';

export type DragonflyWiring = 'palmtree' | 'booksim' | 'simgrid';
export const DRAGONFLY_WIRINGS: readonly DragonflyWiring[] = ['palmtree', 'booksim', 'simgrid'];

/**
 * BookSim `dragonflynew` global wiring: port i of group x leads to group y = i (i < x) or i + 1,
 * arriving at y's port x − 1 (x > y) or x. Returns [group offset, peer port].
 */
function booksimGlobalPeer(x: number, i: number): [number, number] {
  const y = i < x ? i : i + 1;
  return [y, x > y ? x - 1 : x];
}

/**
 * Balanced palmtree: global port i of group x leads to group (x + q + 1) mod g, q = i mod (g−1),
 * arriving at its port c·(g−1) + (g−2−q), c = floor(i/(g−1)). Returns [group, peer port].
 */
export function palmtreePeer(x: number, i: number, g: number): [number, number] {
  const q = i % (g - 1);
  const c = Math.floor(i / (g - 1));
  return [(x + q + 1) % g, c * (g - 1) + (g - 2 - q)];
}

export interface DragonflyOptions {
  /** Global links per router. */
  h: number;
  /** Routers per group (default 2h, as in the spec `dragonfly:h=H`). */
  a?: number;
  /** Terminals per router (default h). */
  p?: number;
  /** Groups (default a·h + 1: the largest balanced size). */
  g?: number;
  /** Global wiring: `palmtree` (balanced, default) or `booksim` (BookSim `dragonflynew`, needs g = a·h + 1). */
  wiring?: DragonflyWiring;
  link?: LinkAttributes;
  spec?: string;
}

/** The spec's defaults (module comment), one place for `dragonfly:h=2` and `dragonfly({ h: 2 })`. */
function dragonflyDefaults(h: number, given: { a?: number; p?: number; g?: number }): { a: number; p: number; g: number } {
  const a = given.a ?? Math.max(1, 2 * h);
  return { a, p: given.p ?? Math.max(1, h), g: given.g ?? a * h + 1 };
}

export function dragonfly(opts: DragonflyOptions): Topology {
  const h = opts.h;
  if (!Number.isInteger(h) || h < 0) throw new InputError('dragonfly.h', h, 'an integer >= 0');
  // Issue 28 item 23: the library threw `dragonfly.a: got (nothing)` where the spec applied defaults.
  const { a, p, g } = dragonflyDefaults(h, opts);
  const wiring = opts.wiring ?? 'palmtree';
  if (!DRAGONFLY_WIRINGS.includes(wiring)) throw new InputError('dragonfly.wiring', wiring, DRAGONFLY_WIRINGS.join(' | '));
  if (wiring === 'booksim' && g !== a * h + 1) throw new InputError('dragonfly.g', g, `a·h + 1 = ${a * h + 1} with wiring=booksim (one global link per group pair)`);
  for (const [key, value, min] of [['a', a, 1], ['p', p, 1], ['h', h, 0], ['g', g, 1]] as const) {
    if (!Number.isInteger(value) || value < min) throw new InputError(`dragonfly.${key}`, value, `an integer >= ${min}`);
  }
  const ports = a * h;
  if (wiring === 'simgrid') {
    // SimGrid's DragonflyZone: one link per pair of groups, held by router y of group x for group y.
    if (h !== 1) throw new InputError('dragonfly.h', h, '1 with wiring=simgrid (one global link per router at most)');
    if (g < 2 || g > a) throw new InputError('dragonfly.g', g, `2 to a = ${a} groups with wiring=simgrid (router y of a group holds its link to group y)`);
  } else if (g > ports + 1) throw new InputError('dragonfly.g', g, `at most a·h + 1 = ${ports + 1} groups`);
  if (wiring !== 'simgrid' && g > 1 && ports % (g - 1) !== 0) {
    throw new InputError('dragonfly.g', g, `g − 1 dividing a·h = ${ports} (balanced: equal links between every pair of groups)`);
  }
  if (g === 1 && h > 0) throw new InputError('dragonfly.h', h, '0 when there is a single group (no global links)');
  const routers = g * a;
  const terminals = routers * p;
  const globals = wiring === 'simgrid' ? g * (g - 1) : g > 1 ? routers * h : 0;
  const channels = 2 * terminals + routers * (a - 1) + globals;
  checkSize('dragonfly', terminals + routers, channels);
  const b = new TopologyBuilder(3, { nodes: terminals + routers, channels }, opts.link);
  for (let x = 0; x < g; x++) for (let r = 0; r < a; r++) for (let t = 0; t < p; t++) b.addNode(NodeKind.Terminal, [x, r, t]);
  for (let x = 0; x < g; x++) for (let r = 0; r < a; r++) b.addNode(NodeKind.Switch, [x, r, -1]);
  const router = (x: number, r: number): number => terminals + x * a + r;
  for (let v = 0; v < routers; v++) {
    for (let t = 0; t < p; t++) b.addLink(v * p + t, terminals + v, 'terminal');
  }
  // Each router's out-ports: local ones in router order, then its global ones in port order.
  for (let x = 0; x < g; x++) {
    for (let r = 0; r < a; r++) {
      for (let other = 0; other < a; other++) if (other !== r) b.addChannel(router(x, r), router(x, other), 'local');
      if (g === 1) continue;
      if (wiring === 'simgrid') {
        if (r < g && r !== x) b.addChannel(router(x, r), router(r, x), 'global');
        continue;
      }
      for (let k = 0; k < h; k++) {
        const i = r * h + k;
        if (wiring === 'booksim') {
          const [y, peerPort] = booksimGlobalPeer(x, i);
          b.addChannel(router(x, r), router(y, Math.floor(peerPort / h)), 'global');
          continue;
        }
        const [y, peerPort] = palmtreePeer(x, i, g);
        b.addChannel(router(x, r), router(y, Math.floor(peerPort / h)), 'global');
      }
    }
  }
  return b.build({
    family: 'dragonfly',
    spec: opts.spec ?? `dragonfly:a=${a},p=${p},h=${h},g=${g}${wiring === 'palmtree' ? '' : `,wiring=${wiring}`}`,
    params: {
      a, p, h, g, terminals, routers, wiring,
      globalArrangement: {
        booksim: 'BookSim dragonflynew: port i of group x -> group i (i < x) or i + 1',
        palmtree: 'balanced palmtree: port i of group x -> group x + (i mod (g-1)) + 1',
        simgrid: 'SimGrid DragonflyZone: router y of group x -> router x of group y',
      }[wiring],
      linksPerGroupPair: wiring === 'simgrid' ? 1 : g > 1 ? ports / (g - 1) : 0,
      bandwidth: b.defaultBandwidth, latency: b.defaultLatency,
    },
    distanceConvention: 'switches-traversed',
    // The palmtree arrangement depends only on group offsets; BookSim's does not (no rotation symmetry).
    symmetry: wiring === 'palmtree' ? dragonflySymmetry(a, p, g) : undefined,
  });
}

/**
 * Group rotation x -> x+1 is an automorphism (the arrangement depends only on group offsets), and so
 * is the reflection x -> −x, r -> a−1−r, k -> h−1−k (it maps port i to a·h−1−i and the link
 * (x, q, c) onto (−x, g−2−q, C−1−c), whose far end is the image of the original far end). Terminals
 * of one router are interchangeable. Routers r and a−1−r therefore share a class; other routers of a
 * group need not be equivalent (two-global-hop paths through a third group depend on r), so each
 * pair {r, a−1−r} is its own class.
 */
function dragonflySymmetry(a: number, p: number, g: number): SourceClasses {
  const classes: { rank: number; count: number }[] = [];
  for (let r = 0; r <= a - 1 - r; r++) classes.push({ rank: r * p, count: (r === a - 1 - r ? 1 : 2) * g * p });
  return { reason: 'group rotation and reflection r -> a-1-r; terminals of a router are interchangeable', classes };
}

/**
 * BookSim's dragonflynew ports (dragonfly.cpp _BuildNet): terminals, then local, then global, each
 * by source router; outputs are the topology's. The topology lists a router's inputs by source
 * alone, so a global link from a lower group came before the local ones.
 */
function dragonflyPorts(t: Topology): { inPort: Int32Array; outPort: Int32Array } {
  const inPort = new Int32Array(t.numChannels);
  for (let v = 0; v < t.numNodes; v++) {
    const ins = Array.from(t.inChannels.subarray(t.inStart[v], t.inStart[v + 1]));
    ins.sort((x, y) => t.chClass[x] - t.chClass[y] || t.chDstPort[x] - t.chDstPort[y]);
    ins.forEach((c, port) => (inPort[c] = port));
  }
  return { inPort, outPort: Int32Array.from(t.chSrcPort) };
}

export const dragonflyFamily: TopologyFamily = {
  name: 'dragonfly',
  usage: 'dragonfly:h=H[,a=2h,p=h,g=a·h+1,wiring=palmtree|booksim|simgrid,bw=25Gbps,lat=100ns]',
  description: 'dragonfly: g groups of a routers (full mesh inside), p terminals and h global links per router, balanced palmtree arrangement',
  build(spec: Spec, link: LinkAttributes): Topology {
    const h = spec.int('h', { min: 0, max: 1 << 16 });
    const a = spec.int('a', { min: 1, max: 1 << 16, default: dragonflyDefaults(h, {}).a });
    const p = spec.int('p', { min: 1, max: 1 << 16, default: dragonflyDefaults(h, { a }).p });
    const g = spec.int('g', { min: 1, max: 1 << 24, default: dragonflyDefaults(h, { a }).g });
    const wiring = (spec.raw('wiring') ?? 'palmtree') as DragonflyWiring;
    if (!DRAGONFLY_WIRINGS.includes(wiring)) throw new InputError(spec.field('wiring'), wiring, DRAGONFLY_WIRINGS.join(' | '));
    return dragonfly({ a, p, h, g, wiring, link, spec: spec.text });
  },
  defaultRouting: 'minimal',
  // BookSim's DRAGON_LATENCY and `min` on dragonflynew (local, global, local over the direct group link).
  booksimChannelLatency: { local: 10, global: 100, terminal: 1 },
  booksimRouting: 'group-direct',
  booksimInjectionVc: 'random',
  booksimPorts: dragonflyPorts,
};
