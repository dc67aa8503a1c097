/**
 * Distances on the accelerator fabrics (topology/fabric.ts) from a small quotient graph, for
 * shortest-path routing (issue 29: routing in closed form for every family with structure, BFS only
 * for arbitrary graphs). Accelerators forward there (NCCL's PXN, xGMI relays) and have several links,
 * so the router table (router-distances.ts) does not apply, and one BFS row per destination over
 * every node (18,440 nodes for 2,048 HGX H100 nodes, 910 rows in the 64 MiB cache) missed on every
 * message of a 16,384-rank ring: 81 % of the run's CPU (under leaf–spine rails, 96 CPU s of 97).
 *
 * Seen from a destination accelerator A(m,h), the fabric's nodes fall into classes:
 * - accelerators A(n,g) and scale-up switches U(n,k): by g (or k) and by whether n is m, another
 *   node under m's leaf, or a node under another leaf (3·G + 3·K classes);
 * - rail leaves L(p,e,l) (a single-switch rail is its one leaf): by rail e and whether l is m's leaf
 *   (2·E classes; the P planes merge);
 * - spines S(p,s): by s (S classes).
 * When every member of a class has an out-neighbour in each class its class is joined to, a BFS over
 * the classes gives the graph's own distances. That is checked on every node for one m per kind of
 * leaf (with or without other nodes: a partial last leaf may hold one); any other m sees the same
 * joins, since nodes differ only in the leaf they hang from and every leaf of a rail has the same
 * uplinks. So at most 2·G BFS over a few dozen classes, all done up front, answer every destination.
 *
 * Taken for fabrics in fabric.ts's node layout (checked on every channel's ends), destinations that
 * are accelerators, and no channel restriction; a switch as destination reads the per-node BFS rows.
 * Every value equals the BFS's: test/routing/fabric-distances.test.ts compares every node's distance
 * and every route (each tie rule) on fabrics of every shape.
 *
 * The lowest-port closer channel is read directly where a scan would cross thousands of ports: a
 * leaf's ports are its nodes in order, then its uplinks; a spine's are its leaves' uplinks in (rail,
 * leaf, uplink) order (fabric.ts adds them so; the walk checks each such channel is one hop closer).
 */
import type { Topology } from '../topology/graph.js';
import { fabricParams } from '../topology/fabric.js';
import type { NodeDistances } from './shortest-path.js';

const ACCELERATOR = 0;
const SCALE_UP = 1;
const LEAF = 2;
const SPINE = 3;

/** Where each node sits in the fabric (FabricDistances.forTopology). */
interface Layout {
  /** Per node: ACCELERATOR, SCALE_UP, LEAF or SPINE. */
  readonly role: Uint8Array;
  /** Per node: its node index n (accelerators, scale-up switches), else -1. */
  readonly nodeOf: Int32Array;
  /** Per node: its leaf index (accelerators and scale-up switches: their node's), else -1. */
  readonly leafOf: Int32Array;
  /**
   * Per node: its class is baseClass + stride · place, place 0 on m's node, 1 under m's leaf, 2
   * elsewhere (leaves: 1 or 2 only; spines: stride 0).
   */
  readonly baseClass: Int32Array;
  readonly stride: Int32Array;
}

/**
 * Most entries the class-distance rows (2·G rows, one entry per class) may hold, 64 MiB, the BFS
 * rows' cache budget: a larger fabric (thousands of accelerators per node and of spines) reads the
 * per-node BFS rows instead.
 */
const MAX_ROW_ENTRIES = 1 << 24;

export class FabricDistances {
  private readonly G: number;
  private readonly K: number;
  private readonly E: number;
  private readonly H: number;
  private readonly layout: Layout;
  // The layout's per-node arrays as own fields: at() runs on every hop of every route, and reading
  // them through `layout` measured ~5 % slower on a leaf-spine ring of 4,096 ranks.
  private readonly baseClass: Int32Array;
  private readonly stride: Int32Array;
  private readonly nodeOf: Int32Array;
  private readonly leafOf: Int32Array;
  /** Per kind of destination leaf (alone, with others) and accelerator h: class distances. */
  private readonly rows: (Int32Array | undefined)[];
  /** Per spine s and rail e: the spine's port of rail e's leaf 0's first uplink, and uplinks per leaf. */
  private readonly spinePortBase: Int32Array;
  private readonly spineUplinks: Int32Array;
  private readonly leavesPerRail: number;
  private readonly nodes: number;
  private readonly longestHops: number;
  private readonly t: Topology;
  // The prepared destination A(m,h).
  private m = 0;
  private mLeaf = 0;
  private row: Int32Array = new Int32Array(0);

