/**
 * Routing functions beyond dimension order and MDCE, and `defaultRouting`, which picks the routing
 * for a topology by its family.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import { dimensionOrderRouting, type TorusTieBreak } from './dimension-order.js';
import { dragonflyGroupDirectRouting, dragonflyMinimalRouting, dragonflyUgalBookSimRouting, dragonflyUgalRouting } from './dragonfly.js';
import { fullMeshRouting } from './full-mesh.js';
import { mdceRouting } from './mdce.js';
import { omegaRouting } from './omega.js';
import { shortestPathRouting, type ShortestPathTie } from './shortest-path.js';
import type { RoutingFunction } from './types.js';
import { upDownRouting } from './up-down.js';
import { valiantRouting } from './valiant.js';

export * from './distance-cache.js';
export * from './shortest-path.js';
export * from './full-mesh.js';
export * from './up-down.js';
export * from './omega.js';
export * from './valiant.js';
export * from './dragonfly.js';
export * from './hints.js';
export * from './up-star-down-star.js';

/** Routing names accepted by `--routing` (besides the family default). */
export const ROUTING_NAMES = ['default', 'dor', 'shortest', 'updown', 'ecmp', 'valiant', 'minimal', 'ugal', 'destination-tag', 'direct', 'mdce', 'nca', 'group-direct', 'ugal-booksim'] as const;
export type RoutingName = (typeof ROUTING_NAMES)[number];

export interface DefaultRoutingOptions {
  /** Override the family default. */
  routing?: RoutingName;
  /** Torus tie-break at exactly k/2 (dimension order). */
  tie?: TorusTieBreak;
  /** Flow engine: with tie = split, send half of each tied flow each way (see dor()). */
  splitHalves?: boolean;
  /** Dimension order for mesh/torus. */
  order?: readonly number[];
  /** Tie-break of shortest-path routing on other graphs. */
  shortestTie?: ShortestPathTie;
  seed?: number;
  /** Memory budget for cached routing state, bytes. */
  cacheBytes?: number;
}

const FAMILY_DEFAULT: Record<string, RoutingName> = {
  torus: 'dor',
  mesh: 'dor',
  mdce: 'mdce',
  dce: 'mdce',
  fullmesh: 'direct',
  'full-mesh': 'direct',
  fattree: 'updown',
  'fat-tree': 'updown',
  twolevel: 'updown',
  'two-level': 'updown',
  leafspine: 'updown',
  omega: 'destination-tag',
  dragonfly: 'minimal',
};

/**
 * Dimension-order routing. With `halves` and tie = split, an even salt takes the + direction at a
 * k/2 tie and an odd salt the − direction, and `params.split` = 'halves' tells the flow engine to
 * send exactly half of each tied flow each way (the packet engine's split is per pair, by hash).
 */
function dor(topology: Topology, opts: DefaultRoutingOptions): RoutingFunction {
  const common = { order: opts.order, seed: opts.seed };
  if (opts.tie !== 'split' || !opts.splitHalves) return dimensionOrderRouting(topology, { ...common, tie: opts.tie });
  const plus = dimensionOrderRouting(topology, { ...common, tie: 'positive' });
  const minus = dimensionOrderRouting(topology, { ...common, tie: 'negative' });
  return {
    name: plus.name.replace('tie=positive', 'tie=split-halves'),
    params: { ...plus.params, tie: 'split', split: 'halves' },
    vcClasses: plus.vcClasses,
    maxHops: plus.maxHops,
    route: (src, dst, salt, out) => ((salt & 1) === 0 ? plus : minus).route(src, dst, salt, out),
  };
}

function requireFamily(name: string, topology: Topology, families: string[]): void {
  if (!families.includes(topology.family)) {
    throw new InputError('routing', name, `a routing that fits ${topology.family} (${name} needs ${families.join(' or ')})`);
  }
}

/** The routing for a topology: its family's default, or the one named in `opts.routing`. */
export function defaultRouting(topology: Topology, opts: DefaultRoutingOptions = {}): RoutingFunction {
  const name = opts.routing && opts.routing !== 'default' ? opts.routing : (FAMILY_DEFAULT[topology.family] ?? 'shortest');
  const cacheBytes = opts.cacheBytes;
  switch (name) {
    case 'dor':
      requireFamily(name, topology, ['torus', 'mesh']);
      return dor(topology, opts);
    case 'mdce':
      requireFamily(name, topology, ['mdce', 'dce']);
      return mdceRouting(topology);
    case 'direct':
      return fullMeshRouting(topology);
    case 'updown':
      return upDownRouting(topology, { cacheBytes });
    case 'ecmp':
      return upDownRouting(topology, { ecmp: true, cacheBytes });
    case 'nca':
      return upDownRouting(topology, { nca: true, cacheBytes });
    case 'group-direct':
      requireFamily(name, topology, ['dragonfly']);
      return dragonflyGroupDirectRouting(topology);
    case 'ugal-booksim':
      requireFamily(name, topology, ['dragonfly']);
      return dragonflyUgalBookSimRouting(topology);
    case 'destination-tag':
      return omegaRouting(topology, { cacheBytes });
    case 'minimal':
      return dragonflyMinimalRouting(topology, { cacheBytes });
    case 'ugal':
      requireFamily(name, topology, ['dragonfly']);
      return dragonflyUgalRouting(topology, { seed: opts.seed, cacheBytes });
    case 'valiant': {
      requireFamily(name, topology, ['torus', 'dragonfly']);
      const base = topology.family === 'torus' ? dor(topology, opts) : dragonflyMinimalRouting(topology, { cacheBytes });
      return valiantRouting(topology, base, { seed: opts.seed });
    }
    case 'shortest':
      return shortestPathRouting(topology, { tie: opts.shortestTie ?? 'lowest', cacheBytes });
    default:
      throw new InputError('routing', name, ROUTING_NAMES.join(', '));
  }
}
