export * from './patterns.js';
export * from './sources.js';