  private constructor(
    t: Topology,
    dims: { G: number; K: number; E: number; H: number; nodes: number; leavesPerRail: number; spines: number },
    layout: Layout,
    rows: (Int32Array | undefined)[],
    spinePorts: { base: Int32Array; uplinks: Int32Array },
  ) {
    this.t = t;
    ({ G: this.G, K: this.K, E: this.E, H: this.H, nodes: this.nodes, leavesPerRail: this.leavesPerRail } = dims);
    this.layout = layout;
    ({ baseClass: this.baseClass, stride: this.stride, nodeOf: this.nodeOf, leafOf: this.leafOf } = layout);
    this.rows = rows;
    this.spinePortBase = spinePorts.base;
    this.spineUplinks = spinePorts.uplinks;
    let most = 0;
    for (const row of rows) {
      if (!row) continue;
      // Accelerator classes only: on m's node, under m's leaf and elsewhere, G each, come first.
      for (let c = 0; c < 3 * this.G; c++) most = Math.max(most, row[c]);
    }
    this.longestHops = Math.max(1, most);
  }

  /**
   * The quotient distances for t, or undefined where they do not hold: not a fabric, a node layout
   * other than fabric.ts's (checked link by link, so a change there disables this, never corrupts a
   * route), or a class whose members disagree on which classes they reach.
   */
  static forTopology(t: Topology): FabricDistances | undefined {
    const shape = fabricParams(t);
    if (shape === undefined) return undefined;
    const N = shape.nodes;
    const G = shape.gpusPerNode;
    const K = shape.scaleUp === 'switch' ? (shape.scaleUpStriped ? 1 : shape.scaleUpPlanes) : 0;
    const E = shape.scaleOutBuilt ? shape.nics : 0;
    const P = shape.scaleOutBuilt ? shape.railPlanes : 0;
    const L = shape.scaleOutBuilt ? shape.leavesPerRail : 0;
    const S = shape.scaleOutBuilt ? shape.spines : 0;
    const H = shape.scaleOutBuilt ? shape.leafHosts : Math.max(1, N);
    if (t.numNodes !== N * G + N * K + P * (E * L + S)) return undefined;
    const classes = 3 * G + 3 * K + 2 * E + S;
    if (2 * G * classes > MAX_ROW_ENTRIES) return undefined;
    const role = new Uint8Array(t.numNodes);
    const nodeOf = new Int32Array(t.numNodes).fill(-1);
    const leafOf = new Int32Array(t.numNodes).fill(-1);
    const baseClass = new Int32Array(t.numNodes);
    const stride = new Int32Array(t.numNodes);
    /** Per leaf: its rail e; per spine: its index s. The plane p of both. */
    const railOf = new Int32Array(t.numNodes).fill(-1);
    const planeOf = new Int32Array(t.numNodes).fill(-1);
    for (let v = 0; v < N * G; v++) {
      nodeOf[v] = Math.floor(v / G);
      leafOf[v] = Math.floor(nodeOf[v] / H);
      baseClass[v] = v % G;
      stride[v] = G;
    }
    for (let i = 0; i < N * K; i++) {
      const v = N * G + i;
      role[v] = SCALE_UP;
      nodeOf[v] = Math.floor(i / K);
      leafOf[v] = Math.floor(nodeOf[v] / H);
      baseClass[v] = 3 * G + (i % K);
      stride[v] = K;
    }
    const railBase = N * G + N * K;
    for (let p = 0; p < P; p++) {
      const leaf0 = railBase + p * (E * L + S);
      for (let i = 0; i < E * L; i++) {
        role[leaf0 + i] = LEAF;
        railOf[leaf0 + i] = Math.floor(i / L);
        leafOf[leaf0 + i] = i % L;
        planeOf[leaf0 + i] = p;
        baseClass[leaf0 + i] = 3 * G + 3 * K + Math.floor(i / L) - E;
        stride[leaf0 + i] = E;
      }
      for (let s = 0; s < S; s++) {
        role[leaf0 + E * L + s] = SPINE;
        railOf[leaf0 + E * L + s] = s;
        planeOf[leaf0 + E * L + s] = p;
        baseClass[leaf0 + E * L + s] = 3 * G + 3 * K + 2 * E + s;
      }
    }
    // The layout the classes assume, checked on every channel's ends; and each spine's ports, counted.
    const spineBase = new Int32Array(S * E).fill(-1);
    const spineUplinks = new Int32Array(S * E);
    for (let c = 0; c < t.numChannels; c++) {
      const u = t.chSrc[c];
      const v = t.chDst[c];
      const ru = role[u];
      const rv = role[v];
      if (ru === SPINE || rv === SPINE) {
        const [spine, leaf] = ru === SPINE ? [u, v] : [v, u];
        if (role[leaf] !== LEAF || planeOf[leaf] !== planeOf[spine]) return undefined;
        if (ru === SPINE && planeOf[spine] === 0) {
          // Rail e's leaves in order, each with the same number of uplinks to this spine (checked
          // below on every plane).
          const k = railOf[spine] * E + railOf[leaf];
          if (spineBase[k] < 0) spineBase[k] = t.chSrcPort[c];
          if (leafOf[leaf] === 0) spineUplinks[k]++;
        }
      } else if (ru === LEAF || rv === LEAF) {
        const [leaf, acc] = ru === LEAF ? [u, v] : [v, u];
        if (role[acc] !== ACCELERATOR || shape.nicGpus[railOf[leaf]] !== acc % G || leafOf[acc] !== leafOf[leaf]) return undefined;
        // A leaf's first ports are its nodes in order.
        if (ru === LEAF && t.chSrcPort[c] !== nodeOf[v] - leafOf[leaf] * H) return undefined;
      } else if (ru === SCALE_UP || rv === SCALE_UP) {
        if (ru === rv || nodeOf[u] !== nodeOf[v]) return undefined;
      } else if (K > 0 || nodeOf[u] !== nodeOf[v]) return undefined;
    }
    for (let c = 0; c < t.numChannels; c++) {
      const u = t.chSrc[c];
      if (role[u] !== SPINE) continue;
      const leaf = t.chDst[c];
      const k = railOf[u] * E + railOf[leaf];
      const expected = spineBase[k] + leafOf[leaf] * spineUplinks[k];
      if (spineUplinks[k] === 0 || t.chSrcPort[c] < expected || t.chSrcPort[c] >= expected + spineUplinks[k]) return undefined;
    }
    const layout: Layout = { role, nodeOf, leafOf, baseClass, stride };
    const classOf = (v: number, m: number): number => placedClass(layout, v, m, Math.floor(m / H));
    // One destination node per kind of leaf: alone under it, or with others.
    const rows: (Int32Array | undefined)[] = [];
    for (const alone of [true, false]) {
      const m = [...Array(N).keys()].find((n) => aloneUnderLeaf(N, H, Math.floor(n / H)) === alone);
      if (m === undefined) {
        for (let h = 0; h < G; h++) rows.push(undefined);
        continue;
      }
      const joined = quotient(t, classes, (v) => classOf(v, m));
      if (!joined) return undefined;
      for (let h = 0; h < G; h++) rows.push(classDistances(joined, classes, classOf(m * G + h, m)));
    }
    return new FabricDistances(t, { G, K, E, H, nodes: N, leavesPerRail: L, spines: S }, layout, rows, { base: spineBase, uplinks: spineUplinks });
  }

