/**
 * The one option schema of a timed run's model: each option is one row (library key, CLI flag,
 * unit, default, help, validator, the engines that honour it and what a run records when one does
 * not). Every front end is generated from it:
 *   - the CLI's options and help (`cli/commands/timing-options.ts` loops over MODEL_OPTIONS),
 *   - the sweep file's units (`sweep/file.ts`: `optionUnit`, so `eager-threshold: [64KiB, 65536]` is one point),
 *   - the Studio's model form (`web/src/ModelFields.svelte`),
 *   - the JSON schema of RunRequest's `model` (`runRequestJsonSchema`, schemas/run-request.schema.json).
 * Adding a model option is one row here plus the code in the engines that uses it.
 *
 * Values in a RunRequest are in the library's units (seconds, bytes, bytes/s); CLI, sweep and Studio
 * text goes through `parseOptionText` (1us, 64KiB, 25Gbps).
 */
import { InputError } from '../util/errors.js';
import { isDecimal } from '../util/spec.js';
import { parseBandwidth, parseSize, parseTime } from '../util/units.js';
import type { EngineName } from './simulate.js';
import { NETWORK_MODELS, parseFactorText } from './program/network-model.js';
import { parseOverheadText } from './program/software-overheads.js';
import { BARRIER_MODELS, INJECTION_ORDERS, LATENCY_RULES, PROTOCOLS, RATE_UPDATES, SHARINGS, SYMMETRY_MIN_RANKS, SYMMETRY_MODES, type FlowModelOptions } from './program/model.js';

/**
 * `factors`: a text option, SimGrid's factor syntax (one number, or threshold:value;...);
 * `overheads`: a text option, SMPI's overhead syntax (threshold:offset:per-byte;...).
 */
export type OptionUnit = 'time' | 'size' | 'bandwidth' | 'int' | 'number' | 'choice' | 'factors' | 'overheads';

export interface ModelOptionRow {
  /** The key in FlowModelOptions (RunRequest.model). */
  readonly key: keyof FlowModelOptions;
  /** The CLI flag without dashes (`--${flag}`), also the sweep file's option name and the Studio field. */
  readonly flag: string;
  readonly unit: OptionUnit;
  /** For unit 'choice'. */
  readonly choices?: readonly string[];
  /** For units 'int' and 'number'. */
  readonly min?: number;
  readonly max?: number;
  /** The default, as a user reads it (the library's default lives in resolveFlowModel and is recorded in every result). */
  readonly default: string;
  readonly help: string;
  /** The engines that honour the option. */
  readonly engines: readonly EngineName[];
  /** What a run on another engine records (RunResult.model.notApplied, or why it has no effect). */
  readonly elsewhere?: string;
  /** From the parsed value to the library's (e.g. a bandwidth to its inverse γ). Default: the value itself. */
  readonly toModel?: (value: number) => number;
}

const BOTH: readonly EngineName[] = ['flow', 'packet'];
const FLOW: readonly EngineName[] = ['flow'];
const inverse = (bw: number): number => 1 / bw;
const NOT_A_PACKET_TERM = 'recorded as not applied (model.notApplied): the packet engine moves flits over the links as they are';

