/**
 * Reproductions describe their timed runs as RunRequest literals (the one description of a run every
 * front end builds, src/sim/request.ts) and run them through the library's simulate(), as the CLI
 * does. A study that times many requests on one network passes the topology it built, so prepare()
 * does not build it again for every request.
 */
import type { Topology } from '../../topology/graph.js';
import type { RunRequest } from '../../sim/request.js';
import { simulate, type CollectiveResult } from '../../sim/simulate.js';

/** The result of a collective or schedule request, on `topology` when given (else built from the request's spec). */
export function runRequest(request: RunRequest, topology?: Topology): CollectiveResult {
  const result = simulate(request, topology ? { loadTopology: () => topology } : {});
  if (result.kind !== 'meshwork-run-result') throw new Error(`a reproduction's collective request gave a ${result.kind}`);
  return result;
}
