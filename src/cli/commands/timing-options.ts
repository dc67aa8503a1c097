/**
 * Options shared by `meshwork run` and `meshwork compare`: the topology, the collective and its
 * size, the routing, and every value of the flow engine's time model, in human units.
 */
import { Option, type Command } from 'commander';
import { InputError } from '../../util/errors.js';
import { formatBandwidth, formatSize, formatTime, parseSize } from '../../util/units.js';
import { parseIntValue } from '../../util/spec.js';
import { loadTopology, readText } from '../../node/load-topology.js';
import { alltoallvSizes as resolveAlltoallvSizes } from '../../collectives/alltoallv-sizes.js';
import '../../collectives/index.js'; // registers every algorithm
import { parseCollective, type CollectiveKind } from '../../collectives/types.js';
import { routingNames, type RoutingOptions } from '../../routing/registry.js';
import { TORUS_TIE_BREAKS, type TorusTieBreak } from '../../routing/dimension-order.js';
import type { FlowEngineOptions } from '../../sim/flow/engine.js';
import { flagProperty, MODEL_OPTIONS, modelOptionsFromText, optionHelp, type OptionUnit } from '../../sim/options-schema.js';
import { FLOW_PRESET_NAMES, flowPreset } from '../../sim/flow/presets.js';
import { describeNoise, parseNoise, type NoiseModel } from '../../sim/program/disturb.js';
import type { Topology } from '../../topology/graph.js';
import type { RunResult } from '../../sim/result.js';
import { assertRanksConnected } from '../../topology/failures.js';

import { FAIL_HELP } from '../help.js';

export { FAIL_HELP };

export interface TimingCliOptions {
  topology?: string;
  mapping?: string;
  fail?: string;
  collective: string;
  size?: string;
  root?: string;
  peer?: string;
  routing?: string;
  tie?: string;
  seed?: string;
  preset?: string;
  /** The model options (MODEL_OPTIONS) arrive under commander's property names (`routerLatency` for --router-latency). */
  latency?: string;
  injectionOrder?: string;
  noise?: string;
  barriers?: boolean;
  sizes?: string;
  json?: boolean;
  csv?: boolean;
}

const ARG: Record<OptionUnit, string> = { time: '<time>', size: '<bytes>', bandwidth: '<bw>', int: '<n>', number: '<x>', choice: '<name>' };

/** The model options, one per row of the option schema (sim/options-schema.ts); `workload run` takes them too. */
export function addModelOptions(cmd: Command): Command {
  for (const row of MODEL_OPTIONS) cmd.option(`--${row.flag} ${ARG[row.unit]}`, optionHelp(row));
  return cmd;
}

export function addTimingOptions(cmd: Command, topologyRequired = '(required)'): Command {
  return addModelOptions(cmd
    // Required, but checked in parseTimingOptions: `run --request FILE` takes none.
    .option('--topology <spec>', `topology spec or file, e.g. torus:8x8,bw=25Gbps,lat=100ns ${topologyRequired}`)
    .option('--mapping <order>', 'rank order: identity, reverse, random:seed=N, snake, or a permutation file')
    .option('--fail <spec>', FAIL_HELP)
    .option('--collective <name>', 'alltoall, alltoallv, broadcast, reduce, allreduce, scatter, gather, allgather, reduce-scatter, one-to-one, barrier (SMPI spellings bcast, reduce_scatter too)', 'alltoall')
    .option('--sizes <spec|file>', 'alltoallv per-pair bytes: uniform:size=B, random:max=B[,min=0,seed=1], diagonal:size=B[,far=0], or a file of n x n byte counts (row = sender)')
    .option('--size <bytes>', 'per block for alltoall/allgather/gather/scatter; whole buffer for broadcast/reduce/allreduce/reduce-scatter; the message for one-to-one (e.g. 64KiB, 1MB)')
    .option('--root <rank>', 'root rank of rooted collectives (source of one-to-one) (default: 0)')
    .option('--peer <rank>', 'destination rank of one-to-one (default: the last rank, or 0 when --root is the last)')
    .option('--routing <name>', `routing: ${routingNames().join(', ')} (default: the family's)`)
    .option('--tie <mode>', 'torus tie-break at exactly k/2: positive, split (exact halves at flow level), parity, random, simgrid (+ except from k/2) (default: positive)')
    .option('--seed <n>', 'seed for random and hashed routing choices', '1')
    .option('--preset <name>', `model and routing defaults of another simulator or document: ${FLOW_PRESET_NAMES.join(', ')} (simgrid: SimGrid SMPI, CM02; simgrid-smpi: SimGrid SMPI with smpirun's default SMPI network model; seed001: seed 001's T0 = 2 µs and turnaround latencies; astra: ASTRA-sim's congestion-unaware analytical backend; see docs/flow.md); explicit options still win`)
    .option('--noise <spec>', 'disturbances (seed 000 ¶0048): skew=T (per-rank start, uniform), jitter=T (per-send mean, exponential), os=T with osprob=P (detour before an op, default p 0.01), seed=N, e.g. skew=10us,jitter=1us,seed=3 (default: none)')
    .option('--barriers', "bracket the collective with SMPI's barrier (Open MPI basic linear) and time it as MPI benchmarks do: from the first rank leaving the first barrier to the last leaving the second")
    .option('--json', 'print the full result as JSON')
    // One output format: --json --csv together printed JSON only, silently.
    .addOption(new Option('--csv', 'print CSV').conflicts('json')));
}

