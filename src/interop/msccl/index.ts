export * from './format.js';
export * from './read.js';
export * from './to-schedule.js';
export * from './run.js';
export * from './write.js';
