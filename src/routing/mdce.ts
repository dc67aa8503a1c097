/**
 * DCE/MDCE self-routing (seed 004, spec §2). Owner: seed 004 topology.
 * Placeholder signature so other areas can wire it before it lands.
 */
import type { Topology } from '../topology/graph.js';
import type { RoutingFunction } from './types.js';

export function mdceRouting(_topology: Topology): RoutingFunction {
  throw new Error('MDCE routing is not implemented yet');
}
