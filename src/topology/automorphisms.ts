/**
 * Declared automorphism groups of the topology families (issue 29, symmetry). A family declares
 * commuting generators, each as a permutation of its terminals in the generator's endpoint order
 * (`Topology.physicalEndpoints`), of finite order; `automorphismGenerators` extends each to every
 * node and channel and verifies it: an automorphism maps every channel to a channel of the same
 * bandwidth, latency and class. The group is the abelian group they generate (exponent vectors).
 *
 * Declared:
 * - torus: the translations, one unit shift per dimension (order k_d; every node is a terminal);
 * - ring, fullmesh: the rotation r -> r + 1 (order n);
 * - hypercube: flipping one address bit per dimension (order 2);
 * - fattree (k-ary n-tree, untapered): two groups, rotating one digit of the terminal address (base
 *   k) per digit (order k), and, for k a power of two, flipping one bit of one digit (order 2), each
 *   with the switches' digits alike (fatTreeDigitMap);
 * - fullmesh with a power-of-two n: also the bit flips (a second group);
 * - twolevel: rotating the leaves, terminal r -> r + hosts (order leaves), kept only where the
 *   verification passes (the spine windows line up: see twoLevelSymmetry in twolevel.ts).
 * - the accelerator fabrics (fabric.ts: `fabric`, `hgx-h100`, `hgx-a100`, `mi300x`, `gb200-nvl72`),
 *   rank n·G + g for accelerator g of node n: two groups, fabricGroups below.
 * Meshes, dragonflies and the rest declare nothing (their runs use the full engine).
 *
 * Switches are mapped by extension, breadth first from the terminals: a node first reached from u
 * by u's out-port p maps to the node π(u)'s out-port p reaches. This follows the wiring up a tree (a
 * leaf's up-port j to the j-th switch above, in every subtree alike); the result is then checked
 * channel by channel, so a wrong extension is a refused generator, never a wrong run.
 */
import type { Topology } from './graph.js';
import { fabricParams, type FabricParams } from './fabric.js';

export interface AutomorphismGenerator {
  /** What it does, for result records (e.g. "x+1", "rotate digit 2"). */
  readonly name: string;
  /** Its order: the smallest power that is the identity. */
  readonly order: number;
  /** The image of every node. */
  readonly node: Int32Array;
  /** The image of every channel. */
  readonly channel: Int32Array;
}

export interface AutomorphismGroup {
  /** The family's name for the group, e.g. "translations of torus 4x4x4". */
  readonly name: string;
  readonly generators: readonly AutomorphismGenerator[];
  /** Declared generators that failed verification, with why (recorded, never silently dropped). */
  readonly refused: readonly string[];
}

interface TerminalPermutation {
  readonly name: string;
  readonly order: number;
  /** Image of each terminal, by physical endpoint index. */
  readonly image: (i: number) => number;
  /** Image of every node, when the family states it (else extended from the terminals by ports). */
  readonly node?: (v: number) => number;
}

/** Digit d (base k) of x replaced by f(digit). */
function mapDigit(x: number, k: number, d: number, f: (v: number) => number): number {
  const w = k ** d;
  const v = Math.floor(x / w) % k;
  return x + (f(v) - v) * w;
}

/**
 * A k-ary n-tree (fattree.ts): terminal t has digits t_0..t_{n-1} (base k); a level-l switch w has
 * digits w_0..w_{n-2}, where w_i (i < l) is the up-link chosen at level i and w_i (i >= l) is terminal
 * digit i+1. A permutation f of digit values applied to terminal digit d is an automorphism when it
 * is applied alike to switch digit d−1 at levels below d and to switch digit d (the up-link choice)
 * at levels above d: then d-mod-k up/down, which picks the up-link by the destination's digit l at
 * level l, is equivariant too (checked in flow/symmetry.ts on every representative flow).
 */
