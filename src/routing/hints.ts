/**
 * Explicit route hints from a schedule override the default routing: transit or turnaround nodes
 * (route to each in turn, then on to the destination, every leg by the default routing) or a full
 * node path (every consecutive pair must be joined by a channel). Topology node ids, as in the
 * schedule IR's RouteHint.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import type { RouteBuffers, RouteContext, RoutingFunction } from './types.js';

export type NodeRouteHint =
  | { readonly kind: 'direct' }
  | { readonly kind: 'via'; readonly nodes: readonly number[] }
  | { readonly kind: 'path'; readonly nodes: readonly number[] }
  | PortsRouteHint;

/**
 * An explicit path written relative to its source: at each node in turn, leave by its
 * `ports[i]`-th outgoing channel (the order of `Topology.outChannels`). The same walk serves every
 * source, so a lowering can share one hint among all ranks where each rank's explicit `path` would
 * be its own (3 M distinct paths for hop-grouped on a 32×32×32 torus, 93 walks). See `pathToPorts`.
 */
export interface PortsRouteHint {
  readonly kind: 'ports';
  readonly ports: readonly number[];
}

/** The port walk of an explicit node path, or undefined if a step has no channel (or a port above 255). */
export function pathToPorts(topology: Topology, nodes: ArrayLike<number>): number[] | undefined {
  const ports: number[] = [];
  for (let i = 0; i + 1 < nodes.length; i++) {
    const u = nodes[i];
    if (!(u >= 0 && u < topology.numNodes)) return undefined;
    let port = -1;
    for (let k = topology.outStart[u]; k < topology.outStart[u + 1] && port < 0; k++) if (topology.chDst[topology.outChannels[k]] === nodes[i + 1]) port = k - topology.outStart[u];
    if (port < 0 || port > 255) return undefined;
    ports.push(port);
  }
  return ports;
}

/**
 * Writes the hinted route from `src` to `dst` into `out` (which must hold `hintMaxHops` entries)
 * and returns its hop count. Throws InputError when a hinted path uses a link that does not exist.
 * `ctx` reaches every leg the routing chooses, so an adaptive routing still adapts within a `via` hint.
 */
export function routeWithHint(
  topology: Topology,
  routing: RoutingFunction,
  src: number,
  dst: number,
  hint: NodeRouteHint | undefined,
  salt: number,
  out: RouteBuffers,
  scratch: RouteBuffers,
  ctx?: RouteContext,
): number {
  if (!hint || hint.kind === 'direct') return routing.route(src, dst, salt, out, ctx);
  if (hint.kind === 'via') {
    let hops = 0;
    let at = src;
    for (let leg = 0; leg <= hint.nodes.length; leg++) {
      const next = leg < hint.nodes.length ? hint.nodes[leg] : dst;
      if (!(Number.isInteger(next) && next >= 0 && next < topology.numNodes)) throw new InputError('route hint.via', next, `a node of ${topology.spec}`);
      if (next === at) continue;
      const h = routing.route(at, next, salt, scratch, ctx);
      for (let i = 0; i < h; i++) {
        out.channels[hops] = scratch.channels[i];
        // Each leg in its own VC class band, so the legs never wait on each other.
        out.vcClass[hops++] = scratch.vcClass[i] + leg * routing.vcClasses;
      }
      at = next;
    }
    return hops;
  }
  if (hint.kind === 'ports') {
    let at = src;
    const ports = hint.ports;
    for (let i = 0; i < ports.length; i++) {
      const k = topology.outStart[at] + ports[i];
      if (!(k < topology.outStart[at + 1])) throw new InputError('route hint.ports', `port ${ports[i]} of node ${at}`, `an outgoing channel of ${topology.spec}`);
      const c = topology.outChannels[k];
      out.channels[i] = c;
      out.vcClass[i] = 0;
      at = topology.chDst[c];
    }
    if (at !== dst || ports.length === 0) throw new InputError('route hint.ports', ports, `a walk from ${src} to ${dst}`);
    return ports.length;
  }
  const nodes = hint.nodes;
  if (nodes.length < 2 || nodes[0] !== src || nodes[nodes.length - 1] !== dst) {
    throw new InputError('route hint.path', nodes, `a node path from ${src} to ${dst}`);
  }
  for (let i = 0; i + 1 < nodes.length; i++) {
    const c = topology.channelBetween(nodes[i], nodes[i + 1]);
    if (c < 0) throw new InputError('route hint.path', `${nodes[i]} -> ${nodes[i + 1]}`, `consecutive nodes joined by a link of ${topology.spec}`);
    out.channels[i] = c;
    out.vcClass[i] = 0;
  }
  return nodes.length - 1;
}

/** Buffer size a hinted route can need: one leg of the default routing per via node plus one, or the explicit path. */
export function hintMaxHops(routing: RoutingFunction, hint: NodeRouteHint | undefined): number {
  if (!hint || hint.kind === 'direct') return routing.maxHops;
  if (hint.kind === 'via') return (hint.nodes.length + 1) * routing.maxHops;
  if (hint.kind === 'ports') return Math.max(1, hint.ports.length);
  return Math.max(1, hint.nodes.length - 1);
}
