/**
 * What the collective-library algorithms (issue 25) need to know of a machine: accelerators per
 * node and nodes (from a fabric topology's params; any other topology is one node of all ranks),
 * whether the scale-up network is a full mesh, and the ring each channel follows. Plus the ring
 * reduce-scatter and allgather over any list of ranks, on any stream, that the ring, hierarchical
 * and tree-like schedules are made of.
 */
import type { Topology } from '../../../topology/graph.js';
import { RECV, type ScheduleBuilder } from '../../schedule.js';
import type { ParamDecl } from '../../registry.js';
import { mod, segmentBounds } from '../common.js';
import { Rng } from '../../../util/rng.js';

export interface MachineLayout {
  /** Accelerators per node (G) and nodes (N); ranks = N·G, rank = node·G + local index. */
  readonly gpusPerNode: number;
  readonly nodes: number;
  /** The scale-up network is a full mesh of direct links (MI300X) rather than switches. */
  readonly meshScaleUp: boolean;
  /** The scale-up switches reduce in the switch (NVLS). */
  readonly inSwitchReduction: boolean;
}

export function layoutOf(t: Topology): MachineLayout {
  const p = t.params as { gpusPerNode?: unknown; nodes?: unknown; scaleUp?: unknown; inSwitchReduction?: unknown };
  const ranks = t.numEndpoints;
  if (typeof p.gpusPerNode === 'number' && typeof p.nodes === 'number' && p.gpusPerNode * p.nodes === ranks) {
    return { gpusPerNode: p.gpusPerNode, nodes: p.nodes, meshScaleUp: p.scaleUp === 'mesh', inSwitchReduction: p.inSwitchReduction === true };
  }
  // Any other topology: one node; a fullmesh family is a mesh scale-up.
  return { gpusPerNode: ranks, nodes: 1, meshScaleUp: t.family === 'fullmesh', inSwitchReduction: false };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Strides s in 1..G−1 with gcd(s, G) = 1: each makes i → i + s a ring through all G accelerators. */
export function ringStrides(g: number): number[] {
  const out: number[] = [];
  for (let s = 1; s < g; s++) if (gcd(s, g) === 1) out.push(s);
  return out.length > 0 ? out : [1];
}

/**
 * Edge-disjoint directed Hamiltonian cycles of the complete digraph on G vertices: G − 1 rings that
 * together use every direct link of a full mesh once in each direction (they exist for every G but
 * 4 and 6, Tillson 1980), as RCCL's rings over MI300X's xGMI mesh use all seven links of a GPU.
 * Found by a seeded randomised depth-first search (fixed seed: the same rings every run); when it
 * finds no full set within its effort cap (G = 4, 6, or large G), the rings of the strides coprime
 * with G. Hand-written: no library decomposes digraphs into Hamiltonian cycles.
 */
export function meshRings(G: number): number[][] {
  let rings = meshRingCache.get(G);
  if (rings === undefined) {
    rings = G <= 32 ? searchDecomposition(G) ?? strideRings(G) : strideRings(G);
    meshRingCache.set(G, rings);
  }
  return rings;
}

const meshRingCache = new Map<number, number[][]>();

function strideRings(G: number): number[][] {
  return ringStrides(G).map((s) => Array.from({ length: G }, (_, i) => (i * s) % G));
}

function searchDecomposition(G: number): number[][] | undefined {
  if (G === 2) return [[0, 1]];
  const rng = new Rng(25);
  for (let attempt = 0; attempt < 200; attempt++) {
    const used = new Uint8Array(G * G);
    const rings: number[][] = [];
    for (let k = 0; k < G - 1; k++) {
      let ring: number[] | undefined;
      for (let tries = 0; tries < 100 && !ring; tries++) ring = randomHamiltonianCycle(G, used, rng);
      if (!ring) break;
      for (let i = 0; i < G; i++) used[ring[i] * G + ring[(i + 1) % G]] = 1;
      rings.push(ring);
    }
    if (rings.length === G - 1) return rings;
  }
  return undefined;
}

/** A Hamiltonian cycle from vertex 0 over unused arcs, by depth-first search in random order with a step budget. */
function randomHamiltonianCycle(G: number, used: Uint8Array, rng: Rng): number[] | undefined {
  const path = [0];
  const seen = new Uint8Array(G);
  seen[0] = 1;
  let budget = 2000;
  const extend = (): boolean => {
    if (--budget < 0) return false;
    const u = path[path.length - 1];
    if (path.length === G) return used[u * G] === 0;
    const next: number[] = [];
    for (let v = 0; v < G; v++) if (!seen[v] && !used[u * G + v]) next.push(v);
    for (let i = next.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [next[i], next[j]] = [next[j], next[i]];
    }
    for (const v of next) {
      seen[v] = 1;
      path.push(v);
      if (extend()) return true;
      path.pop();
      seen[v] = 0;
    }
    return false;
  };
  return extend() ? path : undefined;
}

/**
 * The ring of channel c, as the list of ranks in ring order. Inside a node: on a full mesh, the
 * mesh's disjoint rings in turn (meshRings), so channels use different direct links; on switches,
 * the rotation starting at accelerator c (so each channel leaves the node from a different
 * accelerator, hence through a different NIC and rail). Nodes follow in order, each visited with
 * the same local order (the ring crosses from the last accelerator of one node to the first of the
 * next).
 */
export function channelRing(layout: MachineLayout, c: number): number[] {
  const G = layout.gpusPerNode;
  let local: number[];
  if (layout.meshScaleUp) {
    const rings = meshRings(G);
    const base = rings[c % rings.length];
    const shift = Math.floor(c / rings.length) % G;
    local = base.map((_, i) => base[(i + shift) % G]);
  } else {
    local = Array.from({ length: G }, (_, i) => (c + i) % G);
  }
  const ring: number[] = [];
  for (let n = 0; n < layout.nodes; n++) for (const g of local) ring.push(n * G + g);
  return ring;
}

/** Where a ring phase works: the segments, a one-segment tmp, the stream and tag. */
export interface RingPhase {
  readonly b: ScheduleBuilder;
  /** Ranks in ring order. */
  readonly ring: readonly number[];
  /** Ring position i's segment: [offset, bytes) within `buf` (the same place on every rank). */
  readonly segment: (i: number) => readonly [buf: number, offset: number, bytes: number];
  /** A tmp buffer holding at least the largest segment. */
  readonly tmp: number;
  readonly stream: number;
  readonly tag: number;
}

function region(p: RingPhase, i: number): number {
  const [buf, offset, bytes] = p.segment(i);
  return p.b.region(buf, offset, bytes);
}

/** Contiguous segments: position i's segment is [bounds[i], bounds[i+1]) of `buf`. */
export function contiguous(buf: number, bounds: readonly number[]): RingPhase['segment'] {
  return (i) => [buf, bounds[i], bounds[i + 1] - bounds[i]];
}

/**
 * A ring phase over any regions: ring position i's segment is `region(i)` (a fresh region id each
 * call is fine: regions are interned) of `bytes(i)` bytes, the same on every rank of the ring.
 */
export interface RingRegions {
  readonly b: ScheduleBuilder;
  readonly ring: readonly number[];
  region(i: number): number;
  bytes(i: number): number;
  /** A tmp buffer holding at least the largest segment. */
  readonly tmp: number;
  readonly stream: number;
  readonly tag: number;
}

function regionsOf(p: RingPhase): RingRegions {
  return { b: p.b, ring: p.ring, region: (i) => region(p, i), bytes: (i) => p.segment(i)[2], tmp: p.tmp, stream: p.stream, tag: p.tag };
}

/** Ring reduce-scatter: afterwards ring position v holds its segment v reduced over the ring. */
export function ringReduceScatterOn(p: RingPhase): void {
  ringReduceScatterOver(regionsOf(p));
}

/** Ring allgather: ring position v starts with segment v, every position ends with all. */
export function ringAllgatherOn(p: RingPhase): void {
  ringAllgatherOver(regionsOf(p));
}

/** ringReduceScatterOn over any regions. */
export function ringReduceScatterOver(p: RingRegions): void {
  const n = p.ring.length;
  for (let k = 0; k < n - 1; k++) {
    for (let v = 0; v < n; v++) {
      const out = mod(v - k - 1, n);
      const inn = mod(v - k - 2, n);
      const me = p.ring[v];
      p.b.send(me, p.ring[mod(v + 1, n)], p.region(out), p.tag, p.stream);
      const tmp = p.b.region(p.tmp, 0, p.bytes(inn));
      p.b.recv(me, p.ring[mod(v - 1, n)], tmp, p.tag, p.stream);
      p.b.reduce(me, tmp, p.region(inn), p.stream);
    }
  }
}

/** ringAllgatherOn over any regions. */
export function ringAllgatherOver(p: RingRegions): void {
  const n = p.ring.length;
  for (let k = 0; k < n - 1; k++) {
    for (let v = 0; v < n; v++) {
      const me = p.ring[v];
      p.b.send(me, p.ring[mod(v + 1, n)], p.region(mod(v - k, n)), p.tag, p.stream);
      p.b.recv(me, p.ring[mod(v - 1, n)], p.region(mod(v - k - 1, n)), p.tag, p.stream);
    }
  }
}

/** Boundaries of `parts` segments of [from, to), cut on `unit` bytes (segmentBounds, shifted to `from`). */
export function cut(from: number, to: number, parts: number, unit: number): number[] {
  return segmentBounds(to - from, parts, unit).map((x) => x + from);
}

/** The wire protocols of NCCL and RCCL: a timing choice (sim/library), recorded in the algorithm spec. */
export const LIBRARY_PROTOCOLS = ['Simple', 'LL128', 'LL'] as const;
export type LibraryProtocol = (typeof LIBRARY_PROTOCOLS)[number];

export const PROTO_PARAM: ParamDecl = {
  key: 'proto',
  kind: 'choice',
  choices: LIBRARY_PROTOCOLS,
  default: 'Simple',
  description: "wire protocol (timing only: the machine preset's per-protocol efficiency and step latency; docs/validation.md)",
};

/** Names of the libraries' time presets (tuning.ts); kept here so the parameter needs no import cycle. */
export const MACHINE_CHOICES = ['auto', 'generic', 'hgx-h100', 'hgx-a100', 'gb200-nvl72', 'h100-tcpxo', 'mi300x'] as const;

export const MACHINE_PARAM: ParamDecl = {
  key: 'machine',
  kind: 'choice',
  choices: MACHINE_CHOICES,
  default: 'auto',
  description: "the library's time preset (timing only); auto: the fabric's machine, else generic (NCCL's constants)",
};

export const CHANNELS_PARAM = {
  key: 'channels',
  kind: 'int' as const,
  default: 0,
  min: 0,
  max: 256,
  description: 'channels (one stream each, its own ring and slice of the data); 0: one per accelerator of a node (switches) or per ring stride (full mesh)',
} as const satisfies ParamDecl;

export const CHUNKS_PARAM: ParamDecl = {
  key: 'chunks',
  kind: 'int',
  default: 1,
  min: 1,
  max: 4096,
  description: "pipelined loops per channel (each a message per ring step); 1: the library's step model, whose step latency already stands for the pipeline",
};

/** Channels to use: the parameter, or by default one per accelerator (switches) or per ring stride (full mesh). */
export function channelCount(layout: MachineLayout, asked: number): number {
  if (asked > 0) return asked;
  return layout.meshScaleUp ? meshRings(layout.gpusPerNode).length : layout.gpusPerNode;
}

/** Bytes of a tmp buffer holding any segment of `bytes` cut into `parts` on `unit` (a whole number of units). */
export function segmentTmpBytes(bytes: number, parts: number, unit: number): number {
  return (Math.ceil(bytes / unit / parts) + 1) * unit;
}

/** Rank r's stream `from` tells its stream `to` that a chunk's phase is done (a zero-byte message to itself, as MSCCL's dependencies): the pipelines of hierarchical.ts and nvls-tree.ts. */
export function streamSignal(b: ScheduleBuilder, ranks: number, from: number, to: number, tag: number): void {
  const none = b.region(RECV, 0, 0);
  for (let r = 0; r < ranks; r++) {
    b.send(r, r, none, tag, from);
    b.recv(r, r, none, tag, to);
  }
}

/** `supports` of the in-switch reduction algorithms (nvls, nvls-tree): the topology's scale-up switches must reduce. */
export function inSwitchReductionSupport(ctx: { readonly topology: Topology }): string | undefined {
  return layoutOf(ctx.topology).inSwitchReduction ? undefined : `${ctx.topology.spec} declares no in-switch reduction`;
}
