export * from './algorithms/seeds.js';
