/**
 * The packet engine's router options, defined once for every command that runs it (`traffic`, and
 * `run --engine packet`): flag, help text, the default each command applies, and the parser.
 * The defaults differ by command because the presets do: `traffic` is BookSim's reference router,
 * a schedule run sizes packets and buffers so one stream can keep a link busy (schedule-run.ts).
 */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';
import { formatTime } from '../util/units.js';
import { maxOf } from '../util/arrays.js';
import { ADAPTIVE_DECISIONS, CREDIT_RETURNS, EJECTION_CREDITS, MAX_INTERNAL_SPEEDUP, MAX_SERIALIZATION, TERMINAL_MODELS, VC_ALLOC_CHECKS, type PacketConfig } from '../sim/packet/config.js';
import { allocatorNames, arbiterNames } from '../sim/packet/allocators/index.js';
import type { UnpaidTerminalLatency } from '../sim/packet/schedule-run.js';

export type PacketCommand = 'traffic' | 'run';

export interface PacketCliOptions {
  packetSize?: string;
  vcs?: string;
  vcBuf?: string;
  switching?: string;
  routerDelay?: string;
  arbitration?: string;
  allocator?: string;
  serialization?: string;
  channelLatency?: string;
  creditReturn?: string;
  terminals?: string;
  vcAllocCheck?: string;
  ejectionCredits?: string;
  internalSpeedup?: string;
  adaptiveDecision?: string;
}

interface PacketOption {
  readonly flags: string;
  readonly key: keyof PacketCliOptions;
  readonly description: () => string;
  readonly defaults: Readonly<Record<PacketCommand, string>>;
  readonly parse: (text: string) => Partial<PacketConfig>;
}

export function intOption(field: string, text: string, min: number, max: number): number {
  const v = Number(text);
  if (!/^\d+$/.test(text.trim()) || v < min || v > max) throw new InputError(field, text, `an integer in [${min}, ${max}]`);
  return v;
}

function speedupOption(text: string): number {
  const v = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(v >= 1 && v <= MAX_INTERNAL_SPEEDUP)) throw new InputError('internal-speedup', text, `a number in [1, ${MAX_INTERNAL_SPEEDUP}]`);
  return v;
}

function choice<T extends string>(field: string, text: string, accepted: readonly T[]): T {
  if (!accepted.includes(text as T)) throw new InputError(field, text, accepted.join(' | '));
  return text as T;
}

/** "cycles" for every channel, or "class=cycles,..." per channel class (e.g. local=10,global=100,terminal=1). */
export function parseChannelLatency(text: string): PacketConfig['channelLatency'] {
  const accepted = 'cycles, or class=cycles,... (e.g. local=10,global=100,terminal=1; "default" for the other classes)';
  if (!text.includes('=')) return intOption('channel-latency', text, 1, 1_000_000);
  const perClass: Record<string, number> = {};
  for (const part of text.split(',')) {
    const [name, value, extra] = part.split('=');
    if (extra !== undefined || !name?.trim() || !/^\d+$/.test(value?.trim() ?? '')) throw new InputError('channel-latency', text, accepted);
    if (Object.hasOwn(perClass, name.trim())) throw new InputError('channel-latency', text, 'each class at most once');
    perClass[name.trim()] = intOption('channel-latency', value.trim(), 1, 1_000_000);
  }
  return perClass;
}

const SAME = (d: string): Readonly<Record<PacketCommand, string>> => ({ traffic: d, run: d });

