/**
 * The one graph type of Meshwork. Generators build it, analysis, routing and both engines read it.
 *
 * Flat typed arrays (CSR adjacency) rather than node/edge objects: the 524,288-node MDCE and
 * 32×32×32 tori must fit in memory and be traversed millions of times per second.
 */

import { InputError } from '../util/errors.js';

export const NodeKind = { Terminal: 0, Switch: 1 } as const;
export type NodeKind = (typeof NodeKind)[keyof typeof NodeKind];

/** How distances between compute endpoints are counted (see docs/topology.md). */
export type DistanceConvention =
  /** Direct networks: the endpoint is its router; distance = router-to-router hops. */
  | 'router-hops'
  /** Indirect networks: terminals hang off switches; distance = switches traversed (graph hops − 1). */
  | 'switches-traversed';

/**
 * Symmetry a generator declares so exact metrics need only a few BFS sources.
 * Each class lists one representative endpoint rank and how many ranks share its distance profile
 * (an automorphism maps each of them onto the representative).
 */
export interface SourceClasses {
  readonly reason: string;
  readonly classes: ReadonlyArray<{ readonly rank: number; readonly count: number }>;
}

export interface TopologyInit {
  readonly family: string;
  readonly spec: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly nodeKind: Uint8Array;
  readonly chSrc: Int32Array;
  readonly chDst: Int32Array;
  readonly chBandwidth: Float64Array;
  readonly chLatency: Float64Array;
  readonly chClass: Uint16Array;
  readonly classNames: readonly string[];
  readonly endpoints: Int32Array;
  /** The generator's endpoint order, when `endpoints` is a remapped order of it; default `endpoints`. */
  readonly physicalEndpoints?: Int32Array;
  readonly coordDims: number;
  readonly coords?: Int32Array;
  readonly distanceConvention: DistanceConvention;
  readonly symmetry?: SourceClasses;
  /** Per-pair routes a platform file declares (SimGrid zones); kept through rank remapping. */
  readonly explicitRoutes?: ExplicitRoutes;
}

/**
 * Routes given by a platform rather than computed (SimGrid `<zone>` platforms): for host nodes a, b
 * (nodes 0 .. hosts−1), the channels of the route are channels[start[a·hosts + b] .. start[a·hosts + b + 1]).
 * One flat array and per-pair offsets: an N-host platform costs N² + 1 offsets and its link ids.
 */
export interface ExplicitRoutes {
  readonly hosts: number;
  readonly start: Int32Array;
  readonly channels: Int32Array;
  readonly maxHops: number;
  /** Host names in node order (an SMPI hostfile names them). */
  readonly hostNames: readonly string[];
  /** Channel names, as the platform names its links (a SPLITDUPLEX link's halves: NAME_UP, NAME_DOWN). */
  readonly channelNames: readonly string[];
  /** Why the routes are not paths the packet engine can follow, or undefined when every route is a directed path. */
  readonly notPaths?: string;
  /** The hostfile whose hosts these are, in its order (the rank mapping is already applied), if one was given at load. */
  readonly hostfile?: string;
  /** Per host, the route of a message to itself (a declared self route: a loopback link), CSR by host; absent: such a message crosses nothing. */
  readonly self?: { readonly start: Int32Array; readonly channels: Int32Array };
  /** 1 for a FATPIPE link's channel (each flow alone at its bandwidth; on self routes only), by channel. */
  readonly fatpipe?: Uint8Array;
}

/**
 * Every host's loopback (SimGrid's cluster `loopback_bw` and `loopback_lat`, any family's spec keys of
 * those names): a message of a host to itself crosses it alone, at its latency and up to its
 * bandwidth, whatever else runs (SimGrid makes each host's loopback a FATPIPE link of its own).
 */
export interface Loopback {
  /** Bytes per second. */
  readonly bandwidth: number;
  /** Seconds. */
  readonly latency: number;
}

/** The topology's loopback (params.loopback), or undefined: then a host's messages to itself cross nothing, or its family's self route. */
export function loopbackOf(t: Topology): Loopback | undefined {
  return t.params.loopback as Loopback | undefined;
}

/** Channels on the declared route from host a to host b (0 for a = b). */
export function routeHops(routes: ExplicitRoutes, a: number, b: number): number {
  const pair = a * routes.hosts + b;
  return routes.start[pair + 1] - routes.start[pair];
}

