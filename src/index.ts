/**
 * Meshwork's public library API: what users call, named one by one (docs/architecture.md, "Public
 * API"). Everything here is platform-neutral (no Node-only modules); files, workers and the UI server
 * are `meshwork/node`. Engine internals (flow tables, path arena, event queues, the packet network,
 * lowering helpers, size estimates) stay internal: tests and tools import them from their modules.
 * `test/api/public-api.test.ts` pins this list, so every addition or removal is a deliberate edit.
 * Names come from the same area barrels as before, so every registry still loads its built-ins.
 */

// Errors, units, randomness, the spec grammar.
export { InputError, LimitError, MissingDependencyError, UnrunnableError } from './util/errors.js';
export { parseSize, parseBandwidth, parseTime, formatSize, formatBandwidth, formatTime, MAX_SIZE_BYTES } from './util/units.js';
export { Rng, hash32 } from './util/rng.js';
export type { Spec } from './util/spec.js';

// Topologies: the graph, the family registry, one builder per family, failures, mappings, files, metrics.
export {
  Topology, NodeKind, TopologyBuilder, type DistanceConvention, type LinkAttributes, type ExplicitRoutes,
  buildTopology, registerFamily, listFamilies, findFamily, familyNames, familyOf, selfRouteOf, fatpipeChannels, positionalInt,
  type TopologyFamily, type SelfRoute, type TopologyGrid, type BisectionCut, type QuarterPartition,
  torus, mesh, cartesian, type CartesianOptions, ring, type RingOptions, fullmesh, hypercube,
  dragonfly, type DragonflyOptions, type DragonflyWiring, dragonflyPlus, type DragonflyPlusOptions,
  fatTree, type FatTreeOptions, hyperx, type HyperXOptions, jellyfish, type JellyfishOptions,
  omega, kAryNFly, polarFly, type PolarFlyOptions, slimFly, type SlimFlyOptions, twoLevel, type TwoLevelOptions,
  fabric, FABRIC_MACHINES, type FabricOptions, tpuTorus, astraNetwork, astraNetworkSpec, ASTRA_BLOCKS, type AstraBlock, type AstraDimension,
  mdce, dceNetwork, cBanyan, cubeConnectedCycles, type DceNetworkOptions, circularOmega, type CircularOmegaReading,
  mdceTable1, type Table1Row, type Table1Options,
  applyFailures, parseFailures, assertRanksConnected, type FailureSpec, applyMapping, applyHostList, NAMED_MAPPINGS,
  topologyFromDocument, topologyToDocument, TOPOLOGY_FORMAT, TOPOLOGY_FORMAT_VERSION, type TopologyDocument,
  exportTopology, exportJson, exportDot, exportGraphml, EXPORT_FORMATS, type ExportFormat,
  computeMetrics, type TopologyMetrics, type MetricsOptions, formatMetrics, metricsRecord, type MetricsRecord,
  distanceSummary, type DistanceSummary, type DistanceOptions, type DistanceMethod, bisection, type Bisection,
  estimateSpecSize, type SizeEstimate, randomDigraph,
} from './topology/index.js';
// The bisection side of a family whose cut is the terminals' links (a family's bisectionCut).
export { terminalOnly } from './topology/metrics/partitions.js';

// Routing: the function shape both engines call, the registry, the built-in routings, route hints.
export {
  type RoutingFunction, type RouteBuffers, type RouteContext, makeRouteBuffers, LOAD_MEANING,
  type RoutingEntry, type RoutingOptions, registerRouting, listRoutings, findRouting, routingNames, resolveRouting,
  defaultRoutingName, DEFAULT_ROUTING,
  shortestPathRouting, type ShortestPathOptions, type ShortestPathTie, dimensionOrderRouting, type DimensionOrderOptions,
  type TorusTieBreak, upDownRouting, type UpDownOptions, upDownStarRouting, packetDeadlockFreeRouting, valiantRouting,
  type ValiantOptions, fullMeshRouting, mdceRouting, omegaRouting, circularOmegaRouting, dragonflyMinimalRouting,
  dragonflyUgalRouting, dalRouting, flatflyUgalRouting, type FlatflyUgalOptions, flatflyXyYxRouting, flatflyValiantRouting, flyDestTagRouting, anynetMinRouting,
  routeWithHint, pathToPorts, type NodeRouteHint, type PortsRouteHint,
} from './routing/index.js';

