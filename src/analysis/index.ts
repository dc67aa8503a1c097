export * from './reproduce/index.js';
