export * from './types.js';
export * from './dimension-order.js';
export * from './mdce.js';
export * from './general.js';
