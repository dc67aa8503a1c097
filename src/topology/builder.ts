/**
 * Incremental construction of a Topology with growable typed arrays, so generators of half a
 * million nodes never build per-channel objects.
 */
import { InputError, LimitError } from '../util/errors.js';
import { DistanceConvention, NodeKind, SourceClasses, Topology } from './graph.js';
import { resized } from '../util/typed-arrays.js';

/** Largest node count Meshwork builds; beyond it a request is refused, not attempted. */
export const MAX_NODES = 1 << 24;
/**
 * Peak memory of building a topology and computing its metrics, per directed channel: the builder's
 * arrays (26 B), the Topology's trimmed copies (26 B) and its adjacency. Measured as the slope of the
 * peak RSS of `fullmesh:1000..3000` (test/topology/memory-limit.test.ts re-measures it): 68.5 B and
 * 72.5 B in two CI runs (the RSS slope moves with GC timing), so the limit counts 80 B.
 */
export const BYTES_PER_CHANNEL = 80;
/** The memory a topology may take at its peak: fits a laptop of 8 GB beside the browser and the OS. */
export const TOPOLOGY_MEMORY_BUDGET = 4 * 1024 ** 3;
/**
 * Largest channel count Meshwork builds, set by measured memory (issue 28: the former 2^27 let
 * fullmesh:11000 grow to 5 GB and die in an allocation failure): 53,687,091 channels.
 */
export const MAX_CHANNELS = Math.floor(TOPOLOGY_MEMORY_BUDGET / BYTES_PER_CHANNEL);

export const DEFAULT_BANDWIDTH = 25e9 / 8; // 25 Gbps, in bytes per second
export const DEFAULT_LATENCY = 100e-9; // 100 ns

/** Refuses a node or channel count above the limits before anything is allocated. */
export function checkSize(field: string, nodes: number, channels = 0): void {
  if (!(nodes <= MAX_NODES)) throw new LimitError(field, Number.isSafeInteger(nodes) ? `${nodes} nodes` : 'more than 2^53 nodes', `${MAX_NODES} nodes (2^24)`);
  if (!(channels <= MAX_CHANNELS)) throw new LimitError(field, `${channels} channels`, `${MAX_CHANNELS} channels (${BYTES_PER_CHANNEL} bytes each at the peak: a 4 GiB budget)`);
}

export interface LinkAttributes {
  bandwidth?: number;
  latency?: number;
}

/** A link's bandwidth is finite and > 0 bytes/s, its latency finite and ≥ 0 s (each when given). */
function checkLink(field: string, attrs: LinkAttributes): void {
  if (attrs.bandwidth !== undefined && !(attrs.bandwidth > 0 && Number.isFinite(attrs.bandwidth))) throw new InputError(`${field} bandwidth`, attrs.bandwidth, 'a finite number of bytes/s > 0');
  if (attrs.latency !== undefined && !(attrs.latency >= 0 && Number.isFinite(attrs.latency))) throw new InputError(`${field} latency`, attrs.latency, 'a finite number of seconds ≥ 0');
}

export class TopologyBuilder {
  private kinds: Uint8Array;
  private nodeCount = 0;
  private src: Int32Array;
  private dst: Int32Array;
  private bw: Float64Array;
  private lat: Float64Array;
  private cls: Uint16Array;
  private channelCount = 0;
  private readonly classIndex = new Map<string, number>();
  private readonly classNames: string[] = [];
  private coords: Int32Array | undefined;
  private endpoints: number[] | undefined;
  readonly defaultBandwidth: number;
  readonly defaultLatency: number;

  constructor(
    readonly coordDims = 0,
    expected: { nodes?: number; channels?: number } = {},
    defaults: LinkAttributes = {},
  ) {
    const nodes = Math.max(16, expected.nodes ?? 16);
    const channels = Math.max(16, expected.channels ?? 16);
    checkSize('topology', nodes, channels);
    this.kinds = new Uint8Array(nodes);
    this.src = new Int32Array(channels);
    this.dst = new Int32Array(channels);
    this.bw = new Float64Array(channels);
    this.lat = new Float64Array(channels);
    this.cls = new Uint16Array(channels);
    if (coordDims > 0) this.coords = new Int32Array(nodes * coordDims);
    checkLink('default', defaults);
    this.defaultBandwidth = defaults.bandwidth ?? DEFAULT_BANDWIDTH;
    this.defaultLatency = defaults.latency ?? DEFAULT_LATENCY;
  }

  get nodes(): number {
    return this.nodeCount;
  }

  get channels(): number {
    return this.channelCount;
  }

  addNode(kind: NodeKind, coords?: ArrayLike<number>): number {
    if (kind !== NodeKind.Terminal && kind !== NodeKind.Switch) throw new InputError('node kind', kind, `NodeKind.Terminal (${NodeKind.Terminal}) or NodeKind.Switch (${NodeKind.Switch})`);
    if (this.nodeCount === this.kinds.length) {
      checkSize('topology', this.nodeCount * 2);
      this.kinds = resized(this.kinds, this.nodeCount * 2);
      if (this.coords) this.coords = resized(this.coords, this.nodeCount * 2 * this.coordDims);
    }
    const id = this.nodeCount++;
    this.kinds[id] = kind;
    if (coords && this.coords) {
      for (let d = 0; d < this.coordDims; d++) this.coords[id * this.coordDims + d] = coords[d];
    }
    return id;
  }