  /** Whether `dst` is a destination the quotient answers (an accelerator). */
  covers(dst: number): boolean {
    return this.layout.role[dst] === ACCELERATOR;
  }

  prepare(dst: number): void {
    this.m = this.layout.nodeOf[dst];
    this.mLeaf = this.layout.leafOf[dst];
    const alone = aloneUnderLeaf(this.nodes, this.H, this.mLeaf);
    this.row = this.rows[(alone ? 0 : this.G) + (dst % this.G)]!;
  }

  /** Hops from `v` to the prepared accelerator, or -1 when no path (several nodes, no NIC). */
  at(v: number): number {
    // placedClass, inlined for the hot path.
    return this.row[this.baseClass[v] + this.stride[v] * (this.nodeOf[v] === this.m ? 0 : this.leafOf[v] === this.mLeaf ? 1 : 2)];
  }

  /** The lowest-port channel out of `v` one hop closer, where known without a scan (leaves, spines), else -1. */
  firstCloser(v: number): number {
    const t = this.t;
    const role = this.layout.role[v];
    if (role === LEAF) {
      // Down to node m, its only neighbour one hop closer (any other node is further than the leaf).
      return this.layout.leafOf[v] === this.mLeaf ? t.outChannels[t.outStart[v] + this.m - this.mLeaf * this.H] : -1;
    }
    if (role !== SPINE) return -1;
    // A spine's ports run over its rails, each rail's leaves in order: the first leaf one hop
    // closer is m's leaf or (when the spine misses the rails closest to A(m,h)) any other leaf of a
    // rail it reaches, whichever comes first.
    const want = this.at(v) - 1;
    const s = this.layout.baseClass[v] - (3 * this.G + 3 * this.K + 2 * this.E);
    const leafClass = 3 * this.G + 3 * this.K;
    for (let e = 0; e < this.E; e++) {
      const k = s * this.E + e;
      if (this.spineUplinks[k] === 0) continue;
      const mine = this.row[leafClass + e] === want;
      const other = this.leavesPerRail > 1 && this.row[leafClass + this.E + e] === want;
      if (!mine && !other) continue;
      const leaf = !other ? this.mLeaf : mine || this.mLeaf > 0 ? 0 : 1;
      return t.outChannels[t.outStart[v] + this.spinePortBase[k] + leaf * this.spineUplinks[k]];
    }
    return -1;
  }