export const MODEL_OPTIONS: readonly ModelOptionRow[] = [
  { key: 'alpha', flag: 'alpha', unit: 'time', default: '1us', engines: BOTH, help: 'per-message software overhead α' },
  { key: 'routerLatency', flag: 'router-latency', unit: 'time', default: '0', engines: BOTH, help: 'latency added per hop (the channel latency includes the router)' },
  { key: 'nics', flag: 'nics', unit: 'int', min: 1, max: 64, default: '1', engines: BOTH, help: 'NICs per rank; stream s injects through NIC s mod n' },
  { key: 'injectionBandwidth', flag: 'injection', unit: 'bandwidth', default: 'not a separate limit', engines: BOTH, help: 'injection bandwidth per NIC' },
  { key: 'ejectionBandwidth', flag: 'ejection', unit: 'bandwidth', default: 'not a separate limit', engines: BOTH, help: 'ejection bandwidth per NIC' },
  {
    key: 'barrierStageLatency', flag: 'barrier-latency', unit: 'time', default: 'α + max channel latency + router latency', engines: BOTH,
    help: 'barrier network stage latency; a barrier costs stage × ⌈log2 P⌉',
  },
  {
    key: 'latencyRule', flag: 'latency', unit: 'choice', choices: LATENCY_RULES, default: 'on-delivery', engines: FLOW,
    elsewhere: 'recorded as not applied (model.notApplied): packet latency is physical, which is on-delivery',
    help: 'when a flow spends its route latency: on-delivery (after its last byte left) or before-transfer (SimGrid: it holds no bandwidth for its route latency, then transfers; needs --injection-order shared)',
  },
  {
    key: 'sharing', flag: 'sharing', unit: 'choice', choices: SHARINGS, default: 'maxmin', engines: FLOW,
    elsewhere: 'recorded as not applied (model.notApplied): routers share a link by arbitration, as max-min does',
    help: "how flows share a channel: maxmin (max-min fair), cm02 (SimGrid: shares weighted by 1 / route latency; --preset simgrid) or none (ASTRA-sim's congestion-unaware analytical backend: every flow at its route's bottleneck bandwidth, as if it were alone; --preset astra)",
  },
  {
    key: 'networkModel', flag: 'network-model', unit: 'choice', choices: NETWORK_MODELS, default: "ideal; cm02 with --preset simgrid, smpi with --preset simgrid-smpi", engines: FLOW,
    elsewhere: NOT_A_PACKET_TERM,
    help: "SimGrid's corrections on top of --sharing cm02: ideal (none), cm02 (SimGrid's plain CM02 model: the TCP-gamma bound, rate <= 4 MiB / (2 x route latency), alone), lv08 (SimGrid's LV08: latency x 13.01, bandwidth x 0.97, weight-S 20537, TCP-gamma bound, cross-traffic) or smpi (SimGrid 3.32's default SMPI network model: per-size bandwidth and latency factors, weight-S 8775, TCP-gamma bound, cross-traffic of 0.05 on the reverse route); cross-traffic needs --rate-update full; each term can be set alone (--latency-factor, --bandwidth-factor, --weight-s, --tcp-gamma, --cross-traffic)",
  },
  {
    key: 'latencyFactor', flag: 'latency-factor', unit: 'factors', default: "the network model's: 1; 13.01 under lv08; SMPI's smpi/lat-factor under smpi", engines: FLOW,
    elsewhere: NOT_A_PACKET_TERM,
    help: "multiplies a message's route latency (SimGrid's network/latency-factor, or smpi/lat-factor under --network-model smpi): one number for every size, or SimGrid's threshold:value;... by message size (envelope included); needs --network-model cm02, lv08 or smpi",
  },
  {
    key: 'bandwidthFactor', flag: 'bandwidth-factor', unit: 'factors', default: "the network model's: 1; 0.97 under lv08; SMPI's smpi/bw-factor under smpi", engines: FLOW,
    elsewhere: NOT_A_PACKET_TERM,
    help: "multiplies the rate a message's bytes move at (SimGrid's network/bandwidth-factor, or smpi/bw-factor under --network-model smpi): one number, or threshold:value;... by message size; needs --network-model cm02, lv08 or smpi",
  },
  {
    key: 'weightS', flag: 'weight-s', unit: 'number', min: 0, default: "the network model's: 0 under cm02, 20537 under lv08, 8775 under smpi", engines: FLOW,
    elsewhere: NOT_A_PACKET_TERM,
    help: "SimGrid's network/weight-S in bytes: a flow's CM02 share penalty adds weight-S / bandwidth per channel of its route; needs --network-model cm02, lv08 or smpi",
  },
  {
    key: 'tcpGamma', flag: 'tcp-gamma', unit: 'size', default: '4MiB under cm02, lv08 and smpi (SimGrid 3.32)', engines: FLOW,
    elsewhere: NOT_A_PACKET_TERM,
    help: "SimGrid's network/TCP-gamma, the largest TCP window: a flow's rate is at most gamma / (2 × route latency), 0 for no bound (SimGrid's solver reads a bound of 0 as none); needs --network-model cm02, lv08 or smpi",
  },
  {
    key: 'crossTraffic', flag: 'cross-traffic', unit: 'number', min: 0, max: 1, default: '0 under cm02 (as --preset simgrid runs SimGrid), 0.05 under lv08 and smpi', engines: FLOW,
    elsewhere: NOT_A_PACKET_TERM,
    help: "the share of its rate a flow also takes on its reverse route, its acknowledgements (SimGrid's network/crosstraffic: 1 is 0.05, 0 none); needs --network-model cm02, lv08 or smpi and --rate-update full",
  },
  {
    key: 'barrier', flag: 'barrier', unit: 'choice', choices: BARRIER_MODELS, default: 'stages', engines: BOTH,
    help: "how a barrier is timed: stages (the barrier network above) or linear (SMPI's default: zero-byte messages to the lowest rank and back over the routes)",
  },
  { key: 'hwLevelLatency', flag: 'hw-latency', unit: 'time', default: '100ns', engines: BOTH, help: 'combining-tree latency per level for hw collectives' },
  { key: 'hwBandwidth', flag: 'hw-bandwidth', unit: 'bandwidth', default: 'the largest channel bandwidth', engines: BOTH, help: 'combining-tree bandwidth' },
  { key: 'turnaroundSwitch', flag: 'turnaround-switch', unit: 'time', default: '100ns', engines: BOTH, help: 'extra latency of a cut-through turnaround in the switch (seed 001 2.1us vs 2us)' },
  { key: 'turnaroundMemory', flag: 'turnaround-memory', unit: 'time', default: '2us', engines: BOTH, help: 'extra latency of a turnaround through memory (seed 001 4us vs 2us)' },
  { key: 'turnaroundReduce', flag: 'turnaround-reduce', unit: 'time', default: '400ns', engines: BOTH, help: 'extra latency of the in-switch reduce unit (seed 001 2.4us vs 2us)' },
  { key: 'gammaReduce', flag: 'reduce-bw', unit: 'bandwidth', default: 'free', engines: BOTH, toModel: inverse, help: 'local reduction speed, e.g. 10GB/s' },
  { key: 'gammaCopy', flag: 'copy-bw', unit: 'bandwidth', default: 'free', engines: BOTH, toModel: inverse, help: 'local copy speed, e.g. 20GB/s' },
  {
    key: 'rateUpdate', flag: 'rate-update', unit: 'choice', choices: RATE_UPDATES, default: 'exact', engines: FLOW,
    elsewhere: 'no effect: the packet engine moves flits cycle by cycle and has no rates to update',
    help: 'exact (exact max-min, re-solving the components of flows a batch of events touched), full (every flow re-solved after each batch: the reference) or local (only flows sharing a channel with a change; faster, approximate)',
  },
  {
    key: 'symmetry', flag: 'symmetry', unit: 'choice', choices: SYMMETRY_MODES, default: 'auto', engines: FLOW,
    elsewhere: 'no effect: the packet engine runs every rank',
    help: `auto (from ${SYMMETRY_MIN_RANKS} ranks, time one rank per orbit of the topology's automorphisms when the run is invariant under them: exact, and recorded with the reason when not used; an algorithm that declares its rank symmetry (the rings, pairwise, linear, Bruck, recursive doubling, Rabenseifner; on a torus hop-grouped, per-step-barrier, dimension-ordered) is timed from its representatives alone from 2^24 schedule ops), off (every rank) or representatives (auto, and those algorithms from their representatives alone at any size: no schedule view)`,
  },
  {
    key: 'injectionOrder', flag: 'injection-order', unit: 'choice', choices: INJECTION_ORDERS, default: 'fifo', engines: BOTH,
    help: "NIC model: fifo (a NIC's sends leave in order on each link, as the packet engine), per-destination, or shared (max-min among all outstanding sends, as SimGrid SMPI)",
  },
  {
    key: 'protocol', flag: 'protocol', unit: 'choice', choices: PROTOCOLS, default: 'eager', engines: BOTH,
    help: 'point-to-point protocol: eager (data moves when the send is posted), mpi (rendezvous from --eager-threshold: data moves once the receive is posted) or smpi (SimGrid SMPI: data always moves once the receive is posted; every send below --eager-threshold is detached, a sendrecv send too, a larger one completes on delivery)',
  },
  {
    key: 'eagerThreshold', flag: 'eager-threshold', unit: 'size', default: "64KiB, SMPI's", engines: BOTH,
    help: 'with --protocol mpi, the size from which a send uses rendezvous; with smpi, from which a send is not detached',
  },
  {
    key: 'asyncSmallThreshold', flag: 'async-small-threshold', unit: 'size', default: "0, SMPI's", engines: BOTH,
    help: "SMPI's smpi/async-small-thresh: with --protocol smpi, a send below it moves its data at once, without waiting for its receive (SMPI's small mailbox); 0: every send waits for its receive",
  },
  {
    key: 'sendOverhead', flag: 'send-overhead', unit: 'overheads', default: "none, SMPI's", engines: BOTH,
    help: "SMPI's smpi/os: the sender is busy this long before a detached blocking send (below --eager-threshold), as threshold:offset:per-byte;... by message size (e.g. 0:1us:0.1ns); needs --protocol smpi",
  },
  {
    key: 'isendOverhead', flag: 'isend-overhead', unit: 'overheads', default: "none, SMPI's", engines: BOTH,
    help: "SMPI's smpi/ois: the sender is busy this long before an isend or a sendrecv's send, any size, as threshold:offset:per-byte;...; needs --protocol smpi",
  },
  {
    key: 'recvOverhead', flag: 'recv-overhead', unit: 'overheads', default: "none, SMPI's", engines: BOTH,
    help: "SMPI's smpi/or: the receiver is busy this long after a message from a detached send arrives (in completion order within a waitall), as threshold:offset:per-byte;...; needs --protocol smpi",
  },
  {
    key: 'envelopeBytes', flag: 'envelope', unit: 'size', default: "0; 16 B with --preset simgrid, SMPI's", engines: FLOW,
    elsewhere: 'recorded as not applied (model.notApplied): the packet engine sends the data bytes alone',
    help: 'bytes every point-to-point message carries beyond its data (the MPI envelope): they time its transfer, so a zero-byte message takes bandwidth too',
  },
  {
    key: 'simultaneity', flag: 'simultaneity', unit: 'number', min: 0, max: 1e-3, default: '1e-12', engines: FLOW,
    elsewhere: 'no effect: the packet engine advances in whole cycles, so its events are simultaneous exactly',
    help: 'relative time tolerance under which flow events count as simultaneous and are applied in one batch before one rate update',
  },
];

