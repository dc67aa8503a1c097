/** Node-only adapters (files, processes). Not part of the platform-neutral `meshwork` entry. */
export * from './load-topology.js';
export * from './metrics-workers.js';