// Collectives: schedules built, registered, executed byte for byte, serialised.
export {
  buildSchedule, type BuildRequest, estimateSchedule, type ScheduleEstimate, type Algorithm, type AlgorithmContext, type ParamDecl,
  registerAlgorithm, listAlgorithms, findAlgorithm, algorithmNames,
  Schedule, ScheduleBuilder, SEND, RECV, type Part, type RankProgram,
  executeSchedule, type ExecuteOptions, type ExecutionReport, regionPastBuffer,
  scheduleToJson, scheduleFromJson, scheduleJsonChunks, SCHEDULE_FORMAT, SCHEDULE_VERSION,
  type CollectiveKind, COLLECTIVES, parseCollective, isReduction, isRooted, OpKind, OP_NAMES,
  type Dtype, DTYPES, type ReduceOp, REDUCE_OPS, type RouteHint,
  SMPI_ALIASES, resolveSmpiAlias, smpiAliasNames, smpiSelectorChoice, type SmpiAlias, type SmpiSelectorContext,
  generateAlltoallvSizes, parseAlltoallvSizes, ALLTOALLV_GENERATORS,
  ControlUnit, type ControlUnitOptions,
} from './collectives/index.js';

// One run request: RunRequest, prepare(), simulate(), compare, the option schema (docs/architecture.md).
export { type RunRequest, type RunWorkload, RunRequestSchema, parseRunRequest, runRequestJsonSchema } from './sim/request.js';
export { prepare, prepareTraffic, topologyOf, type PreparedRun, type PreparedCollective, type PreparedTraffic, type ResolvedRunRequest, type RunIo } from './sim/prepare.js';
export {
  simulate, runPrepared, simulateCollective, runCollectiveFlow, routingFor, ENGINES,
  type EngineName, type SimulateRequest, type SimulateResult, type CollectiveRunRequest,
  type Result, type CollectiveResult, type TrafficResult, type TrafficPoint,
  runPreparedTraffic, type RunHooks, type CollectiveRunView, type TrafficRunView,
} from './sim/simulate.js';
export { compareAlgorithms, type CompareResult, type CompareOptions } from './sim/compare.js';
export { MODEL_OPTIONS, type ModelOptionRow, modelOption, modelOptionsFromText, parseOptionText, optionUnit } from './sim/options-schema.js';
export { RESULT_VERSION, type RunResult, type BoundRecord, type ChannelSummary, type OpRecord } from './sim/result.js';

// Programs (what the engines run) and the time model.
export {
  FlowProgram, FlowProgramBuilder, type FlowRouteHint, type Turnaround, type OpDependencies, lowerSchedule,
  type FlowModel, type FlowModelOptions, resolveFlowModel, BARRIER_MODELS, type BarrierModel, PROTOCOLS, type Protocol,
  SHARINGS, type Sharing, INJECTION_ORDERS, type InjectionOrder, RATE_UPDATES, type RateUpdate, LATENCY_RULES, type LatencyRule,
  parseNoise, resolveNoise, describeNoise, disturbProgram, type NoiseModel, type NoiseOptions,
} from './sim/program/index.js';

// The engines' entry points: the flow engine, the packet engine (schedules and synthetic traffic).
export { simulateFlow, type FlowEngineOptions, type FlowRunOutput, type FlowTraceRecorder, runFlow, type FlowRunRequest, flowPreset, presetRoutingOptions, FLOW_PRESET_NAMES, type FlowPreset, simgridCfgModel, type SimgridCfg } from './sim/flow/index.js';
// Symmetry (issue 29): declared automorphism groups and the quotient run's decision.
export { SYMMETRY_MODES, type SymmetryMode, SYMMETRY_MIN_RANKS } from './sim/program/model.js';
export { automorphismGroups, type AutomorphismGroup, type AutomorphismGenerator } from './topology/automorphisms.js';
export { findQuotient, type QuotientRun, type SymmetryRecord } from './sim/flow/symmetry.js';
export {
  simulatePacketSchedule, type PacketScheduleOptions,
  simulateTraffic, simulateTrafficSeeds, type TrafficSweepOptions, type TrafficSweepResult, type MultiSeedResult,
  type HorizonPoint, type LoadPoint, RATE_UNITS, type RateUnit,
  type PacketConfig, presetConfig, validateConfig, PRESET_NAMES, type PresetName, type Switching, type Arbitration,
  parseBookSimConfig, bookSimRun, type BookSimRun, DeadlockError,
  registerAllocator, registerArbiter, listAllocators, listArbiters, findAllocator, findArbiter, allocatorNames, arbiterNames,
  type AllocatorDef, type ArbiterDef, type PriorityValue,
} from './sim/packet/index.js';
export {
  registerPattern, listPatterns, findPattern, patternNames, makePattern, BUILTIN_PATTERNS,
  type PatternEntry, type PatternOptions, type TrafficPattern,
} from './sim/traffic/index.js';