function fatTreeDigitMap(t: Topology, d: number, f: (v: number) => number, name: string, order: number): TerminalPermutation {
  const { k, levels } = t.params as { k: number; levels: number };
  const terminals = k ** levels;
  const perLevel = k ** (levels - 1);
  return {
    name,
    order,
    image: (i) => mapDigit(i, k, d, f),
    node: (v) => {
      if (v < terminals) return mapDigit(v, k, d, f);
      const level = Math.floor((v - terminals) / perLevel);
      const w = (v - terminals) % perLevel;
      if (level === d) return v;
      return terminals + level * perLevel + mapDigit(w, k, level < d ? d - 1 : d, f);
    },
  };
}

/** The declared groups of t's family: usually one; several when no single abelian group covers the useful symmetries. */
function declaredGroups(t: Topology): { name: string; perms: TerminalPermutation[] }[] {
  const one = declared(t);
  if (one) {
    const groups = [one];
    const n = t.physicalEndpoints.length;
    // A full mesh is the complete graph: bit flips (XOR) are automorphisms too, and pairwise alltoall's XOR order is equivariant under them.
    if (t.family === 'fullmesh' && (n & (n - 1)) === 0) {
      groups.push({ name: `bit flips of ${t.spec}`, perms: Array.from({ length: Math.log2(n) }, (_, b) => ({ name: `flip bit ${b}`, order: 2, image: (i: number) => i ^ (1 << b) })) });
    }
    return groups;
  }
  const fabric = fabricParams(t);
  if (fabric) return fabricGroups(t, fabric);
  if (t.family === 'fattree' && (t.params as { taper?: number }).taper === 1) {
    const { k, levels } = t.params as { k: number; levels: number };
    if (k < 2) return [];
    const rotations = Array.from({ length: levels }, (_, d) => fatTreeDigitMap(t, d, (v) => (v + 1) % k, `rotate digit ${d}`, k));
    const groups = [{ name: `digit rotations of ${t.spec}`, perms: rotations }];
    if ((k & (k - 1)) === 0) {
      const flips: TerminalPermutation[] = [];
      for (let d = 0; d < levels; d++) for (let b = 1; b < k; b <<= 1) flips.push(fatTreeDigitMap(t, d, (v) => v ^ b, `flip bit ${Math.log2(b)} of digit ${d}`, 2));
      // First: both groups have order k^levels, and one that reaches it spares checking the other (XOR-ordered schedules).
      groups.unshift({ name: `digit bit flips of ${t.spec}`, perms: flips });
    }
    return groups;
  }
  return [];
}

/**
 * An accelerator fabric's symmetries. Nodes: every node is wired alike (its scale-up network, NIC e
 * to rail e), so permuting nodes is an automorphism wherever the rails cannot tell them apart: any
 * node permutation on single-switch rails; under leaf–spine rails (every leaf of a rail has the same
 * uplinks) the permutations that keep each leaf's nodes together. Accelerators: moving g to g' in
 * every node is one when the NICs move with them, i.e. there are no NICs (one node) or NIC e hangs
 * off accelerator e (E = G, the presets' one NIC per GPU), rail e then moving to rail e' (and under
 * leaf–spine the spines with it, see spineShift); the scale-up network treats every accelerator
 * alike (a full mesh, or the same links to every plane).
 * Two groups, since no abelian group holds both the rotations rank symmetry needs (a ring, a shift
 * order) and the bit flips XOR-ordered schedules need:
 * - rotations: node+1 (order N; under leaf–spine, leaf+1, order N / leafhosts, and node+1 within
 *   every leaf, order leafhosts), and gpu+1 in every node (order G);
 * - bit flips (node or accelerator counts that are powers of two): one bit of the node index (under
 *   leaf–spine, of the position in a leaf or of the leaf index) or of the accelerator index.
 * Each generator is still verified channel by channel (extend), so a wiring that breaks one refuses it.
 */
