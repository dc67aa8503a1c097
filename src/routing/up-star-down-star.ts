/**
 * Up*\/down* routing (Autonet; Schroeder et al. 1991) for arbitrary graphs, the packet engine's
 * deadlock-free routing for graphs that have no deadlock-free routing of their own (`file:`
 * topologies, rings, any graph routed by plain shortest path).
 *
 * Orientation: a BFS from a deterministic root (the lowest-numbered router node unless `root` is
 * given) gives every node a level; nodes are totally ordered by (level, id), and a channel u → v is
 * "up" when v comes before u in that order, "down" otherwise. A legal route takes zero or more up
 * channels, then zero or more down channels, and never a down → up turn. Every up channel leads to
 * a strictly earlier node, so the up channels cannot form a dependency cycle, nor the down ones,
 * and no dependency leads from a down channel back to an up one: the channel dependency graph is
 * acyclic and one VC class is deadlock free (Dally & Seitz). BFS tree links, taken up to the root
 * and down again, connect every pair when every link is two-way.
 *
 * Route: the shortest legal path (ties: lowest out-port), from two per-destination distance
 * arrays: `down[v]`, hops from v to the destination over down channels only, and `legal[v]`, hops
 * over any legal path = min(down[v], 1 + legal[u] over up channels v → u), filled in (level, id)
 * order. Arrays are kept for the most recently used destinations under a memory budget.
 *
 * This is the "route on up*\/down* paths only" reading of issue 5's escape-VC item (docs/packet.md):
 * routes are fixed at injection in this engine (source routing), so a Duato-style adaptive fallback
 * to an escape VC per hop is not modelled.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import { DEFAULT_ROUTE_CACHE_BYTES, DestinationLru, reverseBfsDistances } from './distance-cache.js';
import { refusePartialRoutes, type RouteBuffers, type RoutingFunction } from './types.js';

export interface UpDownStarOptions {
  /** BFS root; default the lowest-numbered node that may carry transit traffic. */
  root?: number;
  /** Memory budget for cached per-destination distance arrays, bytes (default 64 MiB). */
  cacheBytes?: number;
}

export interface UpDownStarRouting extends RoutingFunction {
  readonly root: number;
  /** BFS level of each node (distance from the root over two-way BFS). */
  readonly level: Int32Array;
  /** 1 when channel c goes up (towards the root's end of the (level, id) order). */
  readonly isUp: Uint8Array;
}

/** A node may be in the middle of a route (routers; in indirect networks, switches only). */
function transitMask(t: Topology): Uint8Array {
  const m = new Uint8Array(t.numNodes);
  for (let v = 0; v < t.numNodes; v++) m[v] = t.distanceConvention === 'router-hops' || t.nodeKind[v] !== 0 ? 1 : 0;
  return m;
}

export function upDownStarRouting(topology: Topology, opts: UpDownStarOptions = {}): UpDownStarRouting {
  const t = topology;
  const n = t.numNodes;
  const transit = transitMask(t);
  let root = opts.root ?? -1;
  if (opts.root === undefined) {
    for (let v = 0; v < n && root < 0; v++) if (transit[v]) root = v;
    if (root < 0) root = 0;
  } else if (!(Number.isInteger(root) && root >= 0 && root < n)) {
    throw new InputError('routing.root', opts.root, `a node of ${t.spec} (0..${n - 1})`);
  }

  // BFS levels over links in either direction (a level is a position in the spanning tree); only
  // transit nodes are expanded, so terminals hang below their switch.
  const level = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  level[root] = 0;
  queue[tail++] = root;
  while (head < tail) {
    const v = queue[head++];
    if (!transit[v] && v !== root) continue;
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const u = t.chDst[t.outChannels[i]];
      if (level[u] < 0) {
        level[u] = level[v] + 1;
        queue[tail++] = u;
      }
    }
    for (let i = t.inStart[v]; i < t.inStart[v + 1]; i++) {
      const u = t.chSrc[t.inChannels[i]];
      if (level[u] < 0) {
        level[u] = level[v] + 1;
        queue[tail++] = u;
      }
    }
  }
  if (tail < n) {
    const missing = level.indexOf(-1);
    throw new InputError('routing', `up*/down* on ${t.spec}`, `a connected graph (node ${missing} is not reachable from root ${root})`);
  }
  // The (level, id) order: rank[v] = position; `order` lists nodes in it.
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => level[a] - level[b] || a - b);
  const before = (a: number, b: number): boolean => level[a] < level[b] || (level[a] === level[b] && a < b);
  const isUp = new Uint8Array(t.numChannels);
  for (let c = 0; c < t.numChannels; c++) isUp[c] = before(t.chDst[c], t.chSrc[c]) ? 1 : 0;

  const capacity = Math.max(1, Math.floor((opts.cacheBytes ?? DEFAULT_ROUTE_CACHE_BYTES) / (8 * Math.max(1, n))));
  const isDown = (c: number): boolean => isUp[c] === 0;
  const cache = new DestinationLru(capacity, (dst: number): { down: Int32Array; legal: Int32Array } => {
    // down[v]: reverse BFS from dst over down channels, through transit nodes only.
    const down = reverseBfsDistances(t, dst, isDown, queue);
    // legal[v]: up channels lead to earlier nodes, so (level, id) order computes them in one pass.
    const legal = new Int32Array(n).fill(-1);
    for (let k = 0; k < n; k++) {
      const v = order[k];
      let best = down[v];
      if (v !== dst) {
        for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
          const c = t.outChannels[i];
          if (!isUp[c]) continue;
          const u = t.chDst[c];
          if (u !== dst && !transit[u]) continue;
          if (legal[u] >= 0 && (best < 0 || legal[u] + 1 < best)) best = legal[u] + 1;
        }
      }
      legal[v] = best;
    }
    return { down, legal };
  });

  return {
    name: `up*/down*(root=${root})`,
    params: { routing: 'up*/down*', root, orientation: 'BFS levels from the root, ties by node id', tie: 'shortest legal path, lowest port', vcClasses: 1 },
    vcClasses: 1,
    deadlockFree: true,
    maxHops: Math.max(1, 2 * n),
    root,
    level,
    isUp,
    route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      const { down, legal } = cache.get(dst);
      if (legal[src] < 0) throw new InputError('route', `${src} -> ${dst}`, `a pair joined by a legal up*/down* path in ${t.spec} (every link two-way)`);
      let v = src;
      let hops = 0;
      let goingDown = false;
      while (v !== dst) {
        const want = goingDown ? down[v] - 1 : legal[v] - 1;
        let chosen = -1;
        for (let i = t.outStart[v]; i < t.outStart[v + 1] && chosen < 0; i++) {
          const c = t.outChannels[i];
          const u = t.chDst[c];
          if (u !== dst && !transit[u]) continue;
          if (isUp[c]) {
            if (!goingDown && legal[u] === want) chosen = c;
          } else if (down[u] === want && down[u] >= 0) {
            chosen = c;
          }
        }
        if (chosen < 0) throw new Error(`up*/down* routing found no next hop at ${v} towards ${dst}`);
        if (!isUp[chosen]) goingDown = true;
        out.channels[hops] = chosen;
        out.vcClass[hops] = 0;
        hops++;
        v = t.chDst[chosen];
      }
      return hops;
    },
  };
}

