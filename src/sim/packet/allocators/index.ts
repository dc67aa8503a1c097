/** Every built-in allocator and arbiter, registered on import; a new one adds its line here. */
export * from './registry.js';
export * from './islip.js';
export * from './round-robin.js';
export * from './age.js';
export * from './sparse.js';
export * from './separable.js';
export * from './wavefront.js';
export * from './pim.js';
export * from './max-size.js';
export * from './loa.js';
