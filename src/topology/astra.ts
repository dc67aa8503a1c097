/**
 * ASTRA-sim's analytical networks, `astra:topology=Switch_Ring,npus=8x2,bandwidth=400x50,latency=936.25x1000`,
 * or ASTRA-sim's own network file (`topology: [ Switch, Ring ]`, `npus_count`, `bandwidth`,
 * `latency`; read by the CLI: `--topology net.yml`). A multi-dimensional network: NPU i has the
 * address (a0, a1, …) with dimension 0 fastest (ASTRA-sim's translate_address), and every
 * dimension d joins the NPUs that differ only in a_d by one building block:
 * - Ring: a bidirectional ring in coordinate order (one link for 2 NPUs, as a 2-node ring);
 * - FullyConnected: a link between every two of them;
 * - Switch: one switch node, a link from each of them (a path crosses two links).
 * Bandwidth is per link and direction in ASTRA-sim's GB/s, which its analytical backend converts
 * with 1 GB = 2^30 B (bw_GBps_to_Bpns), so a plain number here is GiB/s; latency is per link, a
 * plain number in ns. Units may be written (`bandwidth=400GBps`). Terminals are numbered as
 * ASTRA-sim numbers NPUs; switches follow them.
 *
 * Meshwork's default routing takes a message across every dimension it must cross, and its
 * engines share links between concurrent messages; ASTRA-sim's congestion-unaware backend times a
 * message by the first dimension its endpoints differ in, which `--preset astra` reproduces with
 * the routing astra-first-dimension and no sharing (docs/workloads.md, "ASTRA-sim's network files").
 */
import { InputError } from '../util/errors.js';
import type { Spec } from '../util/spec.js';
import { isDecimal } from '../util/spec.js';
import { parseBandwidth, parseTime } from '../util/units.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';

export const ASTRA_BLOCKS = ['Ring', 'FullyConnected', 'Switch'] as const;
export type AstraBlock = (typeof ASTRA_BLOCKS)[number];

export interface AstraDimension {
  readonly block: AstraBlock;
  readonly npus: number;
  /** Bytes per second, per link and direction. */
  readonly bandwidth: number;
  /** Seconds per link. */
  readonly latency: number;
}

/** ASTRA-sim's GB/s: its analytical backend takes 1 GB as 2^30 bytes. */
const ASTRA_GB = 2 ** 30;

/** Most dimensions a network may have (ASTRA-sim's own configurations use up to 4). */
const MAX_DIMENSIONS = 8;

function channelsOf(dims: readonly AstraDimension[], npus: number): number {
  let channels = 0;
  for (const d of dims) {
    const groups = npus / d.npus;
    if (d.block === 'Ring') channels += groups * (d.npus === 2 ? 2 : 2 * d.npus);
    else if (d.block === 'FullyConnected') channels += groups * d.npus * (d.npus - 1);
    else channels += groups * 2 * d.npus;
  }
  return channels;
}

/** The network of ASTRA-sim's analytical backend with these dimensions (dimension 0 first). */
export function astraNetwork(dims: readonly AstraDimension[], specText?: string): Topology {
  if (dims.length === 0 || dims.length > MAX_DIMENSIONS) throw new InputError('astra.topology', dims.length, `1 to ${MAX_DIMENSIONS} dimensions`);
  let npus = 1;
  for (const [d, dim] of dims.entries()) {
    if (!Number.isInteger(dim.npus) || dim.npus < 1) throw new InputError(`astra.npus[${d}]`, dim.npus, 'an integer >= 1');
    npus *= dim.npus;
  }
  if (npus < 2) throw new InputError('astra.npus', dims.map((d) => d.npus).join('x'), 'at least 2 NPUs in all');
  const switches = dims.reduce((sum, d) => sum + (d.block === 'Switch' ? npus / d.npus : 0), 0);
  const channels = channelsOf(dims, npus);
  checkSize('astra.npus', npus + switches, channels);
  const b = new TopologyBuilder(dims.length, { nodes: npus + switches, channels });
  const address = new Int32Array(dims.length);
  for (let v = 0; v < npus; v++) {
    let rest = v;
    for (let d = 0; d < dims.length; d++) {
      address[d] = rest % dims[d].npus;
      rest = Math.floor(rest / dims[d].npus);
    }
    b.addNode(NodeKind.Terminal, address);
  }
  let stride = 1;
  for (const [d, dim] of dims.entries()) {
    const n = dim.npus;
    const link: LinkAttributes = { bandwidth: dim.bandwidth, latency: dim.latency };
    // The groups of dimension d: NPUs base + i·stride, i < n, for every base with a_d = 0.
    for (let base = 0; base < npus; base++) {
      if (Math.floor(base / stride) % n !== 0 || n === 1) continue;
      const member = (i: number): number => base + i * stride;
      if (dim.block === 'Ring') {
        const links = n === 2 ? 1 : n;
        for (let i = 0; i < links; i++) b.addLink(member(i), member((i + 1) % n), `d${d}+`, `d${d}-`, link);
      } else if (dim.block === 'FullyConnected') {
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) b.addLink(member(i), member(j), `d${d}`, `d${d}`, link);
      } else {
        const sw = b.addNode(NodeKind.Switch);
        for (let i = 0; i < n; i++) b.addLink(member(i), sw, `d${d}-up`, `d${d}-down`, link);
      }
    }
    stride *= n;
  }
  const shape = dims.map((d) => `${d.block}${d.npus}`).join('x');
  return b.build({
    family: 'astra',
    spec: specText ?? `astra:${shape}`,
    params: {
      topology: dims.map((d) => d.block),
      npus: dims.map((d) => d.npus),
      bandwidth: dims.map((d) => d.bandwidth),
      latency: dims.map((d) => d.latency),
      // The name every dimensioned family uses (traffic patterns' k-ary n-cube view, the astra algorithms).
      dims: dims.map((d) => d.npus),
    },
    distanceConvention: 'router-hops',
    // Each building block is vertex-transitive on its NPUs, and so is their product.
    symmetry: { reason: 'a product of rings, full meshes and stars is vertex-transitive on its NPUs', classes: [{ rank: 0, count: npus }] },
  });
}

