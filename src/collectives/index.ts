export * from './types.js';
export * from './schedule.js';
export * from './registry.js';
export * from './algorithms/classic.js';
export * from './algorithms/seeds.js';
