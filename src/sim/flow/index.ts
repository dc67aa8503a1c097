export * from './maxmin.js';
export * from './engine.js';
export * from './run.js';
export * from './trace.js';
export * from './collective-run.js';
export * from './presets.js';
export * from './simgrid-cfg.js';