function fabricGroups(t: Topology, p: FabricParams): { name: string; perms: TerminalPermutation[] }[] {
  const N = p.nodes;
  const G = p.gpusPerNode;
  // Node blocks that move together: the leaves of leaf–spine rails (a partial last leaf breaks the leaf shift).
  const block = p.rail === 'leafspine' ? p.leafHosts : N;
  const wholeLeaves = N % block === 0;
  const nicPerGpu = !p.scaleOutBuilt || (p.nics === G && p.nicGpus.every((g, e) => g === e));
  // Leaf uplink j of rail e goes to spine (e·leafhosts + j) mod S: moving rail e to e + 1 shifts the
  // spines by leafhosts, consistent around all E rails when E·leafhosts ≡ 0 (mod S); a bit flip of e
  // needs every rail's leaves on the same spines (leafhosts ≡ 0 mod S).
  const spineShift = (x: number) => p.rail !== 'leafspine' || x % p.spines === 0;
  const gpusRotate = nicPerGpu && spineShift(G * p.leafHosts);
  const gpusFlip = nicPerGpu && spineShift(p.leafHosts);
  const onNode = (f: (node: number) => number) => (i: number) => f(Math.floor(i / G)) * G + (i % G);
  const onGpu = (f: (gpu: number) => number) => (i: number) => i - (i % G) + f(i % G);
  const rotations: TerminalPermutation[] = [];
  if (N > 1 && block === N) rotations.push({ name: 'node+1', order: N, image: onNode((v) => (v + 1) % N) });
  if (block < N && wholeLeaves) {
    rotations.push({ name: 'leaf+1', order: N / block, image: onNode((v) => (v + block) % N) });
    if (block > 1) rotations.push({ name: 'node+1 in its leaf', order: block, image: onNode((v) => v - (v % block) + ((v + 1) % block)) });
  }
  if (G > 1 && gpusRotate) rotations.push({ name: 'gpu+1', order: G, image: onGpu((g) => (g + 1) % G) });
  const groups = [{ name: `node and accelerator rotations of ${t.spec}`, perms: rotations }];
  const pow2 = (x: number) => x > 1 && (x & (x - 1)) === 0;
  const flips: TerminalPermutation[] = [];
  // Flipping a node bit below log2(block) stays in the leaf; above it, it swaps whole leaves.
  if (wholeLeaves && (block === N ? pow2(N) : (block === 1 || pow2(block)) && pow2(N / block))) {
    for (let b = 1; b < N; b <<= 1) flips.push({ name: `flip node bit ${Math.log2(b)}`, order: 2, image: onNode((v) => v ^ b) });
  }
  if (gpusFlip && pow2(G)) for (let b = 1; b < G; b <<= 1) flips.push({ name: `flip gpu bit ${Math.log2(b)}`, order: 2, image: onGpu((g) => g ^ b) });
  if (flips.length > 0) groups.push({ name: `node and accelerator bit flips of ${t.spec}`, perms: flips });
  return groups.filter((g) => g.perms.length > 0);
}

/** The declared terminal permutations of t's family (none for a family that declares nothing). */
function declared(t: Topology): { name: string; perms: TerminalPermutation[] } | undefined {
  const p = t.params as Record<string, unknown>;
  const n = t.physicalEndpoints.length;
  switch (t.family) {
    case 'torus': {
      const dims = p.dims as number[];
      if (dims.reduce((a, b) => a * b, 1) !== n) return undefined;
      const perms: TerminalPermutation[] = [];
      let stride = 1;
      for (let d = 0; d < dims.length; d++) {
        const k = dims[d];
        const s = stride;
        if (k > 1) perms.push({ name: `${'xyzwvu'[d] ?? `d${d}`}+1`, order: k, image: (i) => i + (Math.floor(i / s) % k === k - 1 ? s - k * s : s) });
        stride *= k;
      }
      return { name: `translations of ${t.spec}`, perms };
    }
    case 'ring':
    case 'fullmesh':
      return { name: `rotations of ${t.spec}`, perms: [{ name: 'r+1', order: n, image: (i) => (i + 1) % n }] };
    case 'hypercube': {
      const d = p.d as number;
      return { name: `bit flips of ${t.spec}`, perms: Array.from({ length: d }, (_, b) => ({ name: `flip bit ${b}`, order: 2, image: (i: number) => i ^ (1 << b) })) };
    }
    case 'fattree':
      return undefined; // two groups: declaredGroups
    case 'twolevel': {
      const hosts = p.hosts as number;
      const leaves = p.leaves as number;
      if (leaves < 2) return undefined;
      return { name: `leaf rotations of ${t.spec}`, perms: [{ name: 'leaf+1', order: leaves, image: (i) => (i + hosts) % n }] };
    }
    default:
      return undefined;
  }
}

