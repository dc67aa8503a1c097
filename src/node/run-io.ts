/** The RunIo of Node front ends (CLI, sweeps): topology, mapping and schedule files read from disk. */
import type { RunIo } from '../sim/prepare.js';
import { loadTopology, readText } from './load-topology.js';

export const nodeRunIo: RunIo = {
  loadTopology: (spec, opts) => loadTopology(spec, opts),
  readText,
};