export interface TimingSetup {
  topology: Topology;
  collective: CollectiveKind;
  size: number;
  root: number | undefined;
  /** Destination of one-to-one (--peer), or undefined for the default. */
  peer: number | undefined;
  routingOptions: RoutingOptions;
  model: FlowEngineOptions;
  /** Disturbances applied to the lowered program (--noise), or undefined for none. */
  noise: NoiseModel | undefined;
  /** --barriers: SMPI's barrier before and after, timed between them. */
  barriers: boolean;
  /** alltoallv (--sizes): bytes from rank i to rank j at [i·n + j]. */
  sizes: Float64Array | undefined;
  /** What the user asked for, in the units they used, for the report header. */
  echo: Record<string, string>;
}

/** --sizes for alltoallv (required there, refused elsewhere): a generator or a size-matrix file. */
function alltoallvSizes(o: TimingCliOptions, collective: CollectiveKind, n: number): Float64Array | undefined {
  if (collective !== 'alltoallv') {
    if (o.sizes !== undefined) throw new InputError('sizes', o.sizes, 'sizes only with --collective alltoallv');
    return undefined;
  }
  if (o.sizes === undefined) throw new InputError('sizes', undefined, 'per-pair sizes for alltoallv: uniform:size=B, random:max=B[,min=0,seed=1], diagonal:size=B, or a file of n x n byte counts');
  if (o.size !== undefined) throw new InputError('size', o.size, 'no --size with alltoallv (--sizes gives every block)');
  return resolveAlltoallvSizes(o.sizes, n, readText);
}


export function parseTimingOptions(o: TimingCliOptions): TimingSetup {
  if (o.topology === undefined) throw new InputError('topology', undefined, 'a topology spec or file such as torus:8x8 (required)');
  const topology = loadTopology(o.topology, { mapping: o.mapping, fail: o.fail });
  assertRanksConnected(topology);
  const collective = parseCollective(o.collective);
  const sizes = alltoallvSizes(o, collective, topology.numEndpoints);
  if (o.size === undefined && collective !== 'barrier' && !sizes) throw new InputError('size', undefined, 'a size such as 64KiB or 1MB (required)');
  // alltoallv's --size is its largest block (what size-based limits check).
  const size = sizes ? sizes.reduce((a, b) => Math.max(a, b), 0) : o.size === undefined ? 0 : parseSize(o.size, 'size');
  if (!Number.isSafeInteger(size)) throw new InputError('size', o.size, 'a whole number of bytes');
  const root = o.root === undefined ? undefined : parseIntValue(o.root, 'root', { min: 0, max: topology.numEndpoints - 1 });
  // `collective verify` had --peer; `run` and `compare` could not time a transfer to a chosen rank (issue 28 item 12).
  if (o.peer !== undefined && collective !== 'one-to-one') throw new InputError('peer', o.peer, 'nothing unless --collective one-to-one (the destination of the transfer)');
  const last = topology.numEndpoints - 1;
  const peer = o.peer === undefined ? (collective === 'one-to-one' && root === last ? 0 : undefined) : parseIntValue(o.peer, 'peer', { min: 0, max: last });
  if (o.routing !== undefined && !routingNames().includes(o.routing)) throw new InputError('routing', o.routing, routingNames().join(', '));
  if (o.tie !== undefined && !(TORUS_TIE_BREAKS as readonly string[]).includes(o.tie)) throw new InputError('tie', o.tie, TORUS_TIE_BREAKS.join(', '));
  const seed = parseIntValue(o.seed ?? '1', 'seed', { min: 0, max: 2 ** 32 - 1 });
  const preset = o.preset === undefined ? undefined : flowPreset(o.preset);
  const routingOptions: RoutingOptions = {
    ...preset?.routing,
    routing: o.routing,
    ...(o.tie === undefined ? {} : { tie: o.tie as TorusTieBreak }),
    seed,
  };
  const texts: Record<string, string | undefined> = {};
  for (const row of MODEL_OPTIONS) {
    const v = (o as unknown as Record<string, unknown>)[flagProperty(row.flag)];
    if (typeof v === 'string') texts[row.flag] = v;
  }
  const explicit: FlowEngineOptions = modelOptionsFromText(texts);
  // A preset supplies defaults; an option given on the command line wins over it.
  const model: FlowEngineOptions = { ...preset?.model };
  for (const [k, v] of Object.entries(explicit)) if (v !== undefined) (model as Record<string, unknown>)[k] = v;
  // resolveFlowModel refuses this pair by its model field; name the option the user typed instead.
  if (model.latencyRule === 'before-transfer' && model.injectionOrder !== 'shared') {
    const from = o.latency === undefined ? `--preset ${model.preset}` : '--latency before-transfer';
    if (o.injectionOrder !== undefined) throw new InputError('injection-order', o.injectionOrder, `shared with ${from} (SimGrid's latency rule; its sends share the NIC), or any order with --latency on-delivery`);
    throw new InputError('latency', o.latency, 'on-delivery, or before-transfer with --injection-order shared (SimGrid, whose sends share the NIC)');
  }
  const echo: Record<string, string> = { topology: topologyEcho(topology), collective };
  if (o.size !== undefined) echo.size = sizeEcho(o.size, size);
  const noise = o.noise === undefined ? undefined : parseNoise(o.noise);
  if (collective === 'one-to-one') echo.collective = `one-to-one from rank ${root ?? 0} to rank ${peer ?? last}`;
  return { topology, collective, size, root, peer, routingOptions, model, noise, barriers: o.barriers === true, sizes, echo };
}

