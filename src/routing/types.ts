/**
 * The routing contract shared by the flow and packet engines.
 *
 * A route is computed into caller-owned buffers (no per-packet allocation): the ordered channel ids
 * from the source node to the destination node, and per hop the virtual-channel class the packet
 * must use on that channel (0 when the routing needs no VC classes for deadlock freedom).
 */
import { InputError } from '../util/errors.js';
import type { NodeRouteHint } from './hints.js';
import type { RandomStream } from '../util/rng.js';

/**
 * A hop's VC class that lets the packet take every VC (BookSim's mesh `valiant` leaving its
 * destination router in phase 0: routefunc.cpp restricts VCs by phase only away from the
 * destination). Only the packet engine reads VC classes.
 */
export const ANY_VC_CLASS = 255;

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
  /**
   * The VC class a packet to its own terminal ejects on at a direct terminal, where the routing
   * names one (BookSim's dragonflynew `ugal` gives a packet within its group phase 2; default 0, as
   * `min`'s phase at injection).
   */
  readonly selfSendClass?: number;
  /**
   * For a routing whose random choices BookSim makes as it routes a head (dimension order on a torus:
   * the side of a k/2 tie and `dim_order_bal`'s VC partition, as the packet turns into each
   * dimension; the fat tree's `nca` up-ports; the mesh's `xy_yx`, `romm` and `valiant`, at the
   * packet's first router): called by the packet engine when it draws from the run's stream
   * (PacketNetwork drawFrom) as the head is routed at `node`, where the route's hops `channels[at]` to
   * `channels[end - 1]` are still to go (`at === end` at the destination; `prev`: the channel it came
   * in on, −1 from its source). Where BookSim draws there, it draws the same numbers from `stream` and
   * rewrites the rest of the route (channels and classes from `at` on). Returns the route's new end
   * (`end` when its length is unchanged).
   */
  drawAtTurn?(node: number, prev: number, dst: number, channels: Int32Array, classes: Uint8Array, at: number, end: number, stream: RandomStream): number;
  /**
   * True when a route may end before its destination (astra-first-dimension: ASTRA-sim's charge of
   * the first dimension that differs): its latency and bottleneck are the model's charge, its links
   * not the message's path. Only the flow engine without sharing takes such a routing (engine.ts; the
   * packet engine refuses it), and no topology bound is given with it (sim/assemble.ts).
   */
  readonly partialRoutes?: boolean;
  /**
   * True when the routing makes BookSim's random draws itself where the packet engine hands it
   * BookSim's stream (`ctx.stream` in `route` at the packet's first router for an adaptive routing;
   * the `stream` argument of a candidate routing's `candidates`): the engine then routes each
   * router's heads in the order BookSim does, so that their draws come in BookSim's order.
   */
  readonly drawsFromStream?: boolean;
  /** Upper bound on hops of any route, to size buffers. */
  readonly maxHops: number;
  /**
   * The longest route between endpoints, where it is tighter than maxHops and worth computing once
   * (shortest path: maxHops is the node count, the longest route the diameter). The packet engine
   * sizes every packet's route columns by it; a routing without it is sized by maxHops.
   */
  longestRoute?(): number;
  /**
   * True when the routing reads `ctx.load` (adaptive minimal, UGAL, dragonfly ugal, DAL): the packet
   * engine then chooses a packet's path when it reaches its first router (PacketConfig.adaptiveDecision)
   * rather than when it is queued, and the flow engine counts flows per channel for it.
   */
  readonly adaptive?: boolean;
  /**
   * Writes the route from node `src` to node `dst` into `out` and returns its length in hops.
   * `salt` seeds any random or hashed choice (per packet in the packet engine, per flow in the flow
   * engine) so the same salt always gives the same route. `ctx` is what the engine knows at that
   * instant (channel loads, the schedule's route hint); without it loads read 0 and no hint applies.
   */
  route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number;
}

/**
 * The run-time context an engine passes to `route`, instead of writing into the routing object (a
 * routing object may serve several runs and engines at once). Engines own one context each and
 * update its fields before a call, so routing a packet allocates nothing.
 */
export interface RouteContext {
  /**
   * The load of a channel as the engine sees it now: credits in use over its VCs at packet level
   * (BookSim GetUsedCredit), unfinished flows routed over it at flow level (sim/flow/channel-load.ts).
   */
  load?: (channel: number) => number;
  /** The schedule's route hint for this message (sim/program: `via`, `path`, `ports`), if any. */
  hint?: NodeRouteHint;
  /**
   * BookSim's random stream, where the packet engine draws from it (PacketNetwork drawFrom) and the
   * routing draws from it (`drawsFromStream`): the routing takes BookSim's draws from here, in
   * BookSim's order, instead of hashing the salt.
   */
  stream?: RandomStream;
}

/** What `load` counts on each engine, recorded in the params of every routing that reads it. */
export const LOAD_MEANING = {
  flow: 'unfinished flows routed over the channel, read when the flow starts',
  packet: 'credits in use on the channel over all its VCs, read when the path is chosen (PacketConfig.adaptiveDecision)',
} as const;

/** The load `ctx` gives channel `c` (0 without an engine's load reader). */
export const loadOf = (ctx: RouteContext | undefined, c: number): number => (ctx?.load ? ctx.load(c) : 0);

export function makeRouteBuffers(maxHops: number): RouteBuffers {
  return { channels: new Int32Array(maxHops), vcClass: new Uint8Array(maxHops) };
}

/**
 * Refuses a routing whose routes may end before their destination (`partialRoutes`) where a route
 * must carry the message there: the packet engine (packets would stop short), or flows that share links.
 */
export function refusePartialRoutes(routing: RoutingFunction, where: 'packet' | 'sharing'): void {
  if (!routing.partialRoutes) return;
  const accepted =
    where === 'packet'
      ? 'a routing whose routes reach their destination on the packet engine (this one charges only the first dimension that differs: flow engine with sharing none, e.g. --preset astra)'
      : 'sharing none with this routing (it charges only the first dimension that differs, so shared links would be the wrong ones: --preset astra, or --sharing none)';
  throw new InputError('routing', routing.name, accepted);
}