const PACKET_OPTIONS: readonly PacketOption[] = [
  { flags: '--packet-size <flits>', key: 'packetSize', description: () => 'flits per packet', defaults: { traffic: '1', run: '8 (a message is split into packets of at most this many flits)' }, parse: (t) => ({ packetSize: intOption('packet-size', t, 1, 65536) }) },
  { flags: '--vcs <n>', key: 'vcs', description: () => 'virtual channels per port', defaults: { traffic: '2', run: "2 per deadlock class of the routing" }, parse: (t) => ({ vcs: intOption('vcs', t, 1, 64) }) },
  { flags: '--vc-buf <flits>', key: 'vcBuf', description: () => 'buffer depth per VC', defaults: { traffic: '8', run: '16' }, parse: (t) => ({ vcBuf: intOption('vc-buf', t, 1, 65536) }) },
  { flags: '--switching <mode>', key: 'switching', description: () => 'wormhole | vct', defaults: SAME('wormhole'), parse: (t) => ({ switching: choice('switching', t, ['wormhole', 'vct'] as const) }) },
  { flags: '--router-delay <cycles>', key: 'routerDelay', description: () => "routing stage of the router pipeline (BookSim routing_delay; VC alloc, switch alloc and traversal take 1 cycle each)", defaults: SAME('1'), parse: (t) => ({ routingDelay: intOption('router-delay', t, 0, 1000) }) },
  { flags: '--arbitration <mode>', key: 'arbitration', description: () => `registered arbiter: ${arbiterNames().join(' | ')}`, defaults: SAME('round-robin'), parse: (t) => ({ arbitration: choice('arbitration', t, arbiterNames()) }) },
  { flags: '--allocator <name>', key: 'allocator', description: () => `registered allocator: ${allocatorNames().join(' | ')}`, defaults: SAME('islip'), parse: (t) => ({ allocator: choice('allocator', t, allocatorNames()) }) },
  { flags: '--serialization <cycles>', key: 'serialization', description: () => 'cycles per flit on every network channel', defaults: SAME('1'), parse: (t) => ({ serialization: intOption('serialization', t, 1, MAX_SERIALIZATION) }) },
  {
    flags: '--channel-latency <cycles>',
    key: 'channelLatency',
    description: () => 'latency of every network channel, or per class: local=10,global=100,terminal=1',
    defaults: { traffic: "1 cycle; under --preset booksim BookSim's, 2 on a torus", run: "the topology's link latency in cycles" },
    parse: (t) => ({ channelLatency: parseChannelLatency(t) }),
  },
  { flags: '--credit-return <when>', key: 'creditReturn', description: () => `credit leaves upstream: ${CREDIT_RETURNS.join(' | ')}`, defaults: SAME('next-cycle'), parse: (t) => ({ creditReturn: choice('credit-return', t, CREDIT_RETURNS) }) },
  { flags: '--terminals <model>', key: 'terminals', description: () => `indirect-network terminals: ${TERMINAL_MODELS.join(' | ')}`, defaults: SAME('direct'), parse: (t) => ({ terminals: choice('terminals', t, TERMINAL_MODELS) }) },
  { flags: '--adaptive-decision <when>', key: 'adaptiveDecision', description: () => `when an adaptive routing reads the credits: ${ADAPTIVE_DECISIONS.join(' | ')}`, defaults: SAME('first-router'), parse: (t) => ({ adaptiveDecision: choice('adaptive-decision', t, ADAPTIVE_DECISIONS) }) },
  {
    flags: '--ejection-credits <model>',
    key: 'ejectionCredits',
    description: () => `credits of the ejection VCs: ${EJECTION_CREDITS.join(' | ')} (terminal: vc-buf each, returned when the terminal reads the flit)`,
    defaults: SAME('unlimited; terminal under --preset booksim'),
    parse: (t) => ({ ejectionCredits: choice('ejection-credits', t, EJECTION_CREDITS) }),
  },
  { flags: '--vc-alloc-check <rule>', key: 'vcAllocCheck', description: () => `VC allocation requires: ${VC_ALLOC_CHECKS.join(' | ')}`, defaults: SAME('free'), parse: (t) => ({ vcAllocCheck: choice('vc-alloc-check', t, VC_ALLOC_CHECKS) }) },
  {
    flags: '--internal-speedup <S>',
    key: 'internalSpeedup',
    description: () => "crossbar passes per cycle, with FIFO output buffers sending one flit per cycle (BookSim internal_speedup)",
    defaults: SAME('1'),
    parse: (t) => ({ internalSpeedup: speedupOption(t) }),
  },
];

/** Adds every packet-router option to `cmd`, each with the default `command` applies. */
export function addPacketOptions(cmd: Command, command: PacketCommand): Command {
  const suffix = command === 'run' ? ' (with --engine packet)' : '';
  for (const o of PACKET_OPTIONS) cmd.option(o.flags, `${o.description()}${suffix} (default: ${o.defaults[command]})`);
  return cmd;
}

/** The packet configuration the options typed on the command line set (nothing for options not given). */
export function parsePacketOptions(o: PacketCliOptions): Partial<PacketConfig> {
  const config: Partial<PacketConfig> = {};
  for (const opt of PACKET_OPTIONS) {
    const text = o[opt.key];
    if (text !== undefined) Object.assign(config, opt.parse(text));
  }
  return config;
}

/** The first packet option given, with its flag (to refuse them where no packet engine runs). */
export function firstPacketOption(o: PacketCliOptions): { flag: string; value: string } | undefined {
  for (const opt of PACKET_OPTIONS) {
    const value = o[opt.key];
    if (value !== undefined) return { flag: opt.flags.split(' ')[0].replace(/^--/, ''), value };
  }
  return undefined;
}

/**
 * When a channel class's VC buffers do not cover its credit round trip (2 × latency + 1 cycles),
 * credit flow control lets it move at most VCs × buffer flits per round trip: long links with
 * short buffers run at a fraction of their bandwidth (packet/credit-bound.ts). One line saying so
 * and what covers it, or undefined; a packet time far above the flow one is then the buffers.
 */