// Collective-library timing and nccl-tests figures.
export { ncclTestsBandwidth, busbwFactor, type NcclTestsBandwidth } from './sim/nccl-tests.js';
export {
  perfSweep, type PerfRequest, type PerfRow, formatPerfTable, compareWithMeasured, parseMeasuredTable,
  type MeasuredRow, type MeasuredComparison,
} from './sim/perf.js';

// Reproductions, reports and plots.
export {
  runReproductions, buildReportFiles, parseSeedSelection, resultsDocument, rerunClaim, SEED_IDS,
  type SeedId, type RunOptions, type ReportOptions, type ReportFiles, type ReproductionRun,
  parseResultsJson, resultsJsonText, type ResultsJson,
} from './analysis/index.js';
export {
  renderHtmlReport, linePlot, scatterPlot, heatmapPlot, groupedBarPlot, renderPlotSvg, type Plot, renderTextTable, type Table,
  type Claim, type Verdict, VERDICTS, checklistTable, countVerdicts,
} from './report/index.js';

// Other tools' formats: anynet, GraphML, SimGrid platforms, MSCCL-XML, schedule files.
export {
  anynetTopology, parseAnynet, topologyToAnynet, bookSimAnynetTopology, parseBookSimAnynet, type BookSimAnynet, graphmlTopology, simgridTopology, topologyToSimgrid, type SimgridExportOptions, detectTopologyFile,
  simgridZoneTopology, MAX_SIMGRID_ROUTE_ENTRIES, MAX_SIMGRID_SHORTEST_PATH_VERTICES,
  readMscclXml, mscclToSchedule, type MscclSchedule, type MscclImportOptions, scheduleToMscclXml, simulateMscclSchedule,
  verifyMscclSchedule, type MscclAlgo,
  scheduleFromText, scheduleFormatOf, SCHEDULE_FILE_FORMATS, type ScheduleFileFormat, type LoadedSchedule,
} from './interop/index.js';

// Workloads (Chakra execution traces): read, check, generate, lower, run, write.
export { decodeChakraRank, traceError, CHAKRA_COLLECTIVES, type ChakraNode, type ChakraNodeKind, type ChakraCollective, type ChakraRankTrace } from './workload/chakra/read.js';
export { assembleTrace, parseCommGroups, processGroupsFromMetadata, type ChakraTrace, type ChakraCollectiveInstance, type ProcessGroups } from './workload/chakra/trace.js';
export { encodeChakraRank, type ChakraNodeInit } from './workload/chakra/write.js';
export { programToChakra } from './workload/chakra/export.js';
export { traceFromRankFiles, type RankFile, type TraceFileOptions } from './workload/chakra/files.js';
export { DEVICE_PRESETS, resolveDevice, type DeviceModel } from './workload/device.js';
export { lowerWorkload, DEFAULT_ALGORITHMS as WORKLOAD_DEFAULT_ALGORITHMS, OP_CATEGORIES as WORKLOAD_OP_CATEGORIES, type LowerOptions, type LoweredWorkload, type CollectiveAlgorithms } from './workload/lower.js';
export { analyzeWorkload, type WorkloadReport, type RankTimeline, type CollectiveTiming, type CriticalNode, type LinkTraffic } from './workload/analyze.js';
export { runWorkload, type WorkloadRunRequest, type WorkloadRun } from './workload/run.js';
export { astraSystemSettings, type AstraSystemSettings } from './workload/astra-system.js';
export { prepareRequest, runPreparedRequest, runRequest, readTrace, type PreparedRequest, type PreparedWorkload, type RequestResult, type WorkloadIo, type WorkloadResult, type WorkloadRunView } from './workload/request.js';
export { generateTransformer, generatedTrace, type TransformerOptions, type GeneratedWorkload } from './workload/generate.js';
