export * from './patterns.js';
export * from './sources.js';
export * from './registry.js';
