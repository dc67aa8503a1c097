export * from './program.js';
export * from './model.js';
export * from './from-schedule.js';