/** The unit of a sweep/CLI option that is not a model option but is written in human units. */
const RUN_OPTION_UNITS: Readonly<Record<string, OptionUnit>> = { size: 'size' };

/** The row of a CLI flag, or undefined. */
export function modelOption(flag: string): ModelOptionRow | undefined {
  return MODEL_OPTIONS.find((r) => r.flag === flag);
}

/** The unit a CLI/sweep option is written in, for options with human units (time, size, bandwidth); undefined for the rest. */
export function optionUnit(flag: string): 'time' | 'size' | 'bandwidth' | undefined {
  const unit = modelOption(flag)?.unit ?? RUN_OPTION_UNITS[flag];
  return unit === 'time' || unit === 'size' || unit === 'bandwidth' ? unit : undefined;
}

/** Parses one value as a user writes it (1us, 64KiB, 25Gbps, a choice), refusing it in one line naming the field. */
export function parseOptionText(row: ModelOptionRow, text: string, field = row.flag): number | string {
  const t = text.trim();
  switch (row.unit) {
    case 'time':
      return parseTime(t, field);
    case 'size': {
      const v = parseSize(t, field);
      if (!Number.isSafeInteger(v)) throw new InputError(field, text, 'a whole number of bytes');
      return v;
    }
    case 'bandwidth':
      return parseBandwidth(t, field);
    case 'choice':
      if (!row.choices!.includes(t)) throw new InputError(field, text, row.choices!.join(', '));
      return t;
    case 'factors':
      parseFactorText(t, field);
      return t;
    case 'overheads':
      parseOverheadText(t, field);
      return t;
    default: {
      const v = Number(t);
      const whole = row.unit === 'int';
      // Decimal only: Number() would also read 0x10, 0b11 and 1_0 (0x10 NICs was 16).
      if (!isDecimal(t) || !Number.isFinite(v) || (whole && !Number.isInteger(v)) || (row.min !== undefined && v < row.min) || (row.max !== undefined && v > row.max)) {
        throw new InputError(field, text, `${whole ? 'an integer' : 'a number'}${row.min !== undefined ? ` from ${row.min}` : ''}${row.max !== undefined ? ` to ${row.max}` : ''}`);
      }
      return v;
    }
  }
}

