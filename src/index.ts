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
export * from './sim/library.js';
export * from './sim/nccl-tests.js';
export * from './sim/perf.js';
// One run request, prepared by the library: RunRequest, prepare(), the option schema (docs/architecture.md).
export * from './sim/request.js';
export * from './sim/prepare.js';
export * from './sim/options-schema.js';
export * from './analysis/index.js';
export * from './report/index.js';
export * from './interop/index.js';
// Workloads (Chakra execution traces): read, check, generate, lower, run, write.
export { decodeChakraRank, traceError, CHAKRA_COLLECTIVES, type ChakraNode, type ChakraNodeKind, type ChakraCollective, type ChakraRankTrace } from './workload/chakra/read.js';
export { assembleTrace, parseCommGroups, processGroupsFromMetadata, type ChakraTrace, type ChakraCollectiveInstance, type ProcessGroups } from './workload/chakra/trace.js';
export { encodeChakraRank, type ChakraNodeInit } from './workload/chakra/write.js';
export { traceFromRankFiles, type RankFile, type TraceFileOptions } from './workload/chakra/files.js';
export { DEVICE_PRESETS, resolveDevice, type DeviceModel } from './workload/device.js';
export { lowerWorkload, DEFAULT_ALGORITHMS as WORKLOAD_DEFAULT_ALGORITHMS, OP_CATEGORIES as WORKLOAD_OP_CATEGORIES, type LowerOptions, type LoweredWorkload, type CollectiveAlgorithms } from './workload/lower.js';
export { analyzeWorkload, type WorkloadReport, type RankTimeline, type CollectiveTiming, type CriticalNode, type LinkTraffic } from './workload/analyze.js';
export { runWorkload, type WorkloadRunRequest, type WorkloadRun } from './workload/run.js';
export { generateTransformer, generatedTrace, type TransformerOptions, type GeneratedWorkload } from './workload/generate.js';

// Names exported by more than one area: the canonical owner wins.
export { OpKind, OP_NAMES } from './collectives/index.js';
