export * from './chakra/read.js';
export * from './chakra/trace.js';
export * from './device.js';
export * from './lower.js';
export * from './analyze.js';
export * from './run.js';
export * from './chakra/write.js';
export * from './generate.js';
