/**
 * Hierarchical accelerator fabrics `fabric:...` (issue 25): N nodes of G accelerators each, a
 * scale-up network inside every node (a full mesh of direct links, or K switch planes such as
 * NVSwitch), E NICs per node attached to given accelerators, and a rail-optimised scale-out network
 * above (NIC i of every node on rail i; each rail one switch, or leaves under a spine layer shared
 * by all rails; optionally several planes per rail). Every level has its own channel class, rate
 * and latency. Machine presets (`hgx-h100`, `hgx-a100`, `mi300x`, `gb200-nvl72`) are families that fill in the
 * defaults; each value's public source is in docs/topology.md, "Accelerator fabrics".
 *
 * Ranks: accelerator g of node n is rank n·G + g. Node ids: accelerators, then the scale-up
 * switches (node-major: one per node, the K planes striped as NVLink stripes every transfer, or K
 * with stripe=off), then the rail switches (per plane: per rail its leaves, then
 * the plane's spines). Classes: "scaleup" (mesh), "scaleup-up"/"scaleup-down" (to and from a
 * scale-up switch), "nic-up"/"nic-down" (accelerator's NIC port to and from its rail switch),
 * "rail-up"/"rail-down" (rail leaf to and from a spine).
 *
 * A NIC is not a node of its own: the accelerator-to-leaf channel carries the NIC's port rate
 * (PCIe between accelerator and NIC is faster than the port on every preset, so it is never the
 * bottleneck and adds no hop to the metrics).
 */
import { InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';
import { checkSize, TopologyBuilder } from './builder.js';
import { NodeKind, type Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';

export type ScaleUpKind = 'mesh' | 'switch';
export const SCALE_UP_KINDS: readonly ScaleUpKind[] = ['mesh', 'switch'];
export type RailKind = 'switch' | 'leafspine';
export const RAIL_KINDS: readonly RailKind[] = ['switch', 'leafspine'];

export interface FabricOptions {
  /** Accelerators per node (G). */
  gpus: number;
  /** Nodes (N). */
  nodes: number;
  scaleUp: ScaleUpKind;
  /** Switch planes of the scale-up network (K), for scaleUp 'switch'. */
  planes: number;
  /** Scale-up links per accelerator (spread evenly over the planes, or over the G−1 peers of a mesh). */
  links: number;
  /** Bytes/s per scale-up link and direction. */
  linkBandwidth: number;
  linkLatency: number;
  /**
   * The planes stripe every transfer over all of them (NVLink does): built as one switch node per
   * node whose links carry all L links' rate. Off: K switch nodes, each link carrying its plane's
   * share, for studies of the planes themselves (routes then pick one plane per flow).
   */
  stripe: boolean;
  /** Whether the scale-up switches reduce in the switch (NVLink SHARP / NVLS). */
  inSwitchReduction: boolean;
  /** NICs per node (E); 0 with a single node. */
  nics: number;
  /** Accelerator (0..G−1) each NIC hangs off; default NIC i on accelerator ⌊i·G/E⌋. */
  nicGpus?: readonly number[];
  /** Bytes/s per NIC and direction (all its rail planes together). */
  nicBandwidth: number;
  nicLatency: number;
  rail: RailKind;
  /** Planes per rail: each NIC port split into this many ports, one per plane (dual-plane: 2). */
  railPlanes: number;
  /** Nodes under one leaf of a rail (leafspine). */
  leafHosts: number;
  /** Spines per plane, shared by all rails (leafspine). */
  spines: number;
  /** Bytes/s and latency of a leaf-spine link (default: the NIC port's). */
  railBandwidth?: number;
  railLatency?: number;
  /** The machine the defaults came from ('custom' for `fabric:`). */
  machine: string;
  spec?: string;
  family?: string;
}

/** What a fabric records in `Topology.params` (read by its automorphisms and closed-form routes). */
export interface FabricParams {
  machine: string;
  nodes: number;
  gpusPerNode: number;
  scaleUp: ScaleUpKind;
  scaleUpPlanes: number;
  scaleUpLinksPerPlane: number[];
  scaleUpStriped: boolean;
  scaleUpLinks: number;
  scaleUpLinkBandwidth: number;
  scaleUpLatency: number;
  scaleUpBandwidthPerGpu: number;
  inSwitchReduction: boolean;
  nics: number;
  /** Whether the rails were built (more than one node). */
  scaleOutBuilt: boolean;
  nicGpus: number[];
  nicBandwidth: number;
  nicLatency: number;
  rail: RailKind | 'none';
  railPlanes: number;
  leafHosts: number;
  leavesPerRail: number;
  spines: number;
  bandwidth: number;
  latency: number;
}

/** t's fabric parameters when a fabric family (fabricFamilies) built it, else undefined. */
export function fabricParams(t: Topology): FabricParams | undefined {
  return fabricFamilies.some((f) => f.name === t.family) ? (t.params as unknown as FabricParams) : undefined;
}

/** Builds the fabric graph; every count and rate validated first, the size refused before allocation. */
export function fabric(o: FabricOptions): Topology {
  const G = o.gpus;
  const N = o.nodes;
  // One node has no scale-out network to join: its NICs are recorded but no rail is built.
  const E = N > 1 ? o.nics : 0;
  const K = o.scaleUp === 'switch' ? o.planes : 0;
  const switchNodes = o.scaleUp === 'switch' ? (o.stripe ? 1 : K) : 0;
  const P = o.railPlanes;
  if (o.scaleUp === 'mesh' && o.links % Math.max(1, G - 1) !== 0) {
    throw new InputError('fabric.links', o.links, `a multiple of gpus − 1 = ${G - 1} for a full mesh (the same number of links to every peer)`);
  }
  if (o.scaleUp === 'switch' && o.links < K) throw new InputError('fabric.links', o.links, `at least planes = ${K} (every accelerator reaches every switch plane)`);
  if (N > 1 && E < 1) throw new InputError('fabric.nics', E, 'at least 1 when there is more than one node');
  const nicGpus = o.nicGpus ?? Array.from({ length: o.nics }, (_, i) => Math.floor((i * G) / Math.max(1, o.nics)));
  if (nicGpus.length !== o.nics) throw new InputError('fabric.nicgpus', nicGpus.join('/'), `${o.nics} accelerator indices, one per NIC, separated by "/"`);
  for (const g of nicGpus) if (!(Number.isInteger(g) && g >= 0 && g < G)) throw new InputError('fabric.nicgpus', nicGpus.join('/'), `accelerator indices from 0 to ${G - 1}`);
  const leafHosts = o.rail === 'leafspine' ? o.leafHosts : N;
  const leavesPerRail = E > 0 ? Math.ceil(N / leafHosts) : 0;
  const spines = o.rail === 'leafspine' ? o.spines : 0;
  const railSwitches = E > 0 ? P * (E * leavesPerRail + spines) : 0;
  const nodeCount = N * G + N * switchNodes + railSwitches;
  const meshChannels = o.scaleUp === 'mesh' ? N * G * (G - 1) : 2 * N * G * switchNodes;
  const nicChannels = 2 * N * E * P;
  const spineChannels = o.rail === 'leafspine' ? 2 * P * E * leavesPerRail * leafHosts : 0;
  checkSize('fabric', nodeCount, meshChannels + nicChannels + spineChannels);
  const b = new TopologyBuilder(2, { nodes: nodeCount, channels: meshChannels + nicChannels + spineChannels }, { bandwidth: o.linkBandwidth, latency: o.linkLatency });
  // Coordinates: (node, accelerator) for accelerators; (node, −1 − plane) for scale-up switches;
  // (−1 − rail, plane) for rail switches, so drawings can group them.
  for (let n = 0; n < N; n++) for (let g = 0; g < G; g++) b.addNode(NodeKind.Terminal, [n, g]);
  if (o.scaleUp === 'mesh') {
    const perPeer = o.links / (G - 1);
    const pair = { bandwidth: perPeer * o.linkBandwidth, latency: o.linkLatency };
    for (let n = 0; n < N; n++) {
      for (let a = 0; a < G; a++) for (let step = 1; step < G; step++) b.addChannel(n * G + a, n * G + ((a + step) % G), 'scaleup', pair);
    }
  } else {
    const perNode = o.stripe ? [o.links] : linksPerPlane(o.links, K);
    for (let n = 0; n < N; n++) {
      const first = b.nodes;
      for (let k = 0; k < switchNodes; k++) b.addNode(NodeKind.Switch, [n, -1 - k]);
      for (let g = 0; g < G; g++) {
        for (let k = 0; k < switchNodes; k++) b.addLink(n * G + g, first + k, 'scaleup-up', 'scaleup-down', { bandwidth: perNode[k] * o.linkBandwidth, latency: o.linkLatency });
      }
    }
  }
  if (E > 0) {
    const port = { bandwidth: o.nicBandwidth / P, latency: o.nicLatency };
    const trunk = { bandwidth: o.railBandwidth ?? o.nicBandwidth / P, latency: o.railLatency ?? o.nicLatency };
    for (let p = 0; p < P; p++) {
      const leaf0 = b.nodes;
      for (let e = 0; e < E; e++) for (let l = 0; l < leavesPerRail; l++) b.addNode(NodeKind.Switch, [-1 - e, p]);
      const spine0 = b.nodes;
      for (let s = 0; s < spines; s++) b.addNode(NodeKind.Switch, [-1 - E - s, p]);
      for (let n = 0; n < N; n++) {
        for (let e = 0; e < E; e++) b.addLink(n * G + nicGpus[e], leaf0 + e * leavesPerRail + Math.floor(n / leafHosts), 'nic-up', 'nic-down', port);
      }
      // Every leaf has as many uplinks as nodes under it (non-blocking), uplink j to spine j mod S.
      for (let e = 0; e < E; e++) {
        for (let l = 0; l < leavesPerRail && spines > 0; l++) {
          for (let j = 0; j < leafHosts; j++) b.addLink(leaf0 + e * leavesPerRail + l, spine0 + ((e * leafHosts + j) % spines), 'rail-up', 'rail-down', trunk);
        }
      }
    }
  }
  const family = o.family ?? 'fabric';
  return b.build({
    family,
    spec: o.spec ?? family,
    params: {
      machine: o.machine,
      nodes: N,
      gpusPerNode: G,
      scaleUp: o.scaleUp,
      scaleUpPlanes: K,
      scaleUpLinksPerPlane: K > 0 ? linksPerPlane(o.links, K) : [],
      scaleUpStriped: K > 0 && o.stripe,
      scaleUpLinks: o.links,
      scaleUpLinkBandwidth: o.linkBandwidth,
      scaleUpLatency: o.linkLatency,
      scaleUpBandwidthPerGpu: o.links * o.linkBandwidth,
      inSwitchReduction: o.inSwitchReduction && o.scaleUp === 'switch',
      nics: o.nics,
      scaleOutBuilt: E > 0,
      nicGpus: [...nicGpus],
      nicBandwidth: o.nicBandwidth,
      nicLatency: o.nicLatency,
      rail: E > 0 ? o.rail : 'none',
      railPlanes: P,
      leafHosts: E > 0 ? leafHosts : 0,
      leavesPerRail,
      spines,
      bandwidth: o.linkBandwidth,
      latency: o.linkLatency,
    } satisfies FabricParams,
    // Accelerators forward (NCCL's PXN sends through a peer's NIC over NVLink; xGMI meshes relay):
    // routes may pass through them, so distances count every hop, switches included.
    distanceConvention: 'router-hops',
  });
}

/**
 * An accelerator's L links over K planes: ⌊L/K⌋ each, the L mod K extra ones on the outer planes
 * (first and last alternately), as HGX H100 wires 18 NVLinks to its 4 NVSwitches 5, 4, 4, 5.
 */
export function linksPerPlane(links: number, planes: number): number[] {
  const out = new Array<number>(planes).fill(Math.floor(links / planes));
  for (let i = 0; i < links % planes; i++) out[i % 2 === 0 ? i / 2 : planes - 1 - (i - 1) / 2]++;
  return out;
}

/** Machine defaults a preset family fills in before the spec's own keys. */
export type FabricDefaults = Omit<FabricOptions, 'spec' | 'family'>;

/** Reads the `fabric` keys of a spec over a machine's defaults. */
export function fabricOptionsFromSpec(spec: Spec, d: FabricDefaults): FabricOptions {
  const gpus = spec.int('gpus', { min: 1, max: 4096, default: d.gpus });
  const nodes = spec.int('nodes', { min: 1, max: 1 << 16, default: d.nodes });
  const scaleUp = spec.choice('scaleup', SCALE_UP_KINDS, d.scaleUp);
  const planes = spec.int('planes', { min: 1, max: 256, default: d.planes });
  // A mesh keeps the machine's links per peer when only the accelerator count changes.
  const perPeer = d.scaleUp === 'mesh' ? Math.max(1, Math.round(d.links / (d.gpus - 1))) : 1;
  const links = spec.int('links', { min: 1, max: 4096, default: scaleUp === 'mesh' ? (gpus - 1) * perPeer : d.links });
  const linkBandwidth = spec.bandwidth('linkbw', d.linkBandwidth)!;
  const linkLatency = spec.time('linklat', d.linkLatency)!;
  const inSwitchReduction = spec.bool('nvls', d.inSwitchReduction);
  const stripe = spec.bool('stripe', d.stripe);
  const nics = spec.int('nics', { min: 0, max: 4096, default: d.nics === d.gpus ? gpus : d.nics });
  const nicGpusText = spec.raw('nicgpus');
  const nicGpus = nicGpusText === undefined ? d.nicGpus : nicGpusText.split('/').map((s) => Number(s));
  const nicBandwidth = spec.bandwidth('nicbw', d.nicBandwidth)!;
  const nicLatency = spec.time('niclat', d.nicLatency)!;
  const rail = spec.choice('rail', RAIL_KINDS, d.rail);
  const railPlanes = spec.int('railplanes', { min: 1, max: 8, default: d.railPlanes });
  const leafHosts = spec.int('leafhosts', { min: 1, max: 1 << 16, default: Math.min(d.leafHosts, nodes) });
  const spines = spec.int('spines', { min: 1, max: 1 << 16, default: d.spines });
  const railBandwidth = spec.bandwidth('railbw', d.railBandwidth);
  const railLatency = spec.time('raillat', d.railLatency);
  if (nicGpus && nicGpus.some((g) => !Number.isInteger(g))) throw new InputError(spec.field('nicgpus'), nicGpusText, 'accelerator indices separated by "/", e.g. 0/2/4/6');
  return {
    gpus, nodes, scaleUp, planes, links, linkBandwidth, linkLatency, stripe, inSwitchReduction,
    nics, nicGpus,
    nicBandwidth, nicLatency, rail, railPlanes, leafHosts, spines, railBandwidth, railLatency, machine: d.machine,
  };
}

const GBps = 1e9;
const Gbps = 1e9 / 8;

/**
 * The machine presets. Sources, one per value, in docs/topology.md ("Accelerator fabrics"); values
 * no public document gives (link latencies) are stated there as assumptions.
 */
export const FABRIC_MACHINES: Readonly<Record<string, FabricDefaults>> = {
  // NVIDIA HGX H100 8-GPU: NVLink 4, 18 links × 25 GB/s per direction per GPU (900 GB/s bidirectional),
  // 4 third-generation NVSwitch chips with NVLink SHARP; 8 ConnectX-7 NICs of 400 Gb/s, one per GPU.
  'hgx-h100': {
    machine: 'hgx-h100', gpus: 8, nodes: 1, scaleUp: 'switch', planes: 4, links: 18, linkBandwidth: 25 * GBps, linkLatency: 150e-9, stripe: true,
    inSwitchReduction: true, nics: 8, nicBandwidth: 400 * Gbps, nicLatency: 1e-6, rail: 'switch', railPlanes: 1, leafHosts: 32, spines: 8,
  },
  // NVIDIA HGX A100 8-GPU (DGX A100): NVLink 3, 12 links × 25 GB/s per direction per GPU (600 GB/s
  // bidirectional), 2 to each of 6 second-generation NVSwitch chips, which do not reduce (no NVLink
  // SHARP before Hopper); 8 ConnectX-6 HDR NICs of 200 Gb/s, one per GPU.
  'hgx-a100': {
    machine: 'hgx-a100', gpus: 8, nodes: 1, scaleUp: 'switch', planes: 6, links: 12, linkBandwidth: 25 * GBps, linkLatency: 150e-9, stripe: true,
    inSwitchReduction: false, nics: 8, nicBandwidth: 200 * Gbps, nicLatency: 1e-6, rail: 'switch', railPlanes: 1, leafHosts: 32, spines: 8,
  },
  // AMD Instinct MI300X platform: 8 OAM GPUs, each with 7 xGMI links of 64 GB/s per direction, one to
  // every peer (full mesh); 8 NICs of 400 Gb/s, one per GPU.
  mi300x: {
    machine: 'mi300x', gpus: 8, nodes: 1, scaleUp: 'mesh', planes: 1, links: 7, linkBandwidth: 64 * GBps, linkLatency: 150e-9, stripe: true,
    inSwitchReduction: false, nics: 8, nicBandwidth: 400 * Gbps, nicLatency: 1e-6, rail: 'switch', railPlanes: 1, leafHosts: 32, spines: 8,
  },
  // NVIDIA GB200 NVL72: 72 Blackwell GPUs in one NVLink domain, NVLink 5: 18 links × 50 GB/s per
  // direction per GPU (1.8 TB/s bidirectional), 18 NVSwitch chips (9 trays × 2), NVLink SHARP; one
  // ConnectX-7 400 Gb/s NIC per GPU for scale-out.
  'gb200-nvl72': {
    machine: 'gb200-nvl72', gpus: 72, nodes: 1, scaleUp: 'switch', planes: 18, links: 18, linkBandwidth: 50 * GBps, linkLatency: 150e-9, stripe: true,
    inSwitchReduction: true, nics: 72, nicBandwidth: 400 * Gbps, nicLatency: 1e-6, rail: 'switch', railPlanes: 1, leafHosts: 32, spines: 8,
  },
};

const FABRIC_KEYS =
  'gpus=G,nodes=N,scaleup=mesh|switch,planes=K,stripe=on|off,links=L,linkbw=..,linklat=..,nvls=on|off,nics=E,nicgpus=0/1/..,nicbw=..,niclat=..,rail=switch|leafspine,railplanes=P,leafhosts=H,spines=S,railbw=..,raillat=..';

function fabricFamily(name: string, defaults: FabricDefaults, description: string): TopologyFamily {
  return {
    name,
    usage: `${name}:[${FABRIC_KEYS}]`,
    description,
    build(spec: Spec): Topology {
      if (spec.positional !== undefined) throw new InputError(spec.field('positional'), spec.positional, `key=value pairs only (${FABRIC_KEYS})`);
      // bw= and lat= (every family's link keys) set the scale-up link here.
      const d = { ...defaults, linkBandwidth: spec.bandwidth('bw', defaults.linkBandwidth)!, linkLatency: spec.time('lat', defaults.linkLatency)! };
      return fabric({ ...fabricOptionsFromSpec(spec, d), spec: spec.text, family: name });
    },
    defaultRouting: 'shortest',
  };
}

export const fabricFamilies: readonly TopologyFamily[] = [
  fabricFamily('fabric', { ...FABRIC_MACHINES['hgx-h100'], machine: 'custom', inSwitchReduction: false }, 'hierarchical accelerator fabric: scale-up mesh or switch planes per node, NICs on rail-optimised scale-out (defaults: HGX H100 without NVLS)'),
  fabricFamily('hgx-h100', FABRIC_MACHINES['hgx-h100'], 'NVIDIA HGX H100 nodes: 8 GPUs, 4 NVSwitches (18 × 25 GB/s NVLink 4), 8 × 400 Gb/s NICs on rails'),
  fabricFamily('hgx-a100', FABRIC_MACHINES['hgx-a100'], 'NVIDIA HGX A100 nodes: 8 GPUs, 6 NVSwitches (12 × 25 GB/s NVLink 3, no in-switch reduction), 8 × 200 Gb/s NICs on rails'),
  fabricFamily('mi300x', FABRIC_MACHINES.mi300x, 'AMD MI300X nodes: 8 GPUs in a full mesh of xGMI links (64 GB/s per direction), 8 × 400 Gb/s NICs on rails'),
  fabricFamily('gb200-nvl72', FABRIC_MACHINES['gb200-nvl72'], 'NVIDIA GB200 NVL72: 72 GPUs, 18 NVSwitch planes (18 × 50 GB/s NVLink 5), one 400 Gb/s NIC per GPU'),
];
