export * from './program.js';
export * from './model.js';
export * from './from-schedule.js';
export * from './event-queue.js';
export * from './match-table.js';
export * from './disturb.js';
