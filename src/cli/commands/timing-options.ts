/**
 * Options shared by `meshwork run` and `meshwork compare`: the topology, the collective and its
 * size, the routing, and every value of the flow engine's time model, in human units.
 */
import { Option, type Command } from 'commander';
import { formatBandwidth, formatSize, formatTime } from '../../util/units.js';
import '../../collectives/index.js'; // registers every algorithm
import { routingNames } from '../../routing/registry.js';
import { MODEL_OPTIONS, optionHelp, type OptionUnit } from '../../sim/options-schema.js';
import { FLOW_PRESET_NAMES } from '../../sim/flow/presets.js';
import { describeNoise, type NoiseModel } from '../../sim/program/disturb.js';
import { describeCorrections, type NetworkCorrections } from '../../sim/program/network-model.js';
import type { SizeOverheads } from '../../sim/program/software-overheads.js';
import type { RunResult } from '../../sim/result.js';
import type { Topology } from '../../topology/graph.js';
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
  /** --simgrid-cfg: SimGrid's --cfg items, space-separated (repeats joined). */
  simgridCfg?: string;
  barriers?: boolean;
  sizes?: string;
  json?: boolean;
  csv?: boolean;
}

const ARG: Record<OptionUnit, string> = { time: '<time>', size: '<bytes>', bandwidth: '<bw>', int: '<n>', number: '<x>', choice: '<name>', factors: '<factors>', overheads: '<overheads>' };

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
    .option('--simgrid-cfg <items>', "SimGrid's own configuration items, as smpirun --cfg=KEY:VALUE takes them (repeat the option, or separate items by spaces), on top of --preset simgrid or simgrid-smpi: network/model (CM02, LV08, SMPI), network/latency-factor, network/bandwidth-factor, smpi/lat-factor, smpi/bw-factor, network/weight-S, network/TCP-gamma, network/crosstraffic, smpi/send-is-detached-thresh; items with no effect on timing (tracing, memory folding) are named in a note; the options above still win", (item: string, previous?: string) => (previous === undefined ? item : `${previous} ${item}`))
    .option('--noise <spec>', 'disturbances (seed 000 ¶0048): skew=T (per-rank start, uniform), jitter=T (per-send mean, exponential), os=T with osprob=P (detour before an op, default p 0.01), seed=N, e.g. skew=10us,jitter=1us,seed=3 (default: none)')
    .option('--barriers', "bracket the collective with SMPI's barrier (Open MPI basic linear) and time it as MPI benchmarks do: from the first rank leaving the first barrier to the last leaving the second")
    .option('--json', 'print the full result as JSON')
    // One output format: --json --csv together printed JSON only, silently.
    .addOption(new Option('--csv', 'print CSV').conflicts('json')));
}

/** The topology line of a run's header: its spec, endpoints and channels. */
export const topologyEcho = (t: Topology): string =>
  `${t.spec} (${t.ranksShareHosts ? `${t.numEndpoints} ranks on ${String(t.params.rankHosts)} hosts` : `${t.numEndpoints} endpoints`}, ${t.numChannels} channels)`;

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
    ...(model.networkModel !== undefined && model.networkModel !== 'ideal' ? [`network model=${model.networkModel} (${describeCorrections(model as unknown as NetworkCorrections).join(', ')})`] : []),
    ...(model.preset ? [`preset=${model.preset}`] : []),
    ...(model.notApplied ? [`flow-only, not applied: ${Object.entries(model.notApplied).map(([k, v]) => `${k}=${String(v).split(':')[0]}`).join(' ')}`] : []),
    `injection order=${model.injectionOrder}`,
    `protocol=${model.protocol}${model.protocol === 'mpi' ? ` (rendezvous from ${formatSize(model.eagerThreshold as number)})` : model.protocol === 'smpi' ? ` (detached below ${formatSize(model.eagerThreshold as number)})` : ''}`,
    ...(model.asyncSmallThreshold ? [`data moves at once below ${formatSize(model.asyncSmallThreshold as number)} (smpi/async-small-thresh)`] : []),
    ...overheadsText(model),
    ...(model.envelopeBytes ? [`envelope=${formatSize(model.envelopeBytes as number)}`] : []),
    `turnaround switch/memory/reduce=${t('turnaroundSwitch')}/${t('turnaroundMemory')}/${t('turnaroundReduce')}`,
    ...(model.noise ? [`noise ${describeNoise(model.noise as NoiseModel)}`] : []),
  ].join(', ');
}

/** SMPI's software overheads the model sets, in SMPI's syntax (smpi/os, smpi/ois, smpi/or). */
function overheadsText(model: Record<string, unknown>): string[] {
  const names = { sendOverhead: 'os', isendOverhead: 'ois', recvOverhead: 'or' } as const;
  return Object.entries(names).flatMap(([key, smpi]) => {
    const o = model[key] as SizeOverheads | null | undefined;
    return o ? [`${smpi}=${o.thresholds.map((t, i) => `${t}:${formatTime(o.offsets[i])}:${formatTime(o.perByte[i])}`).join(';')}`] : [];
  });
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
