/**
 * Meshwork's public library API. Everything here is platform-neutral (no Node-only modules)
 * except what the `node` adapters name explicitly.
 */
export * from './util/errors.js';
export * from './util/units.js';
export * from './util/spec.js';
export * from './util/rng.js';
export * from './util/rates.js';
export * from './topology/index.js';
export * from './routing/index.js';
export * from './collectives/index.js';
export * from './sim/result.js';
export * from './sim/assemble.js';
export * from './sim/program/index.js';
export * from './sim/bounds/index.js';
export * from './sim/flow/index.js';
export * from './sim/packet/index.js';
export * from './sim/traffic/index.js';
export * from './sim/simulate.js';
// One run request, prepared by the library: RunRequest, prepare(), the option schema (docs/architecture.md).
export * from './sim/request.js';
export * from './sim/prepare.js';
export * from './sim/options-schema.js';
export * from './analysis/index.js';
export * from './report/index.js';
export * from './interop/index.js';

// Names exported by more than one area: the canonical owner wins.
export { OpKind, OP_NAMES } from './collectives/index.js';
