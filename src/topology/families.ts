/**
 * Every topology generator (each registers its family on import), the JSON graph format, rank
 * mappings and exporters. Importing this barrel makes every family available to buildTopology.
 */
export * from './ring.js';
export * from './hypercube.js';
export * from './fullmesh.js';
export * from './fattree.js';
export * from './twolevel.js';
export * from './omega.js';
export * from './dragonfly.js';
export * from './file-format.js';
export * from './mapping.js';
export * from './export/index.js';
