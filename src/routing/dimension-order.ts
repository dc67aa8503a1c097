/**
 * Dimension-order routing for mesh and torus. Owner: packet engine.
 * Placeholder signature so other areas can wire it before it lands.
 */
import type { Topology } from '../topology/graph.js';
import type { RoutingFunction } from './types.js';

export type TorusTieBreak = 'positive' | 'split' | 'parity' | 'random';

export interface DimensionOrderOptions {
  /** Dimensions in the order they are resolved; default 0, 1, 2, ... */
  order?: readonly number[];
  /** Direction at a distance of exactly k/2 on a torus ring; default 'positive'. */
  tie?: TorusTieBreak;
  /** Seed for tie = 'random'. */
  seed?: number;
}

export function dimensionOrderRouting(_topology: Topology, _opts: DimensionOrderOptions = {}): RoutingFunction {
  throw new Error('dimension-order routing is not implemented yet');
}
