export * from '../result.js';
export * from './event-queue.js';
export * from './maxmin.js';
export * from './model.js';
export * from './program.js';
export * from './engine.js';
export * from './run.js';
export * from './trace.js';
