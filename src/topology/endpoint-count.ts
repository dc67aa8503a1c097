/**
 * The one rule for a topology of a single endpoint (torus:1x1, mesh:1, a one-host hostfile): every
 * command and prepare() refuse it with the same line. Nothing Meshwork answers has a meaning there:
 * no pair for a distance, a mean or a bisection, no destination for traffic, and a collective that
 * moves nothing (0 s against a bound of 0 s; the packet engine has no channel to time a cycle by).
 * Families sized by one number already start at 2 (ring:1 is refused as topology.n); this catches
 * the shapes whose every dimension may be 1, files, and mappings onto a subset of the hosts.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from './graph.js';

export const MIN_ENDPOINTS = 2;

/** `topology` itself, or a one-line refusal naming the field and the spec it was built from. */
export function refuseSingleEndpoint(topology: Topology, spec: unknown, field = 'topology'): Topology {
  if (topology.numEndpoints >= MIN_ENDPOINTS) return topology;
  throw new InputError(field, spec, `a topology with at least ${MIN_ENDPOINTS} endpoints (this one has ${topology.numEndpoints})`);
}
