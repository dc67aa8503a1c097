export * from './types.js';
export * from './schedule.js';
export * from './registry.js';
export * from './algorithms/classic.js';
export * from './algorithms/seeds.js';
export * from './patterns.js';
export * from './executor.js';
export * from './json.js';
