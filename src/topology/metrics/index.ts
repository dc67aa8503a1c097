// Exact static analysis of a Topology: distances (BFS, symmetry, products, sampling) and bisection.
export * from './bfs.js';
export * from './product.js';
export * from './distances.js';
export * from './bisection.js';
export * from './compute.js';
export * from './format.js';
export * from './random-graph.js';
