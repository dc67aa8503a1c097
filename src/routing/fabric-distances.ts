/**
 * Distances on the accelerator fabrics (topology/fabric.ts) in closed form, for shortest-path
 * routing (issue 29: routing in closed form for every family with structure, BFS only for arbitrary
 * graphs). Accelerators forward there (NCCL's PXN, xGMI relays) and have several links, so the
 * router table (router-distances.ts) does not apply, and one BFS row per destination over every node
 * (18,440 nodes for 2,048 HGX H100 nodes, 910 rows in the 64 MiB cache) missed on every message of a
 * 16,384-rank ring: 81 % of the run's CPU.
 *
 * Taken for fabrics with single-switch rails (or one node, no rails), destinations that are
 * accelerators, and no channel restriction; anything else (leaf–spine rails, a switch as destination)
 * reads the per-node BFS rows as before. Nodes: accelerator A(n,g); scale-up switch U(n,k); rail
 * switch R(p,e) (plane p, NIC e), joined to A(n, w_e) of every node n, w_e the accelerator NIC e
 * hangs off. With su(x,y) the scale-up hops between accelerators x and y of one node (0 if equal, 1
 * on a full mesh, 2 through a switch plane) and W the accelerators that have a NIC, the hops to
 * A(m,h) are:
 * - from A(n,g): su(g,h) when n = m, else 2 + min over w in W of su(g,w) + su(w,h) (to an accelerator
 *   with a NIC, across its rail to node m, on to h; a third node only lengthens it);
 * - from U(n,k): 1 when n = m, else 3 + min over w in W of su(w,h);
 * - from R(p,e): 1 + su(w_e,h) (down to node m first; any other node is at least 2 + that away).
 * Every value equals the BFS's: test/routing/fabric-distances.test.ts compares every node's distance
 * and every route (each tie rule) on fabrics of every shape these cover.
 *
 * A rail switch has one port per node, in node order (fabric.ts adds them so): its first port one hop
 * closer to A(m,h) is the one to node m, read directly instead of scanning thousands of ports.
 */
import type { Topology } from '../topology/graph.js';
import { fabricParams, type FabricParams } from '../topology/fabric.js';
import type { NodeDistances } from './shortest-path.js';

const ACCELERATOR = 0;
const SCALE_UP = 1;
const RAIL = 2;

export class FabricDistances {
  private readonly N: number;
  private readonly G: number;
  /** Scale-up hops between two distinct accelerators of a node. */
  private readonly suHops: number;
  /** Per node: ACCELERATOR, SCALE_UP or RAIL. */
  private readonly role: Uint8Array;
  /** Per node: its node index n (accelerators, scale-up switches) or its NIC e (rail switches). */
  private readonly roleIndex: Int32Array;
  /** Per node: its accelerator g (accelerators) or the accelerator its NIC hangs off (rail switches). */
  private readonly roleGpu: Int32Array;
  /** Per accelerator h: min over w in W of su(w,h) (acrossTo), and per (g, h): min over w of su(g,w) + su(w,h). */
  private readonly acrossTo: Int32Array;
  private readonly across: Int32Array;
  private readonly t: Topology;
  // The prepared destination A(m,h).
  private m = 0;
  private h = 0;

  private constructor(t: Topology, shape: FabricParams, role: Uint8Array, roleIndex: Int32Array, roleGpu: Int32Array) {
    this.t = t;
    this.N = shape.nodes;
    this.G = shape.gpusPerNode;
    this.suHops = shape.scaleUp === 'mesh' ? 1 : 2;
    this.role = role;
    this.roleIndex = roleIndex;
    this.roleGpu = roleGpu;
    const G = this.G;
    // W: the accelerators with at least one NIC.
    const withNic = shape.scaleOutBuilt ? new Set(shape.nicGpus) : new Set<number>();
    this.acrossTo = new Int32Array(G).fill(-1);
    this.across = new Int32Array(G * G).fill(-1);
    for (let h = 0; h < G; h++) {
      for (const w of withNic) {
        const down = this.su(w, h);
        if (this.acrossTo[h] < 0 || down < this.acrossTo[h]) this.acrossTo[h] = down;
        for (let g = 0; g < G; g++) {
          const hops = this.su(g, w) + down;
          const i = g * G + h;
          if (this.across[i] < 0 || hops < this.across[i]) this.across[i] = hops;
        }
      }
    }
  }

