export * from './demand.js';
export * from './topology-bounds.js';
export * from './schedule-bound.js';
