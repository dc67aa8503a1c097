// The curated public API (src/index.ts, issue 24): its names are pinned here, so adding or removing
// one is a deliberate edit of this list; every name the docs' code examples import from 'meshwork'
// or 'meshwork/node' exists; engine internals are not exported.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import * as nodeApi from '../../src/node/index.js';
import { byName, listedExports } from './exports-of.js';

const PUBLIC_NAMES = [
  'type Algorithm', 'type AlgorithmContext', 'algorithmNames', 'type AllocatorDef', 'allocatorNames',
  'ALLTOALLV_GENERATORS', 'analyzeWorkload', 'anynetMinRouting', 'anynetTopology', 'applyFailures', 'applyHostList', 'applyMapping', 'type ArbiterDef',
  'arbiterNames', 'type Arbitration', 'assembleTrace', 'assertRanksConnected', 'ASTRA_BLOCKS', 'type AstraBlock', 'type AstraDimension', 'astraNetwork', 'astraNetworkSpec', 'astraSystemSettings', 'type AstraSystemSettings', 'type AutomorphismGenerator', 'type AutomorphismGroup', 'automorphismGroups', 'BARRIER_MODELS', 'type BarrierModel',
  'bisection', 'type Bisection', 'type BisectionCut', 'type BookSimAnynet', 'bookSimAnynetTopology', 'bookSimRun', 'type BookSimRun', 'type BoundRecord',
  'buildReportFiles', 'type BuildRequest', 'buildSchedule', 'buildTopology', 'BUILTIN_PATTERNS', 'busbwFactor',
  'cartesian', 'type CartesianOptions', 'cBanyan', 'CHAKRA_COLLECTIVES', 'type ChakraCollective',
  'type ChakraCollectiveInstance', 'type ChakraNode', 'type ChakraNodeInit', 'type ChakraNodeKind',
  'type ChakraRankTrace', 'type ChakraTrace', 'type ChannelSummary', 'checklistTable', 'circularOmega',
  'type CircularOmegaReading', 'circularOmegaRouting', 'type Claim', 'type CollectiveAlgorithms',
  'type CollectiveKind', 'type CollectiveResult', 'type CollectiveRunRequest', 'type CollectiveRunView', 'COLLECTIVES',
  'type CollectiveTiming', 'compareAlgorithms', 'type CompareOptions', 'type CompareResult', 'compareWithMeasured',
  'computeMetrics', 'ControlUnit', 'type ControlUnitOptions', 'countVerdicts', 'type CriticalNode',
  'cubeConnectedCycles', 'dalRouting', 'dceNetwork', 'type DceNetworkOptions', 'DeadlockError', 'decodeChakraRank',
  'DEFAULT_ROUTING', 'defaultRoutingName', 'describeNoise', 'detectTopologyFile', 'DEVICE_PRESETS',
  'type DeviceModel', 'type DimensionOrderOptions', 'dimensionOrderRouting', 'type DistanceConvention',
  'type DistanceMethod', 'type DistanceOptions', 'distanceSummary', 'type DistanceSummary', 'disturbProgram',
  'dragonfly', 'dragonflyMinimalRouting', 'type DragonflyOptions', 'dragonflyPlus', 'type DragonflyPlusOptions',
  'dragonflyUgalRouting', 'type DragonflyWiring', 'type Dtype', 'DTYPES', 'encodeChakraRank', 'type EngineName',
  'ENGINES', 'estimateSchedule', 'estimateSpecSize', 'type ExecuteOptions', 'executeSchedule',
  'type ExecutionReport', 'type ExplicitRoutes', 'EXPORT_FORMATS', 'exportDot', 'type ExportFormat', 'exportGraphml', 'exportJson',
  'exportTopology', 'fabric', 'FABRIC_MACHINES', 'type FabricOptions', 'type FailureSpec', 'familyNames', 'familyOf', 'fatpipeChannels',
  'fatTree', 'type FatTreeOptions', 'findAlgorithm', 'findAllocator', 'findArbiter', 'findFamily', 'findPattern',
  'findQuotient', 'findRouting', 'type FlatflyUgalOptions', 'flatflyUgalRouting', 'flatflyValiantRouting', 'flatflyXyYxRouting', 'FLOW_PRESET_NAMES', 'type FlowEngineOptions',
  'type FlowModel', 'type FlowModelOptions', 'flowPreset', 'type FlowPreset', 'FlowProgram', 'FlowProgramBuilder',
  'type FlowRouteHint', 'type FlowRunOutput', 'type FlowRunRequest', 'type FlowTraceRecorder', 'flyDestTagRouting', 'formatBandwidth', 'formatMetrics',
  'formatPerfTable', 'formatSize', 'formatTime', 'fullmesh', 'fullMeshRouting', 'generateAlltoallvSizes',
  'generatedTrace', 'type GeneratedWorkload', 'generateTransformer', 'graphmlTopology', 'groupedBarPlot', 'hash32',
  'heatmapPlot', 'type HorizonPoint', 'hypercube', 'hyperx', 'type HyperXOptions', 'INJECTION_ORDERS',
  'type InjectionOrder', 'InputError', 'isReduction', 'isRooted', 'jellyfish', 'type JellyfishOptions', 'kAryNFly',
  'LATENCY_RULES', 'type LatencyRule', 'LimitError', 'linePlot', 'type LinkAttributes', 'type LinkTraffic',
  'listAlgorithms', 'listAllocators', 'listArbiters', 'listFamilies', 'listPatterns', 'listRoutings', 'LOAD_MEANING',
  'type LoadedSchedule', 'type LoadPoint', 'type LoweredWorkload', 'type LowerOptions', 'lowerSchedule',
  'lowerWorkload', 'makePattern', 'makeRouteBuffers', 'MAX_SIMGRID_ROUTE_ENTRIES', 'MAX_SIMGRID_SHORTEST_PATH_VERTICES', 'MAX_SIZE_BYTES', 'mdce', 'mdceRouting', 'mdceTable1',
  'type MeasuredComparison', 'type MeasuredRow', 'mesh', 'type MetricsOptions', 'metricsRecord',
  'type MetricsRecord', 'MissingDependencyError', 'MODEL_OPTIONS', 'modelOption', 'type ModelOptionRow',
  'modelOptionsFromText', 'type MscclAlgo', 'type MscclImportOptions', 'type MscclSchedule', 'mscclToSchedule',
  'type MultiSeedResult', 'NAMED_MAPPINGS', 'ncclTestsBandwidth', 'type NcclTestsBandwidth', 'NodeKind',
  'type NodeRouteHint', 'type NoiseModel', 'type NoiseOptions', 'omega', 'omegaRouting', 'OP_NAMES',
  'type OpDependencies', 'OpKind', 'type OpRecord', 'optionUnit', 'type PacketConfig', 'packetDeadlockFreeRouting',
  'type PacketScheduleOptions', 'type ParamDecl', 'parseAlltoallvSizes', 'parseAnynet', 'parseBandwidth', 'parseBookSimAnynet',
  'parseBookSimConfig', 'parseCollective', 'parseCommGroups', 'parseFailures', 'parseMeasuredTable', 'parseNoise',
  'parseOptionText', 'parseResultsJson', 'parseRunRequest', 'parseSeedSelection', 'parseSize', 'parseTime',
  'type Part', 'pathToPorts', 'type PatternEntry', 'patternNames', 'type PatternOptions', 'type PerfRequest',
  'type PerfRow', 'perfSweep', 'type Plot', 'polarFly', 'type PolarFlyOptions', 'type PortsRouteHint',
  'positionalInt', 'prepare', 'type PreparedCollective', 'type PreparedRequest', 'type PreparedRun', 'type PreparedTraffic', 'type PreparedWorkload', 'prepareRequest', 'prepareTraffic', 'PRESET_NAMES',
  'presetConfig', 'type PresetName', 'presetRoutingOptions', 'type PriorityValue', 'type ProcessGroups', 'processGroupsFromMetadata', 'programToChakra', 'type Protocol', 'PROTOCOLS',
  'type QuarterPartition', 'type QuotientRun', 'randomDigraph', 'type RankFile', 'type RankProgram', 'type RankTimeline', 'RATE_UNITS', 'RATE_UPDATES',
  'type RateUnit', 'type RateUpdate', 'readMscclXml', 'readTrace', 'RECV', 'REDUCE_OPS', 'type ReduceOp', 'regionPastBuffer', 'registerAlgorithm',
  'registerAllocator', 'registerArbiter', 'registerFamily', 'registerPattern', 'registerRouting', 'renderHtmlReport',
  'renderPlotSvg', 'renderTextTable', 'type ReportFiles', 'type ReportOptions', 'type ReproductionRun', 'type RequestResult', 'rerunClaim',
  'resolveDevice', 'type ResolvedRunRequest', 'resolveFlowModel', 'resolveNoise', 'resolveRouting',
  'resolveSmpiAlias', 'type Result', 'RESULT_VERSION', 'resultsDocument', 'type ResultsJson', 'resultsJsonText',
  'ring', 'type RingOptions', 'Rng', 'type RouteBuffers', 'type RouteContext', 'type RouteHint', 'routeWithHint',
  'type RoutingEntry', 'routingFor', 'type RoutingFunction', 'routingNames', 'type RoutingOptions',
  'runCollectiveFlow', 'runFlow', 'type RunHooks', 'type RunIo', 'type RunOptions', 'runPrepared', 'runPreparedRequest', 'runPreparedTraffic', 'runReproductions',
  'runRequest', 'type RunRequest', 'runRequestJsonSchema', 'RunRequestSchema', 'type RunResult', 'runWorkload', 'type RunWorkload',
  'scatterPlot', 'Schedule', 'SCHEDULE_FILE_FORMATS', 'SCHEDULE_FORMAT', 'SCHEDULE_VERSION', 'ScheduleBuilder',
  'type ScheduleEstimate', 'type ScheduleFileFormat', 'scheduleFormatOf', 'scheduleFromJson', 'scheduleFromText',
  'scheduleJsonChunks', 'scheduleToJson', 'scheduleToMscclXml', 'SEED_IDS', 'type SeedId', 'type SelfRoute', 'selfRouteOf', 'SEND', 'type Sharing',
  'SHARINGS', 'type ShortestPathOptions', 'shortestPathRouting', 'type ShortestPathTie', 'type SimgridCfg', 'simgridCfgModel', 'type SimgridExportOptions', 'simgridTopology', 'simgridZoneTopology',
  'simulate', 'simulateCollective', 'simulateFlow', 'simulateMscclSchedule', 'simulatePacketSchedule',
  'type SimulateRequest', 'type SimulateResult', 'simulateTraffic', 'simulateTrafficSeeds', 'type SizeEstimate',
  'slimFly', 'type SlimFlyOptions', 'SMPI_ALIASES', 'type SmpiAlias', 'smpiAliasNames', 'smpiSelectorChoice', 'type SmpiSelectorContext', 'type Spec',
  'type Switching', 'SYMMETRY_MIN_RANKS', 'SYMMETRY_MODES', 'type SymmetryMode', 'type SymmetryRecord', 'type Table', 'type Table1Options', 'type Table1Row', 'terminalOnly', 'Topology', 'TOPOLOGY_FORMAT',
  'TOPOLOGY_FORMAT_VERSION', 'TopologyBuilder', 'type TopologyDocument', 'type TopologyFamily',
  'topologyFromDocument', 'type TopologyGrid', 'type TopologyMetrics', 'topologyOf', 'topologyToAnynet',
  'topologyToDocument', 'topologyToSimgrid', 'torus', 'type TorusTieBreak', 'tpuTorus', 'traceError', 'type TraceFileOptions', 'traceFromRankFiles',
  'type TrafficPattern', 'type TrafficPoint', 'type TrafficResult', 'type TrafficRunView', 'type TrafficSweepOptions',
  'type TrafficSweepResult', 'type TransformerOptions', 'type Turnaround', 'twoLevel', 'type TwoLevelOptions',
  'UnrunnableError', 'type UpDownOptions', 'upDownRouting', 'upDownStarRouting', 'type ValiantOptions',
  'valiantRouting', 'validateConfig', 'type Verdict', 'VERDICTS', 'verifyMscclSchedule',
  'WORKLOAD_DEFAULT_ALGORITHMS', 'WORKLOAD_OP_CATEGORIES', 'type WorkloadIo', 'type WorkloadReport', 'type WorkloadResult', 'type WorkloadRun',
  'type WorkloadRunRequest', 'type WorkloadRunView',
];

