/**
 * Topology families by name. A family is a descriptor: how to build it from a spec, and what the
 * rest of Meshwork needs to know about it without testing its name — its default routing, the
 * Cartesian grid behind closed-form metrics, its closed-form bisection cut, and so on. Every
 * built-in family is listed in builtin-families.ts and registered here when this module loads, so
 * whichever entry point is imported, every family is available.
 */
import { checkRegistryEntry, InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';
import type { LinkAttributes } from './builder.js';
import { explicitSelfRoute, type Loopback, type Topology } from './graph.js';
import { BUILTIN_FAMILIES } from './builtin-families.js';

/** A Cartesian product of paths (mesh) or cycles (torus) behind a topology; node id = x0 + k0·x1 + … */
export interface TopologyGrid {
  readonly dims: readonly number[];
  readonly wrap: boolean;
  /** Names the grid in method texts, e.g. "torus 8x8" or "hypercube". */
  readonly label: string;
}

/** A balanced partition of the nodes (0 or 1 per node) known to be a minimum bisection. */
export interface BisectionCut {
  readonly side: Uint8Array;
  /** Why it is optimal, recorded as the metric's method. */
  readonly method: string;
}

/** A partition of the ranks into four equal quarters (seed 004's 1/4 traffic). */
export interface QuarterPartition {
  readonly label: string;
  of(rank: number): number;
}

/**
 * Capacities beyond the channels' own, that several channels draw on together (SimGrid's SHARED
 * links, one capacity for both directions, and limiter links, one capacity for every flow through a
 * node): resource i has capacity[i] bytes/s; channel c also draws on the resources
 * res[start[c] .. start[c+1]). The flow engine adds them to its max-min solve; the packet engine
 * refuses them (it has no such shared capacity).
 */
export interface SharedCapacities {
  readonly capacity: Float64Array;
  readonly start: Int32Array;
  readonly res: Int32Array;
  /** What they are, in words (recorded with the run). */
  readonly what: string;
  /**
   * From this index on, the capacities are links of their own (limiters) rather than a link's one
   * capacity for its channels: a CM02 penalty counts weight-S / bandwidth for each, as SimGrid does
   * for every link of a route. Undefined: none.
   */
  readonly ownLinksFrom?: number;
}

export interface TopologyFamily {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** One line: the grammar, e.g. "torus:AxBx...[,bw=..,lat=..]". */
  readonly usage: string;
  readonly description: string;
  /** Builds from a parsed spec. Must validate every field and call spec.assertAllRead(). */
  build(spec: Spec, link: LinkAttributes): Topology;
  /** Routing used when none is named: a name in the routing registry. Default: 'shortest'. */
  readonly defaultRouting?: string;
  /**
   * The grid this topology is, for closed-form distances and bisection (and, when the topology has
   * node coordinates, dimension-order routing and axis-by-axis algorithms); undefined if it is not one.
   */
  grid?(t: Topology): TopologyGrid | undefined;
  /**
   * The k-ary n-tree this instance is, for closed-form up/down routing (routing/up-down.ts): node
   * ids as fattree.ts builds them, terminal t under leaf switch ⌊t/k⌋, and every switch's
   * out-channels listing its k down-links (by the child's digit) before its k up-links.
   */
  kAryTree?(t: Topology): { k: number; levels: number } | undefined;
  /** Capacities several channels share (SharedCapacities), or undefined when every channel has its own. */
  sharedCapacities?(t: Topology): SharedCapacities | undefined;
  /** 1 per channel of a FATPIPE link (SimGrid: flows on it do not add up; see fatpipeChannels), or undefined when there is none. */
  fatpipeChannels?(t: Topology): Uint8Array | undefined;
  /**
   * The channels a message from endpoint node `node` to itself crosses, written to `channels` (their
   * count returned), where the network routes one (SimGrid's FLAT cluster: up its private link and
   * down again); absent: a message to oneself is delivered at once, crossing nothing.
   */
  selfRoute?: SelfRoute;
  /** A closed-form minimum bisection of this instance, when one is known. */
  bisectionCut?(t: Topology): BisectionCut | undefined;
  /**
   * Shortest-path routing with the lowest-port tie-break is deadlock free with one VC class
   * (a hypercube's lowest port is its lowest differing dimension: e-cube routing).
   */
  readonly lowestPortIsDeadlockFree?: boolean;
  /** The family's own 1/4 partition for seed 004's quarter traffic (default: rank div N/4). */
  quarters?(t: Topology): QuarterPartition;
  /**
   * Channel latency, in cycles, of BookSim's network of this family (its `booksim` preset): one
   * value, or one per channel class (BookSim's dragonfly: local 10, global 100, terminal 1), or a
   * function of the instance when it depends on the size (BookSim's cmesh: express channels K cycles).
   */
  readonly booksimChannelLatency?: number | Readonly<Record<string, number>> | ((t: Topology) => number | Readonly<Record<string, number>>);
  /**
   * Per-channel latencies, in cycles, where BookSim's network of this instance gives each channel
   * its own (flatfly with `use_noc_latency`: on-chip wire lengths); undefined where the per-class
   * `booksimChannelLatency` says it all. The `booksim` packet preset uses them unless the run sets
   * channel latencies itself.
   */
  readonly booksimChannelCycles?: (t: Topology) => Int32Array | undefined;
  /**
   * Terminals inject at one switch and eject at another (BookSim's fly: the first stage in, the last
   * out): under the packet engine's `terminals: direct` their ports move onto those two switches.
   * Without it such a terminal keeps its own ports (omega: seed 004's MIN folded onto its processors).
   */
  readonly terminalsAcrossStages?: boolean;
  /** The routing BookSim's own network of this family uses (a routing registry name), if not the default. */
  readonly booksimRouting?: string;
  /**
   * BookSim's port numbers for this instance's channels, where they order a router's ports
   * differently from the topology's: per channel, its input port at the destination router and its
   * output port at the source router. The `booksim` packet preset orders its allocators by them.
   */
  readonly booksimPorts?: (t: Topology) => { inPort: Int32Array; outPort: Int32Array };
  /**
   * The topology's nodes in the order BookSim numbers (so evaluates) its routers, where that differs
   * from node order (BookSim's fat tree numbers its top level first). Routers only meet through
   * channels, so the order matters only to the random numbers routers draw (the packet engine's
   * drawFrom).
   */
  readonly booksimRouterOrder?: (t: Topology) => Int32Array;
  /** How BookSim's routing for this family picks the injection VC (min_dragonflynew draws at random). */
  readonly booksimInjectionVc?: 'round-robin' | 'random';
}

const families = new Map<string, TopologyFamily>();

export function registerFamily(family: TopologyFamily): void {
  checkRegistryEntry('family', family, ['build']);
  for (const name of [family.name, ...(family.aliases ?? [])]) families.set(name, family);
}

for (const family of BUILTIN_FAMILIES) registerFamily(family);

export function listFamilies(): TopologyFamily[] {
  return [...new Set(families.values())];
}

/** Every name `topo` accepts, aliases included. */
export function familyNames(): string[] {
  return [...families.keys()];
}

export function findFamily(name: string): TopologyFamily | undefined {
  return families.get(name);
}

/** The descriptor of the family a topology was built by; undefined for hand-built graphs. */
export function familyOf(t: Topology): TopologyFamily | undefined {
  return families.get(t.family);
}

/** Writes the route of a message from host `node` to itself into `channels`; returns its hop count (0: none). */
export type SelfRoute = (t: Topology, node: number, channels: Int32Array) => number;

/**
 * How `t` routes a message from a host to itself (two ranks on one host): its family's self route,
 * else the route its platform declares (ExplicitRoutes.self), else undefined (it crosses nothing).
 * The one answer the flow engine, rank latencies and the hostfile check (applyHostList) share.
 */
export function selfRouteOf(t: Topology): SelfRoute | undefined {
  return familyOf(t)?.selfRoute ?? (t.explicitRoutes?.self ? explicitSelfRoute : undefined);
}

/**
 * The channels of SimGrid FATPIPE links (1 per channel), from a platform of zones or a family, or
 * undefined when there are none: the flow engine shares each as SimGrid does (its flows freeze
 * together, each alone at most at its bandwidth), the packet engine refuses them.
 */
export function fatpipeChannels(t: Topology): Uint8Array | undefined {
  return t.explicitRoutes?.fatpipe ?? familyOf(t)?.fatpipeChannels?.(t);
}

/** Reads the link attributes every family accepts: bw (bandwidth) and lat (latency). */
export function linkAttributes(spec: Spec): LinkAttributes {
  return { bandwidth: spec.bandwidth('bw'), latency: spec.time('lat') };
}

/** Builds a topology from "torus:8x8,bw=25Gbps", a parsed YAML/JSON object, or a Spec. */
export function buildTopology(input: string | Spec | Record<string, unknown>, context = 'topology'): Topology {
  const spec = input instanceof Spec ? input : Spec.fromObject(input, context);
  const family = families.get(spec.family);
  if (!family) {
    const known = listFamilies()
      .flatMap((f) => [f.name, ...(f.aliases ?? [])])
      .sort();
    throw new InputError(context, spec.family, `a topology family: ${known.join(', ')}`);
  }
  const link = linkAttributes(spec);
  const loopback = loopbackAttributes(spec);
  const topology = family.build(spec, link);
  spec.assertAllRead();
  return loopback ? topology.withParams({ loopback }) : topology;
}

/** Every family's loopback keys: loopback_bw (required for a loopback) and loopback_lat (default 0). */
function loopbackAttributes(spec: Spec): Loopback | undefined {
  const bandwidth = spec.bandwidth('loopback_bw');
  const latency = spec.time('loopback_lat');
  if (bandwidth === undefined) {
    if (latency !== undefined) throw new InputError(spec.field('loopback_lat'), spec.raw('loopback_lat'), 'loopback_lat with loopback_bw (a loopback needs its bandwidth)');
    return undefined;
  }
  return { bandwidth, latency: latency ?? 0 };
}