/** The verified generators of each of t's declared automorphism groups (none when its family declares none). */
export function automorphismGroups(t: Topology): AutomorphismGroup[] {
  return declaredGroups(t).map((decl) => {
    const generators: AutomorphismGenerator[] = [];
    const refused: string[] = [];
    for (const perm of decl.perms) {
      const g = extend(t, perm);
      if (typeof g === 'string') refused.push(`${perm.name}: ${g}`);
      else generators.push(g);
    }
    return { name: decl.name, generators, refused };
  });
}

/** Extends a terminal permutation to nodes and channels and verifies it; a reason string when it is no automorphism. */
function extend(t: Topology, perm: TerminalPermutation): AutomorphismGenerator | string {
  const N = t.numNodes;
  const node = new Int32Array(N).fill(-1);
  const used = new Uint8Array(N);
  const queue = new Int32Array(N);
  let tail = 0;
  const phys = t.physicalEndpoints;
  if (perm.node) {
    for (let v = 0; v < N; v++) {
      const w = perm.node(v);
      if (!(w >= 0 && w < N) || used[w]) return `node ${v} has no image of its own`;
      node[v] = w;
      used[w] = 1;
    }
    for (let i = 0; i < phys.length; i++) if (node[phys[i]] !== phys[perm.image(i)]) return `terminal ${i} maps inconsistently`;
    tail = N;
  }
  for (let i = 0; i < phys.length && !perm.node; i++) {
    const j = perm.image(i);
    if (!(j >= 0 && j < phys.length)) return `terminal ${i} maps outside the terminals`;
    if (used[phys[j]]) return `terminal ${j} is the image of two terminals`;
    node[phys[i]] = phys[j];
    used[phys[j]] = 1;
    queue[tail++] = phys[i];
  }
  const { outStart, outChannels, chDst } = t;
  for (let head = 0; head < tail && !perm.node; head++) {
    const u = queue[head];
    const pu = node[u];
    if (outStart[u + 1] - outStart[u] !== outStart[pu + 1] - outStart[pu]) return `node ${u} and its image ${pu} have different degrees`;
    for (let q = 0; q < outStart[u + 1] - outStart[u]; q++) {
      const v = chDst[outChannels[outStart[u] + q]];
      if (node[v] >= 0) continue;
      const w = chDst[outChannels[outStart[pu] + q]];
      if (used[w]) return `node ${w} is the image of two nodes`;
      node[v] = w;
      used[w] = 1;
      queue[tail++] = v;
    }
  }
  if (tail !== N) return 'not every node is reached from a terminal';
  // Channels: (u -> v) maps to the same-numbered parallel channel (π(u) -> π(v)) with equal attributes.
  // Per node, π(u)'s out-channels are chained by destination (head/nextParallel), so this is O(channels).
  const channel = new Int32Array(t.numChannels).fill(-1);
  const head = new Int32Array(N).fill(-1);
  const nextParallel = new Int32Array(t.numChannels);
  for (let u = 0; u < N; u++) {
    const pu = node[u];
    for (let b = outStart[pu + 1] - 1; b >= outStart[pu]; b--) {
      const d = outChannels[b];
      nextParallel[d] = head[chDst[d]];
      head[chDst[d]] = d;
    }
    let failure: string | undefined;
    for (let a = outStart[u]; a < outStart[u + 1] && failure === undefined; a++) {
      const c = outChannels[a];
      const pv = node[chDst[c]];
      const image = head[pv];
      if (image < 0) failure = `channel ${c} (${u} -> ${chDst[c]}) has no image`;
      else if (t.chBandwidth[image] !== t.chBandwidth[c] || t.chLatency[image] !== t.chLatency[c] || t.chClass[image] !== t.chClass[c]) {
        failure = `channel ${c} and its image ${image} differ in bandwidth, latency or class`;
      } else {
        head[pv] = nextParallel[image];
        channel[c] = image;
      }
    }
    for (let b = outStart[pu]; b < outStart[pu + 1]; b++) head[chDst[outChannels[b]]] = -1;
    if (failure !== undefined) return failure;
  }
  return { name: perm.name, order: perm.order, node, channel };
}
