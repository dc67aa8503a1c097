export * from './config.js';
export * from './network.js';
export * from './deadlock.js';
export * from './measure.js';
export * from './traffic-run.js';
export * from './allocators/index.js';
export * from './schedule-run.js';
export * from './booksim-config.js';