/** A list value of the spec: items separated by x, _, / or + (a YAML list arrives joined by x). */
function listOf(spec: Spec, key: string, example: string): string[] {
  const text = spec.raw(key);
  if (text === undefined || text.trim() === '') throw new InputError(spec.field(key), text, `a list, one item per dimension, e.g. ${example} (required)`);
  return text.split(/[x_/+]/i).map((s) => s.trim());
}

function blockOf(text: string, field: string): AstraBlock {
  const found = ASTRA_BLOCKS.find((b) => b.toLowerCase() === text.toLowerCase());
  if (!found) throw new InputError(field, text, `one of ${ASTRA_BLOCKS.join(', ')} (ASTRA-sim's building blocks)`);
  return found;
}

/** A bandwidth item: a plain number is ASTRA-sim's GB/s (2^30 B/s), else any Meshwork rate. */
function bandwidthOf(text: string, field: string): number {
  if (isDecimal(text)) {
    const value = Number(text);
    if (!(value > 0) || !Number.isFinite(value)) throw new InputError(field, text, "a positive bandwidth (a plain number is ASTRA-sim's GB/s, 2^30 bytes/s)");
    return value * ASTRA_GB;
  }
  return parseBandwidth(text, field);
}

/** A latency item: a plain number is ns (ASTRA-sim's unit), else any Meshwork time. */
function latencyOf(text: string, field: string): number {
  if (isDecimal(text)) {
    const value = Number(text);
    if (!(value >= 0) || !Number.isFinite(value)) throw new InputError(field, text, 'a latency >= 0 (a plain number is ns, as in ASTRA-sim)');
    return value / 1e9;
  }
  return parseTime(text, field);
}

export const astraFamily: TopologyFamily = {
  name: 'astra',
  usage: 'astra:topology=Switch_Ring,npus=8x2,bandwidth=400x50,latency=936.25x1000 (or ASTRA-sim\'s network .yml)',
  description: "ASTRA-sim's multi-dimensional analytical network: per dimension a Ring, FullyConnected or Switch of npus NPUs (bandwidth in its GB/s = 2^30 B/s, latency in ns)",
  build(spec: Spec, link: LinkAttributes): Topology {
    if (link.bandwidth !== undefined || link.latency !== undefined) {
      throw new InputError(spec.field(link.bandwidth !== undefined ? 'bw' : 'lat'), spec.raw(link.bandwidth !== undefined ? 'bw' : 'lat'), 'bandwidth=... and latency=..., one item per dimension');
    }
    const blocks = listOf(spec, 'topology', 'Switch_Ring');
    const counts = listOf(spec, 'npus', '8x2');
    const bandwidths = listOf(spec, 'bandwidth', '400x50');
    const latencies = listOf(spec, 'latency', '936.25x1000');
    for (const [key, list] of [['npus', counts], ['bandwidth', bandwidths], ['latency', latencies]] as const) {
      if (list.length !== blocks.length) throw new InputError(spec.field(key), list.join('x'), `${blocks.length} items, one per dimension of topology=${blocks.join('_')}`);
    }
    const dims = blocks.map((text, d) => {
      const npus = Number(counts[d]);
      if (!/^\d+$/.test(counts[d]) || npus < 1) throw new InputError(`${spec.field('npus')}[${d}]`, counts[d], 'an integer >= 1');
      return {
        block: blockOf(text, `${spec.field('topology')}[${d}]`),
        npus,
        bandwidth: bandwidthOf(bandwidths[d], `${spec.field('bandwidth')}[${d}]`),
        latency: latencyOf(latencies[d], `${spec.field('latency')}[${d}]`),
      };
    });
    return astraNetwork(dims, spec.text);
  },
};

/**
 * ASTRA-sim's network file (its keys `topology`, `npus_count`, `bandwidth`, `latency`) as the spec
 * object of the `astra` family; undefined for any other object. Other keys are refused by the
 * family (a typo must not be ignored); ASTRA-sim's congestion-aware keys are not modelled.
 */
export function astraNetworkSpec(doc: unknown): Record<string, unknown> | undefined {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const record = doc as Record<string, unknown>;
  if (!('npus_count' in record) || 'family' in record) return undefined;
  const { topology, npus_count, bandwidth, latency, ...rest } = record;
  return { family: 'astra', topology, npus: npus_count, bandwidth, latency, ...rest };
}