/** The declared route of a message from host `node` to itself (ExplicitRoutes.self) into `channels`; its hop count (0: none). */
export function explicitSelfRoute(t: Topology, node: number, channels: Int32Array): number {
  const self = t.explicitRoutes?.self;
  if (!self || node >= t.explicitRoutes!.hosts) return 0;
  const [from, to] = [self.start[node], self.start[node + 1]];
  channels.set(self.channels.subarray(from, to));
  return to - from;
}

/**
 * `value` as a built Topology, or a one-line refusal naming `field` (a JavaScript caller may pass a
 * spec string or nothing where a library entry point takes a built topology: it was a TypeError).
 */
export function requireTopology(value: unknown, field = 'topology', hint = 'a Topology built by buildTopology'): Topology {
  const t = value as Topology | null | undefined;
  if (typeof t !== 'object' || t === null || typeof t.numEndpoints !== 'number' || typeof t.spec !== 'string') throw new InputError(field, value, hint);
  return t;
}

export class Topology {
  readonly family: string;
  /** The canonical spec text that rebuilds this topology. */
  readonly spec: string;
  /** Every parameter that shaped the graph, for result records. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly numNodes: number;
  readonly numChannels: number;
  readonly nodeKind: Uint8Array;
  readonly chSrc: Int32Array;
  readonly chDst: Int32Array;
  /** Output port index of the channel at its source node (0 .. outDegree-1). */
  readonly chSrcPort: Int32Array;
  /** Input port index of the channel at its destination node (0 .. inDegree-1). */
  readonly chDstPort: Int32Array;
  /** Bytes per second. */
  readonly chBandwidth: Float64Array;
  /** Seconds. */
  readonly chLatency: Float64Array;
  readonly chClass: Uint16Array;
  readonly classNames: readonly string[];
  /** CSR: out-channels of node v are outChannels[outStart[v] .. outStart[v+1]), ordered by output port. */
  readonly outStart: Int32Array;
  readonly outChannels: Int32Array;
  /** CSR: in-channels of node v, ordered by input port. */
  readonly inStart: Int32Array;
  readonly inChannels: Int32Array;
  /** rank -> node id of that compute endpoint. */
  readonly endpoints: Int32Array;
  /** node id -> rank (the first, where a host runs several), or -1 for nodes that are not endpoints. */
  readonly rankOfNode: Int32Array;
  /** Whether some host runs several ranks (an SMPI hostfile that lists it more than once). */
  readonly ranksShareHosts: boolean;
  /** The generator's endpoint order, unchanged by rank mappings (withRankOrder). */
  readonly physicalEndpoints: Int32Array;
  /**
   * node id -> its position in the generator's endpoint order, or -1: where an endpoint physically
   * is, for routing choices that must not move when `--mapping` renumbers the ranks.
   */
  readonly physicalIndexOfNode: Int32Array;
  readonly coordDims: number;
  /** Node coordinates, coordDims per node, or undefined. */
  readonly coords: Int32Array | undefined;
  readonly distanceConvention: DistanceConvention;
  readonly symmetry: SourceClasses | undefined;
  readonly explicitRoutes: ExplicitRoutes | undefined;

  constructor(init: TopologyInit) {
    const n = init.nodeKind.length;
    const m = init.chSrc.length;
    this.family = init.family;
    this.spec = init.spec;
    this.params = init.params;
    this.numNodes = n;
    this.numChannels = m;
    this.nodeKind = init.nodeKind;
    this.chSrc = init.chSrc;
    this.chDst = init.chDst;
    this.chBandwidth = init.chBandwidth;
    this.chLatency = init.chLatency;
    this.chClass = init.chClass;
    this.classNames = init.classNames;
    this.endpoints = init.endpoints;
    this.coordDims = init.coordDims;
    this.coords = init.coords;
    this.distanceConvention = init.distanceConvention;
    this.symmetry = init.symmetry;
    this.explicitRoutes = init.explicitRoutes;

    this.outStart = new Int32Array(n + 1);
    this.inStart = new Int32Array(n + 1);
    for (let c = 0; c < m; c++) {
      this.outStart[init.chSrc[c] + 1]++;
      this.inStart[init.chDst[c] + 1]++;
    }
    for (let v = 0; v < n; v++) {
      this.outStart[v + 1] += this.outStart[v];
      this.inStart[v + 1] += this.inStart[v];
    }
    this.outChannels = new Int32Array(m);
    this.inChannels = new Int32Array(m);
    this.chSrcPort = new Int32Array(m);
    this.chDstPort = new Int32Array(m);
    const outFill = this.outStart.slice(0, n);
    const inFill = this.inStart.slice(0, n);
    for (let c = 0; c < m; c++) {
      const s = init.chSrc[c];
      const d = init.chDst[c];
      this.chSrcPort[c] = outFill[s] - this.outStart[s];
      this.outChannels[outFill[s]++] = c;
      this.chDstPort[c] = inFill[d] - this.inStart[d];
      this.inChannels[inFill[d]++] = c;
    }
    this.rankOfNode = new Int32Array(n).fill(-1);
    // A host with several ranks (an SMPI hostfile listing it twice) maps back to its first.
    let shared = false;
    for (let r = 0; r < init.endpoints.length; r++) {
      const v = init.endpoints[r];
      if (this.rankOfNode[v] < 0) this.rankOfNode[v] = r;
      else shared = true;
    }
    this.ranksShareHosts = shared;
    this.physicalEndpoints = init.physicalEndpoints ?? init.endpoints;
    this.physicalIndexOfNode = init.physicalEndpoints ? new Int32Array(n).fill(-1) : this.rankOfNode;
    if (init.physicalEndpoints) for (let i = 0; i < init.physicalEndpoints.length; i++) this.physicalIndexOfNode[init.physicalEndpoints[i]] = i;
  }