  /**
   * The closed form for t, or undefined where it does not hold: not a fabric, leaf–spine rails, or a
   * node layout other than fabric.ts's (checked link by link, so a change there disables this, never
   * corrupts a route).
   */
  static forTopology(t: Topology): FabricDistances | undefined {
    const shape = fabricParams(t);
    if (shape === undefined) return undefined;
    if (shape.scaleOutBuilt && (shape.rail !== 'switch' || shape.spines !== 0)) return undefined;
    const N = shape.nodes;
    const G = shape.gpusPerNode;
    const sw = shape.scaleUp === 'switch' ? (shape.scaleUpStriped ? 1 : shape.scaleUpPlanes) : 0;
    const E = shape.scaleOutBuilt ? shape.nics : 0;
    const P = shape.scaleOutBuilt ? shape.railPlanes : 0;
    if (t.numNodes !== N * G + N * sw + P * E) return undefined;
    const role = new Uint8Array(t.numNodes);
    const roleIndex = new Int32Array(t.numNodes);
    const roleGpu = new Int32Array(t.numNodes).fill(-1);
    for (let v = 0; v < N * G; v++) {
      roleIndex[v] = Math.floor(v / G);
      roleGpu[v] = v % G;
    }
    for (let i = 0; i < N * sw; i++) {
      role[N * G + i] = SCALE_UP;
      roleIndex[N * G + i] = Math.floor(i / sw);
    }
    for (let i = 0; i < P * E; i++) {
      const v = N * G + N * sw + i;
      role[v] = RAIL;
      roleIndex[v] = i % E;
      roleGpu[v] = shape.nicGpus[i % E];
    }
    // The layout the formulas assume, checked on every channel's ends.
    for (let c = 0; c < t.numChannels; c++) {
      const u = t.chSrc[c];
      const v = t.chDst[c];
      const ru = role[u];
      const rv = role[v];
      if (ru === RAIL || rv === RAIL) {
        const [rail, acc] = ru === RAIL ? [u, v] : [v, u];
        if (role[acc] !== ACCELERATOR || roleGpu[acc] !== roleGpu[rail]) return undefined;
        // A rail switch's ports are its nodes in order.
        if (ru === RAIL && t.chSrcPort[c] !== roleIndex[v]) return undefined;
      } else if (ru === SCALE_UP || rv === SCALE_UP) {
        if (ru === rv || roleIndex[u] !== roleIndex[v]) return undefined;
      } else if (sw > 0 || roleIndex[u] !== roleIndex[v]) return undefined;
    }
    return new FabricDistances(t, shape, role, roleIndex, roleGpu);
  }

  private su(x: number, y: number): number {
    return x === y ? 0 : this.suHops;
  }

  /** Whether `dst` is a destination the closed form answers (an accelerator). */
  covers(dst: number): boolean {
    return this.role[dst] === ACCELERATOR;
  }

  prepare(dst: number): void {
    this.m = this.roleIndex[dst];
    this.h = this.roleGpu[dst];
  }

  /** Hops from `v` to the prepared accelerator, or -1 when no path (several nodes, no NIC). */
  at(v: number): number {
    const { m, h } = this;
    switch (this.role[v]) {
      case ACCELERATOR: {
        const g = this.roleGpu[v];
        if (this.roleIndex[v] === m) return this.su(g, h);
        const a = this.across[g * this.G + h];
        return a < 0 ? -1 : 2 + a;
      }
      case SCALE_UP: {
        if (this.roleIndex[v] === m) return 1;
        const a = this.acrossTo[h];
        return a < 0 ? -1 : 3 + a;
      }
      default:
        return 1 + this.su(this.roleGpu[v], h);
    }
  }

  /** The lowest-port channel out of `v` one hop closer, where known without a scan (rail switches), else -1. */
  firstCloser(v: number): number {
    return this.role[v] === RAIL ? this.t.outChannels[this.t.outStart[v] + this.m] : -1;
  }

  /** The longest route between accelerators (the diameter over endpoints). */
  longest(): number {
    const G = this.G;
    let most = G > 1 ? this.suHops : 0;
    if (this.N > 1) for (const a of this.across) most = Math.max(most, 2 + a);
    return Math.max(1, most);
  }
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
