export * from './config.js';
export * from './network.js';
export * from './deadlock.js';
export * from './measure.js';
export * from './traffic-run.js';
export * from './allocators/islip.js';
export * from './allocators/round-robin.js';
export * from './allocators/age.js';
