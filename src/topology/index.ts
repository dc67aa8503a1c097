export * from './graph.js';
export * from './builder.js';
export * from './registry.js';
export * from './cartesian.js';