  /** Adds `count` nodes of one kind and returns the first id. */
  addNodes(kind: NodeKind, count: number): number {
    if (!Number.isSafeInteger(count) || count < 0) throw new InputError('node count', count, 'a whole number ≥ 0');
    checkSize('topology', this.nodeCount + count);
    const first = this.nodeCount;
    for (let i = 0; i < count; i++) this.addNode(kind);
    return first;
  }

  setCoords(node: number, coords: ArrayLike<number>): void {
    if (!this.coords) throw new InputError('coordinates', coords, 'none: this builder was created with coordDims 0');
    this.checkNode('node', node);
    for (let d = 0; d < this.coordDims; d++) this.coords[node * this.coordDims + d] = coords[d];
  }

  classId(name: string): number {
    let id = this.classIndex.get(name);
    if (id === undefined) {
      id = this.classNames.length;
      this.classNames.push(name);
      this.classIndex.set(name, id);
    }
    return id;
  }

  /**
   * One directed channel. Returns its id. Its ends must be nodes already added and distinct (a
   * self-loop carries nothing a route could use, and the engines index channels by their ends); a
   * bandwidth is > 0 bytes/s and a latency ≥ 0 s, both finite. Checked here, since the typed
   * columns would silently truncate a fractional id or keep a NaN.
   */
  addChannel(from: number, to: number, className: string, attrs: LinkAttributes = {}): number {
    this.checkNode('channel from', from);
    this.checkNode('channel to', to);
    if (from === to) throw new InputError('channel to', to, `a node other than its from (${from}): no self-loops`);
    checkLink('channel', attrs);
    if (this.channelCount === this.src.length) {
      const size = this.channelCount * 2;
      checkSize('topology', this.nodeCount, size);
      this.src = resized(this.src, size);
      this.dst = resized(this.dst, size);
      this.bw = resized(this.bw, size);
      this.lat = resized(this.lat, size);
      this.cls = resized(this.cls, size);
    }
    const id = this.channelCount++;
    this.src[id] = from;
    this.dst[id] = to;
    this.bw[id] = attrs.bandwidth ?? this.defaultBandwidth;
    this.lat[id] = attrs.latency ?? this.defaultLatency;
    this.cls[id] = this.classId(className);
    return id;
  }

  /** A bidirectional link: two channels, `forward` class from a to b and `backward` class from b to a. */
  addLink(a: number, b: number, forward: string, backward = forward, attrs: LinkAttributes = {}): void {
    this.addChannel(a, b, forward, attrs);
    this.addChannel(b, a, backward, attrs);
  }

  /** Sets the rank order of compute endpoints (distinct nodes already added). Default: every terminal node, in id order. */
  setEndpoints(endpoints: ArrayLike<number>): void {
    const seen = new Set<number>();
    for (let r = 0; r < endpoints.length; r++) {
      this.checkNode(`endpoints[${r}]`, endpoints[r]);
      if (seen.has(endpoints[r])) throw new InputError(`endpoints[${r}]`, endpoints[r], 'a node not listed before (one rank per endpoint node)');
      seen.add(endpoints[r]);
    }
    this.endpoints = Array.from(endpoints);
  }

  /** Refuses a node id that is not a whole number naming a node already added. */
  private checkNode(field: string, node: number): void {
    if (!(Number.isInteger(node) && node >= 0 && node < this.nodeCount)) throw new InputError(field, node, `a node id from 0 to ${this.nodeCount - 1} (the nodes added so far)`);
  }

  build(meta: {
    family: string;
    spec: string;
    params: Record<string, unknown>;
    distanceConvention: DistanceConvention;
    symmetry?: SourceClasses;
  }): Topology {
    const n = this.nodeCount;
    const m = this.channelCount;
    for (let c = 0; c < m; c++) {
      if (this.src[c] < 0 || this.src[c] >= n || this.dst[c] < 0 || this.dst[c] >= n) {
        throw new Error(`channel ${c} joins a missing node (${this.src[c]} -> ${this.dst[c]})`);
      }
    }
    let endpoints: Int32Array;
    if (this.endpoints) {
      endpoints = Int32Array.from(this.endpoints);
    } else {
      let count = 0;
      for (let v = 0; v < n; v++) if (this.kinds[v] === NodeKind.Terminal) count++;
      endpoints = new Int32Array(count);
      let r = 0;
      for (let v = 0; v < n; v++) if (this.kinds[v] === NodeKind.Terminal) endpoints[r++] = v;
    }
    return new Topology({
      ...meta,
      nodeKind: this.kinds.slice(0, n),
      chSrc: this.src.slice(0, m),
      chDst: this.dst.slice(0, m),
      chBandwidth: this.bw.slice(0, m),
      chLatency: this.lat.slice(0, m),
      chClass: this.cls.slice(0, m),
      classNames: [...this.classNames],
      endpoints,
      coordDims: this.coordDims,
      coords: this.coords?.slice(0, n * this.coordDims),
    });
  }
}

