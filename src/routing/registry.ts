/**
 * Routing functions by name, and `resolveRouting`, the one place a routing is chosen for a
 * topology: the name given, or else the family's declared default (`TopologyFamily.defaultRouting`),
 * or shortest path. Every built-in routing is listed in builtin-routings.ts and registered when this
 * module loads; adding one is its file (exporting a RoutingEntry), its test and one entry there.
 */
import { checkRegistryEntry, InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import { familyOf } from '../topology/registry.js';
import type { TorusDateline, TorusTieBreak } from './dimension-order.js';
import type { ShortestPathTie } from './shortest-path.js';
import type { RoutingFunction } from './types.js';
import { BUILTIN_ROUTINGS } from './builtin-routings.js';

export interface RoutingOptions {
  /** A registered routing name; undefined or 'default' for the family's default. */
  routing?: string;
  /**
   * The engine the routing serves. With tie = split, the flow engine sends exactly half of each
   * tied flow each way (salt parity picks the half), while the packet engine splits per pair by
   * hash, so that one pair's packets never take two paths. Default: 'packet' (a routing valid for both).
   */
  engine?: 'flow' | 'packet';
  /** Torus tie-break at exactly k/2 (dimension order). */
  tie?: TorusTieBreak;
  /** Torus VC class rule of dimension order: `crossing` (default) or BookSim's (`booksim`). */
  dateline?: TorusDateline;
  /** Dimension order for mesh/torus. */
  order?: readonly number[];
  /** Tie-break of shortest-path routing. */
  shortestTie?: ShortestPathTie;
  seed?: number;
  /** Why a preset chose this routing (presets.ts, presetRoutingOptions), recorded in its params as `chosen_by`. */
  chosenBy?: string;
  /** Memory budget for cached routing state, bytes. */
  cacheBytes?: number;
}

export interface RoutingEntry {
  /** The name `--routing` takes. */
  readonly name: string;
  /** One line for help text: what it does and where it fits. */
  readonly description: string;
  /**
   * Builds the routing; throws InputError naming what it needs when the topology does not fit.
   * `resolve` resolves another routing (e.g. Valiant's base) without importing this registry.
   */
  create(topology: Topology, opts: RoutingOptions, resolve: (opts: RoutingOptions) => RoutingFunction): RoutingFunction;
}

/** The name that asks for the family's default. */
export const DEFAULT_ROUTING = 'default';
/** Routing of families that declare none. */
export const FALLBACK_ROUTING = 'shortest';

const routings = new Map<string, RoutingEntry>();

/**
 * Registers a routing. A routing registered here (the user's code) has every route it gives checked
 * (checkedRoutes): a route of no channel, one that ends elsewhere or breaks off, an unknown channel
 * or more hops than its maxHops was timed as plausible makespans on both engines. Built-ins skip it.
 */
export function registerRouting(entry: RoutingEntry): void {
  checkRegistryEntry('routing', entry, ['create']);
  if (entry.name === DEFAULT_ROUTING) throw new InputError('routing.name', entry.name, `another name ("${DEFAULT_ROUTING}" asks for the family's default routing)`);
  routings.set(entry.name, { ...entry, create: (topology, opts, resolve) => checkedRoutes(entry.name, topology, entry.create(topology, opts, resolve)) });
}

for (const entry of BUILTIN_ROUTINGS) routings.set(entry.name, entry);

/** `routing` with each route checked: a walk of existing channels from the source to the destination, within maxHops. */
export function checkedRoutes(name: string, t: Topology, routing: RoutingFunction): RoutingFunction {
  if (typeof routing !== 'object' || routing === null || typeof routing.route !== 'function') throw new InputError(`routing ${name}`, routing, 'a create() that returns a RoutingFunction');
  if (!(Number.isInteger(routing.maxHops) && routing.maxHops >= 1)) throw new InputError(`routing ${name}.maxHops`, routing.maxHops, 'a positive integer');
  const inner = routing.route.bind(routing);
  const refuse = (src: number, dst: number, why: string): never => {
    throw new InputError(`routing ${name}`, `route ${src} -> ${dst}`, `a walk of channels from the source to the destination within maxHops (${routing.maxHops}); this one ${why}`);
  };
  return {
    ...routing,
    route(src, dst, salt, out, ctx) {
      const n = inner(src, dst, salt, out, ctx);
      if (!(Number.isInteger(n) && n >= 0 && n <= routing.maxHops)) refuse(src, dst, `has ${String(n)} hops`);
      if (src === dst) return n;
      if (n === 0) refuse(src, dst, 'has no channel');
      let at = src;
      for (let i = 0; i < n; i++) {
        const c = out.channels[i];
        if (!(c >= 0 && c < t.numChannels)) refuse(src, dst, `names channel ${c}, not one of ${t.spec}`);
        if (t.chSrc[c] !== at) refuse(src, dst, `breaks off at hop ${i} (channel ${c} leaves node ${t.chSrc[c]}, not ${at})`);
        at = t.chDst[c];
      }
      if (at !== dst && !routing.partialRoutes) refuse(src, dst, `ends at node ${at}`);
      return n;
    },
  };
}

export function listRoutings(): RoutingEntry[] {
  return [...routings.values()];
}

export function findRouting(name: string): RoutingEntry | undefined {
  return routings.get(name);
}

/** Every name `--routing` accepts, 'default' first. */
export function routingNames(): string[] {
  return [DEFAULT_ROUTING, ...routings.keys()];
}

/** The name of the routing a topology gets when none is named. */
export function defaultRoutingName(topology: Topology): string {
  // A platform that declares its routes (SimGrid zones, Topology.explicitRoutes) is routed by them.
  if (topology.explicitRoutes) return 'simgrid-zone';
  return familyOf(topology)?.defaultRouting ?? FALLBACK_ROUTING;
}

/** The routing for a topology: the one named in `opts.routing`, or its family's default. */
export function resolveRouting(topology: Topology, opts: RoutingOptions = {}): RoutingFunction {
  const name = opts.routing === undefined || opts.routing === DEFAULT_ROUTING ? defaultRoutingName(topology) : opts.routing;
  const entry = routings.get(name);
  if (!entry) throw new InputError('routing', name, routingNames().join(', '));
  return entry.create(topology, opts, (o) => resolveRouting(topology, o));
}
