/**
 * Explicit route hints from a schedule override the default routing: a transit or turnaround node
 * (route to it, then on to the destination, both legs by the default routing) or a full node path
 * (every consecutive pair must be joined by a channel). Node ids here; the engines map ranks.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export type NodeRouteHint =
  | { readonly kind: 'direct' }
  | { readonly kind: 'via'; readonly node: number }
  | { readonly kind: 'path'; readonly nodes: readonly number[] };

/**
 * Writes the hinted route from `src` to `dst` into `out` (which must hold `hintMaxHops` entries)
 * and returns its hop count. Throws InputError when a hinted path uses a link that does not exist.
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
): number {
  if (!hint || hint.kind === 'direct') return routing.route(src, dst, salt, out);
  if (hint.kind === 'via') {
    const via = hint.node;
    if (!(via >= 0 && via < topology.numNodes)) throw new InputError('route hint.via', via, `a node of ${topology.spec}`);
    if (via === src || via === dst) return routing.route(src, dst, salt, out);
    const h1 = routing.route(src, via, salt, out);
    const h2 = routing.route(via, dst, salt, scratch);
    for (let i = 0; i < h2; i++) {
      out.channels[h1 + i] = scratch.channels[i];
      out.vcClass[h1 + i] = scratch.vcClass[i] + routing.vcClasses;
    }
    return h1 + h2;
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

/** Buffer size a hinted route can need: two legs of the default routing, or the explicit path. */
export function hintMaxHops(routing: RoutingFunction, longestPath = 0): number {
  return Math.max(2 * routing.maxHops, longestPath);
}
