/**
 * Helpers for routings that redraw a packet's route with BookSim's random stream as its head is
 * routed (RoutingFunction.drawAtTurn), on topologies whose terminals are nodes of their own.
 */
import { NodeKind, type Topology } from '../topology/graph.js';

/**
 * True at the packet's first router: BookSim's `in_channel < gC` (the head came in on a terminal
 * port). The packet engine routes a direct terminal's packet from its switch (`prev` −1), another's
 * from the terminal itself, whose own link comes first.
 */
export function atFirstRouter(t: Topology, node: number, prev: number): boolean {
  return t.nodeKind[node] !== NodeKind.Terminal && (prev < 0 || t.nodeKind[t.chSrc[prev]] === NodeKind.Terminal);
}

/**
 * True when the route's hops `at` to `end` end with the link into terminal `dst`: a redrawn route
 * ends as the one it replaces, since the engine leaves a direct terminal's own link out of its routes.
 */
export function endsInTerminal(t: Topology, dst: number, channels: Int32Array, at: number, end: number): boolean {
  return end > at && t.nodeKind[dst] === NodeKind.Terminal && t.chDst[channels[end - 1]] === dst;
}
