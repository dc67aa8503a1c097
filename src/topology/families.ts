/**
 * Every topology generator, the JSON graph format, rank mappings and exporters. Families need no
 * import to be available: registry.ts registers every built-in family (builtin-families.ts).
 */
export * from './ring.js';
export * from './cartesian.js';
export * from './hypercube.js';
export * from './fullmesh.js';
export * from './fattree.js';
export * from './twolevel.js';
export * from './omega.js';
export * from './fly.js';
export * from './dragonfly.js';
export * from './hyperx.js';
export * from './slimfly.js';
export * from './polarfly.js';
export * from './dragonflyplus.js';
export * from './jellyfish.js';
export * from './finite-field.js';
export * from './failures.js';
export * from './file-format.js';
export * from './mapping.js';
export * from './export/index.js';