  get numEndpoints(): number {
    return this.endpoints.length;
  }

  outDegree(v: number): number {
    return this.outStart[v + 1] - this.outStart[v];
  }

  inDegree(v: number): number {
    return this.inStart[v + 1] - this.inStart[v];
  }

  /** The channel from u to v with the lowest id, or -1. */
  channelBetween(u: number, v: number): number {
    for (let i = this.outStart[u]; i < this.outStart[u + 1]; i++) {
      const c = this.outChannels[i];
      if (this.chDst[c] === v) return c;
    }
    return -1;
  }

  className(channel: number): string {
    return this.classNames[this.chClass[channel]];
  }

  coord(node: number, dim: number): number {
    if (!this.coords) throw new Error(`topology ${this.spec} has no coordinates`);
    return this.coords[node * this.coordDims + dim];
  }

  /**
   * A copy of this topology whose rank order is `rankToEndpoint` applied to the current order:
   * new rank r is the endpoint that was rank perm[r]. `perm` may repeat an entry (several ranks on
   * one host, mapping.ts applyHostList); it then keeps no symmetry.
   */
  withRankOrder(perm: Int32Array, label: string): Topology {
    const endpoints = new Int32Array(perm.length);
    for (let r = 0; r < perm.length; r++) endpoints[r] = this.endpoints[perm[r]];
    const distinct = new Set(perm).size;
    return this.copy({
      // Where ranks share hosts the record says how many hosts run them.
      params: { ...this.params, mapping: label, ...(distinct < perm.length ? { rankHosts: distinct } : {}) },
      endpoints,
      // Symmetry classes are stated in ranks; a remapped order keeps the node-level automorphisms,
      // so translate each representative rank to the new rank of the same node. A mapping onto some
      // of the endpoints only keeps none: the automorphisms need not preserve the subset.
      symmetry: this.symmetry && endpoints.length === this.endpoints.length && distinct === perm.length ? remapSymmetry(this.symmetry, this.endpoints, endpoints) : undefined,
    });
  }

  /** A copy of this topology with `extra` added to its params; the graph and the rank order are unchanged. */
  withParams(extra: Readonly<Record<string, unknown>>): Topology {
    return this.copy({ params: { ...this.params, ...extra } });
  }

  private copy(changes: Partial<TopologyInit>): Topology {
    return new Topology({
      family: this.family,
      spec: this.spec,
      params: this.params,
      nodeKind: this.nodeKind,
      chSrc: this.chSrc,
      chDst: this.chDst,
      chBandwidth: this.chBandwidth,
      chLatency: this.chLatency,
      chClass: this.chClass,
      classNames: this.classNames,
      endpoints: this.endpoints,
      physicalEndpoints: this.physicalEndpoints,
      coordDims: this.coordDims,
      coords: this.coords,
      distanceConvention: this.distanceConvention,
      symmetry: this.symmetry,
      explicitRoutes: this.explicitRoutes,
      ...changes,
    });
  }
}

function remapSymmetry(sym: SourceClasses, oldEndpoints: Int32Array, newEndpoints: Int32Array): SourceClasses {
  const newRankOfNode = new Map<number, number>();
  for (let r = 0; r < newEndpoints.length; r++) newRankOfNode.set(newEndpoints[r], r);
  return {
    reason: sym.reason,
    classes: sym.classes.map(({ rank, count }) => ({ rank: newRankOfNode.get(oldEndpoints[rank])!, count })),
  };
}
