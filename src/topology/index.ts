export * from './graph.js';
export * from './builder.js';
export * from './registry.js';
export * from './cartesian.js';
export * from './families.js';
export * from './mdce/index.js';
export * from './metrics/index.js';
export * from './estimate.js';
