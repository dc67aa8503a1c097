export * from './bounds/index.js';
export * from './reproduce/index.js';