/**
 * The routing the packet engine runs: `routing` itself when it is deadlock free with the VC
 * classes it declares, or up*\/down* when it is plain shortest-path routing on a graph with no
 * known deadlock-free routing (rings, `file:` graphs, `--routing shortest`). Hypercubes keep their
 * shortest path with the lowest-port tie-break, which is e-cube (dimension order) routing.
 * Graphs with one-way links (uring) cannot be oriented; they keep shortest paths, and the deadlock
 * detector reports a deadlock if one forms.
 */
export function packetDeadlockFreeRouting(topology: Topology, routing: RoutingFunction, opts: UpDownStarOptions = {}): RoutingFunction {
  refusePartialRoutes(routing, 'packet');
  if (routing.deadlockFree) return routing;
  for (let c = 0; c < topology.numChannels; c++) if (topology.channelBetween(topology.chDst[c], topology.chSrc[c]) < 0) return routing;
  try {
    const r = upDownStarRouting(topology, opts);
    return { ...r, params: { ...r.params, replaces: `${routing.name} (not deadlock free with one VC class)` } };
  } catch (err) {
    if (err instanceof InputError) return routing;
    throw err;
  }
}

/**
 * The packet-level routing decision, as both results record it (`routing.packet_wrap`, docs/packet.md
 * "Escape routing"). Collective and schedule runs, and traffic whose packet preset chooses the
 * routing, get `packetDeadlockFreeRouting`: such a run is asked for a time, and a deadlock gives
 * none. Traffic with a named routing runs it as named: a traffic study measures that routing, its
 * deadlocks included (the detector reports one), so replacing it would answer another question.
 */
export interface PacketWrapRecord {
  readonly policy: 'deadlock-free wrap' | 'as named';
  /** True when up*\/down* replaced the routing. */
  readonly wrapped: boolean;
  readonly reason: string;
}

export function packetWrapRecord(routing: RoutingFunction, policy: PacketWrapRecord['policy']): PacketWrapRecord {
  const replaced = routing.params.replaces;
  if (typeof replaced === 'string') return { policy, wrapped: true, reason: `${replaced}: replaced by ${routing.name}, deadlock free with one VC class` };
  if (routing.deadlockFree) return { policy, wrapped: false, reason: `${routing.name} is deadlock free (declared by the routing)` };
  if (policy === 'as named') return { policy, wrapped: false, reason: `a named traffic routing runs as named; ${routing.name} is not declared deadlock free, so a deadlock is possible and reported as such` };
  return { policy, wrapped: false, reason: `${routing.name} is not declared deadlock free, and up*/down* cannot orient this graph (one-way links) so it is kept; a deadlock is reported as such` };
}

/** A routing the packet engine used instead of the topology's own (see packetDeadlockFreeRouting). */
export interface RoutingFallback {
  readonly replaced: string;
  readonly by: string;
  readonly reason: string;
  /** The topology is a degraded network (`--fail`): the intact family's routing no longer applies. */
  readonly degraded: boolean;
}

/** What routingFallback records: the routing replaced by packetDeadlockFreeRouting, if any. */
export function routingFallbackOf(topology: Topology, routing: { readonly name: string; readonly params: Readonly<Record<string, unknown>> }): RoutingFallback | null {
  const replaced = routing.params.replaces;
  if (typeof replaced !== 'string') return null;
  return {
    replaced: replaced.replace(/ \(.*\)$/, ''),
    by: routing.name,
    reason: 'packet level needs a routing that is deadlock free with one VC class; every route is then some up channels then some down channels, often longer than the shortest path',
    degraded: topology.family === 'degraded',
  };
}

/** The one warning line a CLI prints for a degraded network routed on up*\/down* at packet level. */
export function degradedRoutingWarning(fallback: RoutingFallback | null | undefined): string | undefined {
  if (!fallback?.degraded) return undefined;
  return `warning: the degraded network is routed on ${fallback.by} at packet level, not ${fallback.replaced} (the intact family's routing no longer applies): expect longer routes and an earlier saturation than the intact network (docs/failures.md)`;
}