  /** The longest route between accelerators (the diameter over endpoints). */
  longest(): number {
    return this.longestHops;
  }
}

/** Whether leaf l (of N nodes, H per leaf) holds one node: its classes then lack "under m's leaf". */
function aloneUnderLeaf(N: number, H: number, l: number): boolean {
  return Math.min(H, N - l * H) === 1;
}

/** v's class seen from destination node m under leaf mLeaf (FabricDistances.at inlines it). */
function placedClass(layout: Layout, v: number, m: number, mLeaf: number): number {
  return layout.baseClass[v] + layout.stride[v] * (layout.nodeOf[v] === m ? 0 : layout.leafOf[v] === mLeaf ? 1 : 2);
}

/**
 * The classes' out-neighbour classes (CSR), or undefined when some node lacks a neighbour in a class
 * its class reaches (the partition then does not carry distances over).
 */
function quotient(t: Topology, classes: number, classOf: (v: number) => number): { start: Int32Array; next: Int32Array } | undefined {
  const cls = new Int32Array(t.numNodes);
  for (let v = 0; v < t.numNodes; v++) cls[v] = classOf(v);
  // Each class's neighbour classes, read off its first member.
  const lists: number[][] = Array.from({ length: classes }, () => []);
  const listed = new Uint8Array(classes);
  const stamp = new Int32Array(classes).fill(-1);
  for (let v = 0; v < t.numNodes; v++) {
    if (listed[cls[v]]) continue;
    listed[cls[v]] = 1;
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const d = cls[t.chDst[t.outChannels[i]]];
      if (stamp[d] !== v) {
        stamp[d] = v;
        lists[cls[v]].push(d);
      }
    }
  }
  const start = new Int32Array(classes + 1);
  for (let k = 0; k < classes; k++) start[k + 1] = start[k] + lists[k].length;
  const next = new Int32Array(start[classes]);
  for (let k = 0; k < classes; k++) next.set(lists[k], start[k]);
  // Every other member reaches exactly those classes.
  const expected = new Int32Array(classes).fill(-1);
  stamp.fill(-1);
  for (let v = 0; v < t.numNodes; v++) {
    const k = cls[v];
    for (let i = start[k]; i < start[k + 1]; i++) expected[next[i]] = v;
    let distinct = 0;
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const d = cls[t.chDst[t.outChannels[i]]];
      if (expected[d] !== v) return undefined;
      if (stamp[d] !== v) {
        stamp[d] = v;
        distinct++;
      }
    }
    if (distinct !== start[k + 1] - start[k]) return undefined;
  }
  return { start, next };
}

/** Hops from every class to the singleton class `target` (-1: none), by a reverse BFS over the classes. */
function classDistances(joined: { start: Int32Array; next: Int32Array }, classes: number, target: number): Int32Array {
  const into: number[][] = Array.from({ length: classes }, () => []);
  for (let k = 0; k < classes; k++) for (let i = joined.start[k]; i < joined.start[k + 1]; i++) into[joined.next[i]].push(k);
  const dist = new Int32Array(classes).fill(-1);
  const queue = [target];
  dist[target] = 0;
  for (let head = 0; head < queue.length; head++) {
    const k = queue[head];
    for (const j of into[k]) {
      if (dist[j] >= 0) continue;
      dist[j] = dist[k] + 1;
      queue.push(j);
    }
  }
  return dist;
}

/** Closed-form distances where they apply, the per-node BFS rows otherwise (switch destinations). */
export class FabricOrCachedDistances implements NodeDistances {
  private closed = true;
  constructor(
    private readonly fabric: FabricDistances,
    private readonly fallback: NodeDistances,
  ) {}
  prepare(dst: number): void {
    this.closed = this.fabric.covers(dst);
    if (this.closed) this.fabric.prepare(dst);
    else this.fallback.prepare(dst);
  }
  at(node: number): number {
    return this.closed ? this.fabric.at(node) : this.fallback.at(node);
  }
  firstCloser(node: number): number {
    return this.closed ? this.fabric.firstCloser(node) : -1;
  }
}