export function creditLimitNote(model: Readonly<Record<string, unknown>>): string | undefined {
  const buffered = Number(model.vcs) * Number(model.vcBuf);
  const latency = model.channelLatency;
  // A class whose channels differ in latency (channelLatencyRange) is limited by its longest.
  const ranges = (model.channelLatencyRange ?? {}) as Record<string, [number, number]>;
  const classes: Array<[string, number]> =
    typeof latency === 'number' ? [['every channel', latency]] : Object.entries((latency ?? {}) as Record<string, number>).map(([cls, l]) => [cls, ranges[cls]?.[1] ?? l]);
  const short = classes.filter(([, l]) => buffered < 2 * l + 1);
  if (!(buffered > 0) || short.length === 0) return undefined;
  const worst = maxOf(short.map(([, l]) => 2 * l + 1));
  const share = (100 * buffered) / worst;
  return `credit-limited: channels of class ${short.map(([c]) => c).join(', ')} move at most ${String(model.vcs)} VCs × ${String(model.vcBuf)} flits per ${worst}-cycle credit round trip (${share < 10 ? share.toFixed(1) : share.toFixed(0)} % of their bandwidth); --vc-buf ${Math.ceil(worst / Number(model.vcs))} covers it`;
}

/**
 * Under direct terminals (the default) a terminal's link to its switch is not a hop, so its latency
 * is not paid at packet level, where the flow engine pays it (a named model difference, docs/flow.md):
 * one line saying which links and what pays it, or undefined.
 */
export function terminalLatencyNote(model: Readonly<Record<string, unknown>>): string | undefined {
  const unpaid = model.unpaidTerminalLatency as UnpaidTerminalLatency | undefined;
  if (!unpaid) return undefined;
  const links = Object.entries(unpaid).map(([cls, l]) => `${cls} ${formatTime(l.seconds)}`);
  return `direct terminals: the latency of the terminals' links (${links.join(', ')}) is not paid, as BookSim's terminals inject at their switch; the flow engine pays it, --terminals routers pays it here`;
}

/**
 * On a topology of mixed rates the packet engine's cycle is a flit time on the fastest channel and a
 * slower channel takes proportionally more cycles per flit: one line saying so, or undefined when
 * every channel has one rate.
 */
export function mixedRateNote(model: Readonly<Record<string, unknown>>): string | undefined {
  const rates = model.channelRates as { slowest_Bps: number; fastest_Bps: number } | undefined;
  if (!rates) return undefined;
  const gbps = (x: number): string => `${Number(((x * 8) / 1e9).toPrecision(4))} Gbps`;
  const ratio = Number((rates.fastest_Bps / rates.slowest_Bps).toPrecision(4));
  return `mixed rates: each channel at its own rate; a cycle is one flit on the fastest channel (${gbps(rates.fastest_Bps)}), the slowest (${gbps(rates.slowest_Bps)}) takes ${ratio} cycles per flit`;
}

/** The packet values a schedule run used, as a user reads them (run's text output). */
export function describePacketModel(model: Readonly<Record<string, unknown>>): string {
  const latency = model.channelLatency;
  const ranges = (model.channelLatencyRange ?? {}) as Record<string, [number, number]>;
  const latencyText =
    typeof latency === 'number' ? `${latency}` : Object.entries((latency ?? {}) as Record<string, number>).map(([cls, c]) => `${cls}=${ranges[cls] ? ranges[cls].join('..') : c}`).join(' ');
  const pipeline = ['routingDelay', 'vcAllocDelay', 'swAllocDelay', 'stDelay'].map((k) => Number(model[k]));
  return [
    `flit=${String(model.flitBytes)}B`,
    `packet=${String(model.packetSize)} flits`,
    `VCs=${String(model.vcs)}`,
    `VC buffer=${String(model.vcBuf)} flits`,
    `${String(model.switching)}`,
    `router delay=${pipeline.reduce((a, b) => a + b, 0)} cycles (routing ${pipeline[0]}, VC alloc ${pipeline[1]}, switch alloc ${pipeline[2]}, traversal ${pipeline[3]})`,
    ...(model.internalSpeedup !== undefined && model.internalSpeedup !== 1 ? [`internal speedup=${String(model.internalSpeedup)}`] : []),
    ...(model.outputSpeedup !== undefined && model.outputSpeedup !== 1 ? [`output speedup=${String(model.outputSpeedup)}`] : []),
    ...(model.inputSpeedup !== undefined && model.inputSpeedup !== 1 ? [`input speedup=${String(model.inputSpeedup)}`] : []),
    `channel latency=${latencyText} cycles`,
    `terminals=${String(model.terminals)}`,
    `cycle=${formatTime(Number(model.cycleSeconds))}`,
  ].join(', ');
}