/**
 * The model options given as text, by flag (CLI, sweep point, Studio form): undefined or empty
 * values are left out, so the preset or the library default applies.
 */
export function modelOptionsFromText(values: Readonly<Record<string, string | undefined>>): FlowModelOptions {
  const model: Record<string, unknown> = {};
  for (const row of MODEL_OPTIONS) {
    const text = values[row.flag];
    if (text === undefined || text.trim() === '') continue;
    const v = parseOptionText(row, text);
    model[row.key] = typeof v === 'number' && row.toModel ? row.toModel(v) : v;
  }
  return model as FlowModelOptions;
}

/** commander's property name of a flag: `router-latency` → `routerLatency`. */
export const flagProperty = (flag: string): string => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** One option's help line, with its default and the engines that honour it. */
export function optionHelp(row: ModelOptionRow): string {
  const engines = row.engines.length === 1 ? `; ${row.engines[0]} engine only${row.elsewhere ? ` (elsewhere: ${row.elsewhere})` : ''}` : '';
  return `${row.help} (default ${row.default}${engines})`;
}

/** The JSON-schema property of a row in RunRequest.model (library units). */
export function optionJsonSchema(row: ModelOptionRow): Record<string, unknown> {
  const unit = { time: 'seconds', size: 'bytes', bandwidth: 'bytes per second', int: '', number: '', choice: '', factors: '', overheads: '' }[row.unit];
  const description = `${row.help}${unit ? ` (${row.toModel ? `seconds per byte: 1 / ${unit}` : unit})` : ''}; default ${row.default}; honoured by ${row.engines.join(' and ')}${row.elsewhere ? `, elsewhere ${row.elsewhere}` : ''}. CLI --${row.flag}`;
  if (row.unit === 'choice') return { type: 'string', enum: [...row.choices!], description };
  if (row.unit === 'factors' || row.unit === 'overheads') return { type: 'string', description };
  const nullable = row.unit === 'bandwidth' && !row.toModel;
  return {
    type: row.unit === 'int' ? 'integer' : nullable ? ['number', 'null'] : 'number',
    ...(row.min !== undefined ? { minimum: row.min } : { minimum: 0 }),
    ...(row.max !== undefined ? { maximum: row.max } : {}),
    description,
  };
}