/** The topology line of a run's header: its spec, endpoints and channels. */
export const topologyEcho = (t: Topology): string => `${t.spec} (${t.numEndpoints} endpoints, ${t.numChannels} channels)`;

/** The size as given and in bytes: "64KiB = 64 KiB (65536 B)". */
export const sizeEcho = (text: string, bytes: number): string => `${text} = ${formatSize(bytes)} (${bytes} B)`;

/** alltoallv's per-pair sizes in a header (its --size is none): the generator or file as given, or a matrix's shape. */
export const sizesEcho = (sizes: string | readonly (readonly number[])[]): string => `per pair, ${typeof sizes === 'string' ? sizes : `${sizes.length} × ${sizes.length} matrix`}`;

/** The model as a user reads it: human units. */
export function describeModel(model: Readonly<Record<string, unknown>>): string {
  const t = (k: string): string => ((model[k] as number) === 0 ? '0' : formatTime(model[k] as number));
  const b = (k: string): string => (model[k] === null ? 'links' : formatBandwidth(model[k] as number));
  return [
    // A library schedule's messages take libraryAlpha (its latency replaces α; sim/library.ts).
    model.library ? `α=${t('libraryAlpha')} (library messages; ${t('alpha')} for others)` : `α=${t('alpha')}`,
    `router=${t('routerLatency')}`,
    `nics=${model.nics}`,
    `injection=${b('injectionBandwidth')}`,
    `ejection=${b('ejectionBandwidth')}`,
    model.barrier === 'linear' ? 'barrier=linear (to the lowest rank and back)' : `barrier stage=${t('barrierStageLatency')}`,
    `rate update=${model.rateUpdate}`,
    `sharing=${model.sharing}`,
    ...(model.latencyRule === 'before-transfer' ? ['latency before transfer'] : []),
    ...(model.networkModel === 'smpi' ? ['network model=smpi (SimGrid SMPI factors, weight-S, TCP-gamma, cross-traffic)'] : model.networkModel === 'cm02' ? ['network model=cm02 (TCP-gamma bound)'] : []),
    ...(model.preset ? [`preset=${model.preset}`] : []),
    ...(model.notApplied ? [`flow-only, not applied: ${Object.entries(model.notApplied).map(([k, v]) => `${k}=${String(v).split(':')[0]}`).join(' ')}`] : []),
    `injection order=${model.injectionOrder}`,
    `protocol=${model.protocol}${model.protocol === 'mpi' ? ` (rendezvous from ${formatSize(model.eagerThreshold as number)})` : model.protocol === 'smpi' ? ` (detached below ${formatSize(model.eagerThreshold as number)})` : ''}`,
    ...(model.envelopeBytes ? [`envelope=${formatSize(model.envelopeBytes as number)}`] : []),
    `turnaround switch/memory/reduce=${t('turnaroundSwitch')}/${t('turnaroundMemory')}/${t('turnaroundReduce')}`,
    ...(model.noise ? [`noise ${describeNoise(model.noise as NoiseModel)}`] : []),
  ].join(', ');
}

/** Messages and bytes moved, and the combining network's share (hwCollectives move data without messages). */
export function describeMessages(stats: RunResult['stats']): string {
  const hw = stats.hw_collective_ops > 0 ? `; combining network: ${stats.hw_collective_ops} hwCollective contributions (${formatSize(stats.hw_bytes)})` : '';
  return `${stats.messages} (${formatSize(stats.bytes)} moved)${hw}`;
}

export function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

export function csvLine(cells: Array<string | number>): string {
  return cells.map((c) => (typeof c === 'string' && /[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : String(c))).join(',');
}
