/** Node-only adapters (files, processes). Not part of the platform-neutral `meshwork` entry. */
import { loadGraphFormat } from './load-topology.js';

export * from './load-topology.js';
export * from './file-path.js';
export * from './metrics-workers.js';
export * from './interop.js';

// loadTopology reads graph files synchronously: have their reader ready for library users.
await loadGraphFormat();
export * from './chakra.js';
export * from './run-io.js';
export * from './request-paths.js';
