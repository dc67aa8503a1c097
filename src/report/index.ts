export * from './table.js';
export * from './checklist.js';
export * from './plot.js';
export * from './html.js';
