/**
 * The routing contract shared by the flow and packet engines.
 *
 * A route is computed into caller-owned buffers (no per-packet allocation): the ordered channel ids
 * from the source node to the destination node, and per hop the virtual-channel class the packet
 * must use on that channel (0 when the routing needs no VC classes for deadlock freedom).
 */
export interface RouteBuffers {
  /** Channel ids, in order. Must hold at least `maxHops` entries. */
  channels: Int32Array;
  /** VC class per hop, parallel to `channels`. */
  vcClass: Uint8Array;
}

export interface RoutingFunction {
  /** Name recorded in results, e.g. "dimension-order(tie=positive,order=0,1)". */
  readonly name: string;
  /** Every option that shaped the routing, recorded in results. */
  readonly params: Readonly<Record<string, unknown>>;
  /** VC classes the routing needs for deadlock freedom (1 = none needed). */
  readonly vcClasses: number;
  /**
   * True when routes on `vcClasses` classes can never deadlock a wormhole network. The packet
   * engine replaces a routing that is not (plain shortest path) by up*\/down* (packetDeadlockFreeRouting).
   */
  readonly deadlockFree: boolean;
  /**
   * True when the last hop into a terminal may use every VC whatever its class (BookSim's flatfly
   * routings give the ejection port the whole VC range); the packet engine's direct terminals honour
   * it at the ejection port. Default: the last hop's class holds there too.
   */
  readonly ejectAnyVc?: boolean;
  /** Upper bound on hops of any route, to size buffers. */
  readonly maxHops: number;
  /**
   * Writes the route from node `src` to node `dst` into `out` and returns its length in hops.
   * `salt` seeds any random or hashed choice (per packet in the packet engine, per flow in the flow
   * engine) so the same salt always gives the same route.
   */
  route(src: number, dst: number, salt: number, out: RouteBuffers): number;
}

export function makeRouteBuffers(maxHops: number): RouteBuffers {
  return { channels: new Int32Array(maxHops), vcClass: new Uint8Array(maxHops) };
}
