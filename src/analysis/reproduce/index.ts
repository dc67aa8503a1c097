export * from './types.js';
export * from './registry.js';
export * from './runner.js';
export * from './seed001-timing.js';
export * from './results-file.js';
