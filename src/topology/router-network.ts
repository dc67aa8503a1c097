/**
 * The common shape of direct router networks with concentration (HyperX, Slim Fly, PolarFly,
 * Jellyfish): R routers, p terminals on each, and a list of router-to-router links. Node ids:
 * terminals first (rank = r·p + t), then routers R0 = R·p + r. Each router's out-ports are its
 * terminal ports, then its network links in the order given, so port order follows link order.
 * Distances count switches traversed, as for the dragonfly.
 */
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, SourceClasses, Topology } from './graph.js';
import { resized } from '../util/typed-arrays.js';

export interface RouterLinks {
  /** Router pairs, flat: a0, b0, a1, b1, ... (each an undirected link, a channel each way). */
  readonly ends: Int32Array;
  /** Class index per link into `classNames` (default: every link class 0). */
  readonly classOf?: Uint16Array;
  readonly classNames: readonly string[];
}

export interface RouterNetworkOptions {
  family: string;
  spec: string;
  routers: number;
  /** Terminals per router. */
  p: number;
  links: RouterLinks;
  link?: LinkAttributes;
  params: Record<string, unknown>;
  /** Router coordinates (coordDims per router), copied onto the routers and their terminals. */
  coordDims?: number;
  coords?: (router: number, out: number[]) => void;
  /** Declared when every router is equivalent (vertex-transitive router graph); else one class per router. */
  vertexTransitive?: string;
}

/** Terminals of router r are interchangeable: one distance class per router, or one for all when the router graph is vertex-transitive. */
function routerClasses(routers: number, p: number, vertexTransitive: string | undefined): SourceClasses {
  if (vertexTransitive) return { reason: vertexTransitive, classes: [{ rank: 0, count: routers * p }] };
  return {
    reason: 'terminals of one router are interchangeable (one BFS per router)',
    classes: Array.from({ length: routers }, (_, r) => ({ rank: r * p, count: p })),
  };
}

export function routerNetwork(opts: RouterNetworkOptions): Topology {
  const { routers, p, links } = opts;
  const linkCount = links.ends.length / 2;
  const terminals = routers * p;
  checkSize(opts.family, terminals + routers, 2 * terminals + 2 * linkCount);
  const dims = opts.coordDims ?? 0;
  const b = new TopologyBuilder(dims, { nodes: terminals + routers, channels: 2 * terminals + 2 * linkCount }, opts.link);
  const coord: number[] = new Array<number>(dims).fill(0);
  for (let r = 0; r < routers; r++) {
    opts.coords?.(r, coord);
    for (let t = 0; t < p; t++) b.addNode(NodeKind.Terminal, dims ? coord : undefined);
  }
  for (let r = 0; r < routers; r++) {
    opts.coords?.(r, coord);
    b.addNode(NodeKind.Switch, dims ? coord : undefined);
  }
  for (let r = 0; r < routers; r++) for (let t = 0; t < p; t++) b.addLink(r * p + t, terminals + r, 'terminal');
  // Channels sorted by source router then link order, so every router's ports follow link order.
  const order = new Int32Array(2 * linkCount);
  const start = new Int32Array(routers + 1);
  for (let i = 0; i < 2 * linkCount; i++) {
    const v = links.ends[i];
    if (!(Number.isInteger(v) && v >= 0 && v < routers)) throw new Error(`${opts.family}: link end ${v} is not a router`);
    start[v + 1]++;
  }
  for (let r = 0; r < routers; r++) start[r + 1] += start[r];
  const fill = start.slice(0, routers);
  for (let i = 0; i < 2 * linkCount; i++) order[fill[links.ends[i]]++] = i;
  for (let k = 0; k < 2 * linkCount; k++) {
    const i = order[k];
    const from = links.ends[i];
    const to = links.ends[i ^ 1];
    if (from === to) throw new Error(`${opts.family}: self-loop at router ${from}`);
    b.addChannel(terminals + from, terminals + to, links.classNames[links.classOf?.[i >> 1] ?? 0]);
  }
  return b.build({
    family: opts.family,
    spec: opts.spec,
    params: { ...opts.params, p, routers, terminals, links: linkCount, bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'switches-traversed',
    symmetry: routerClasses(routers, p, opts.vertexTransitive),
  });
}

/** Growable flat list of router links. */
export class LinkList {
  private ends = new Int32Array(64);
  private cls = new Uint16Array(32);
  private count = 0;
  constructor(readonly classNames: readonly string[] = ['link']) {}

  add(a: number, b: number, classIndex = 0): void {
    if (2 * this.count + 2 > this.ends.length) {
      this.ends = resized(this.ends, this.ends.length * 2);
      this.cls = resized(this.cls, this.cls.length * 2);
    }
    this.ends[2 * this.count] = a;
    this.ends[2 * this.count + 1] = b;
    this.cls[this.count++] = classIndex;
  }

  get size(): number {
    return this.count;
  }

  done(): RouterLinks {
    return { ends: this.ends.slice(0, 2 * this.count), classOf: this.cls.slice(0, this.count), classNames: this.classNames };
  }
}