const root = new URL('../../', import.meta.url);
const listed = listedExports(new URL('src/index.ts', root).pathname);

/** `import { a, type B } from 'meshwork…'` in the ```ts/js blocks of README.md and docs/*.md. */
function docImports(): { entry: string; name: string; file: string }[] {
  const files = ['README.md', ...readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const found: { entry: string; name: string; file: string }[] = [];
  for (const file of files) {
    const text = readFileSync(new URL(file, root), 'utf8');
    for (const block of text.matchAll(/```(?:ts|typescript|js|javascript|mjs)\n([\s\S]*?)```/g)) {
      for (const m of block[1].matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(meshwork(?:\/node)?)'/g)) {
        for (const item of m[1].split(',').map((s) => s.trim()).filter(Boolean)) {
          found.push({ entry: m[2], name: item.replace(/^type\s+/, '').split(/\s+as\s+/)[0], file });
        }
      }
    }
  }
  return found;
}

describe('public API', () => {
  it('src/index.ts exports exactly the pinned names (sorted)', () => {
    expect(byName(listed)).toEqual(PUBLIC_NAMES);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('the listed value names are what the module exports at run time', () => {
    const values = listed.filter((n) => !n.startsWith('type ')).sort();
    expect(Object.keys(api).sort()).toEqual(values);
  });

  it("every name the docs' code examples import exists in its entry point", () => {
    const imports = docImports();
    // The docs do show library code (so this test checks something).
    expect(imports.map((i) => i.name)).toEqual(expect.arrayContaining(['buildTopology', 'simulate', 'registerAlgorithm', 'loadTopology']));
    const names = new Set(listed.map((n) => n.replace(/^type /, '')));
    const missing = imports.filter((i) => (i.entry === 'meshwork' ? !names.has(i.name) : !(i.name in nodeApi)));
    expect(missing).toEqual([]);
  });

  it('engine internals stay internal', () => {
    for (const internal of ['FlowTable', 'PathArena', 'MessageTable', 'NicSendQueues', 'EventQueue', 'IndexedTimeHeap', 'MatchTable', 'PacketNetwork', 'StreamRunner', 'MaxMinSolver', 'checkPacketRunSize', 'withBarrierLatency', 'hintedRouting', 'assembleResult']) {
      expect(internal in api, internal).toBe(false);
    }
  });
});
